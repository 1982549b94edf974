! A vortex ring evaluated from Fortran through the vortex module: the treecode against the direct
! sum on the same arrays, and the ring's speed against Kelvin's thin-ring formula.
program ring
  use, intrinsic :: iso_c_binding, only: c_double
  use vortex
  implicit none
  integer, parameter :: stations = 240, per_station = 7, n = stations * per_station
  real(c_double), parameter :: pi = acos(-1.0_c_double), core = 0.1_c_double
  real(c_double) :: x(3, n), g(3, n), sigma(n), u_tree(3, n), u_direct(3, n), grad(3, 3, n)
  real(c_double) :: phi, psi, d, r, length, err, kelvin, speed, divergence
  type(vortex_options) :: options
  type(vortex_solver) :: tree, direct
  type(vortex_stats) :: stats
  integer :: s, k, i, status

  ! Per station: one particle on the core's center line and six at half the core radius.
  do s = 0, stations - 1
    phi = 2 * pi * s / stations
    do k = 0, per_station - 1
      psi = 2 * pi * k / 6
      d = merge(0.0_c_double, 0.5_c_double * core, k == 0)
      r = 1 + d * cos(psi)
      length = 2 * pi * r / stations
      i = s * per_station + k + 1
      x(:, i) = [r * cos(phi), r * sin(phi), d * sin(psi)]
      g(:, i) = [-sin(phi), cos(phi), 0.0_c_double] * length / per_station
      sigma(i) = core
    end do
  end do

  call vortex_default_options(options)
  call require(vortex_create(options, tree), "create tree solver")
  options%method = VORTEX_METHOD_DIRECT
  options%backend = VORTEX_BACKEND_CPU
  call require(vortex_create(options, direct), "create direct solver")

  call require(vortex_evaluate(tree, x, g, sigma, u_tree, gradient=grad), "tree evaluation")
  call require(vortex_evaluate(direct, x, g, sigma, u_direct), "direct evaluation")
  call require(vortex_get_stats(tree, stats), "stats")

  err = sqrt(sum((u_tree - u_direct)**2) / sum(u_direct**2))
  speed = sum(u_direct(3, :)) / n
  divergence = maxval(abs(grad(1, 1, :) + grad(2, 2, :) + grad(3, 3, :)))
  kelvin = (log(8 / core) - 0.25_c_double) / (4 * pi)
  print '(a, i0, a, f6.3, a, i0)', 'particles ', n, ', treecode ', stats%total, ' s, p = ', stats%order
  print '(a, es9.2)', 'relative L2 error against the direct sum: ', err
  print '(a, f7.4, a, f7.4, a, es8.1)', 'ring speed ', speed, ' (Kelvin, uniform core: ', kelvin, &
    '); max |div u| ', divergence

  sigma(6) = -1
  status = vortex_evaluate(direct, x, g, sigma, u_direct)
  print '(a)', 'sigma(6) = -1: ' // vortex_last_error_message()
  status = vortex_evaluate(direct, x, g, sigma(1:n - 1), u_direct)
  print '(a)', 'sigma(1:n-1): ' // vortex_last_error_message()

  call vortex_destroy(tree)
  call vortex_destroy(direct)
  if (err > 1e-3 .or. speed < 0.5 * kelvin .or. speed > 1.5 * kelvin .or. divergence > 1e-6 &
      .or. status /= VORTEX_ERROR_INVALID_ARGUMENT) then
    print '(a)', 'FAILED'
    stop 1
  end if
  print '(a)', 'ok'

contains

  subroutine require(status, what)
    integer, intent(in) :: status
    character(*), intent(in) :: what
    if (status /= VORTEX_OK) then
      print '(a)', what // ' failed: ' // vortex_last_error_message()
      stop 1
    end if
  end subroutine

end program ring
