! Fortran 2008 module over the vortex C interface (vortex.h).
!
!   use vortex
!   type(vortex_options) :: options
!   type(vortex_solver) :: solver
!   call vortex_default_options(options)
!   status = vortex_create(options, solver)
!   status = vortex_evaluate(solver, positions, strengths, sigma, velocity, gradient)
!   call vortex_destroy(solver)
!
! Arrays are Fortran arrays: positions(3, n), strengths(3, n), sigma(n), velocity(3, m) and,
! optionally, gradient(3, 3, m) with gradient(a, b, i) = d u_a / d x_b at target i. They are
! passed to the solver without copies into Fortran-side temporaries (double precision).
module vortex
  use, intrinsic :: iso_c_binding
  implicit none
  private

  integer(c_int), parameter, public :: VORTEX_OK = 0, VORTEX_ERROR_INVALID_ARGUMENT = 1, &
    VORTEX_ERROR_UNAVAILABLE = 2, VORTEX_ERROR_OUT_OF_MEMORY = 3, VORTEX_ERROR_INTERNAL = 4
  integer(c_int32_t), parameter, public :: VORTEX_CORE_EXPONENTIAL = 0, VORTEX_CORE_GAUSSIAN = 1, &
    VORTEX_CORE_ROSENHEAD_MOORE = 2, VORTEX_CORE_WINCKELMANS_LEONARD = 3, VORTEX_CORE_SINGULAR = 4
  integer(c_int32_t), parameter, public :: VORTEX_METHOD_TREE = 0, VORTEX_METHOD_DIRECT = 1
  integer(c_int32_t), parameter, public :: VORTEX_BACKEND_AUTO = 0, VORTEX_BACKEND_CPU = 1, &
    VORTEX_BACKEND_CUDA = 2
  integer(c_int32_t), parameter, public :: VORTEX_PRECISION_AUTO = 0, &
    VORTEX_PRECISION_DOUBLE = 1, VORTEX_PRECISION_FLOAT = 2
  integer(c_int32_t), parameter, public :: VORTEX_MAX_THREADS = 1024  ! as in vortex.h
  integer(c_int32_t), parameter :: FLOAT64 = 0

  ! Layouts match vortex.h field by field.
  type, bind(c), public :: vortex_options
    integer(c_int32_t) :: core, method, backend, precision, order
    integer(c_int32_t) :: target_bucket, source_bucket, arity, threads, uniform_order
    real(c_double) :: theta, kappa, tolerance
  end type

  type, bind(c), public :: vortex_stats
    real(c_double) :: total, tree, multipole, lists, near_field, far_field, transfer
    integer(c_int64_t) :: pair_interactions, multipole_interactions, near_list_entries, &
      far_list_entries, target_leaves, source_nodes
    integer(c_int32_t) :: backend, precision, order, target_bucket, source_bucket, arity
    real(c_double) :: theta, kappa
    integer(c_int32_t) :: copied_columns, uniform_order
    character(kind=c_char) :: device(64)
    real(c_double) :: tolerance
    real(c_double) :: setup
    real(c_double) :: layout_contrast, layout_dimension, layout_spread
  end type

  type, bind(c) :: c_sources
    integer(c_size_t) :: n
    integer(c_int32_t) :: type, reserved
    type(c_ptr) :: x, y, z, gx, gy, gz, sigma
    integer(c_ptrdiff_t) :: position_stride, strength_stride, sigma_stride
  end type

  type, bind(c) :: c_points
    integer(c_size_t) :: n
    integer(c_int32_t) :: type, reserved
    type(c_ptr) :: x, y, z
    integer(c_ptrdiff_t) :: stride
  end type

  type, bind(c) :: c_field
    integer(c_int32_t) :: type, reserved
    type(c_ptr) :: u(3)
    integer(c_ptrdiff_t) :: u_stride
    type(c_ptr) :: du(9)
    integer(c_ptrdiff_t) :: du_stride
  end type

  type, public :: vortex_solver
    type(c_ptr) :: handle = c_null_ptr
  end type

  ! A shape error found here, before the C library is called ("" when the last failure was its).
  character(len=:), allocatable, save :: shape_error

  public :: vortex_default_options, vortex_create, vortex_destroy, vortex_evaluate, &
    vortex_get_stats, vortex_last_error_message, vortex_cuda_available

  interface
    subroutine vortex_default_options(options) bind(c, name="vortex_default_options")
      import :: vortex_options
      type(vortex_options), intent(out) :: options
    end subroutine
    integer(c_int) function c_create(options, solver) bind(c, name="vortex_solver_create")
      import :: c_int, c_ptr, vortex_options
      type(vortex_options), intent(in) :: options
      type(c_ptr), intent(out) :: solver
    end function
    subroutine c_destroy(solver) bind(c, name="vortex_solver_destroy")
      import :: c_ptr
      type(c_ptr), value :: solver
    end subroutine
    integer(c_int) function c_evaluate(solver, sources, targets, out) bind(c, name="vortex_evaluate")
      import :: c_int, c_ptr, c_sources, c_field
      type(c_ptr), value :: solver, targets
      type(c_sources), intent(in) :: sources
      type(c_field), intent(in) :: out
    end function
    integer(c_int) function c_stats(solver, stats) bind(c, name="vortex_solver_stats")
      import :: c_int, c_ptr, vortex_stats
      type(c_ptr), value :: solver
      type(vortex_stats), intent(out) :: stats
    end function
    type(c_ptr) function c_last_error() bind(c, name="vortex_last_error")
      import :: c_ptr
    end function
    integer(c_int) function vortex_cuda_available() bind(c, name="vortex_cuda_available")
      import :: c_int
    end function
    integer(c_size_t) function c_strlen(s) bind(c, name="strlen")
      import :: c_size_t, c_ptr
      type(c_ptr), value :: s
    end function
  end interface

contains

  integer function vortex_create(options, solver) result(status)
    type(vortex_options), intent(in) :: options
    type(vortex_solver), intent(inout) :: solver
    shape_error = ""
    status = c_create(options, solver%handle)
  end function

  subroutine vortex_destroy(solver)
    type(vortex_solver), intent(inout) :: solver
    call c_destroy(solver%handle)
    solver%handle = c_null_ptr
  end subroutine

  ! Velocity (and, when present, gradient) of the particles at `targets`, or at the particles
  ! themselves when `targets` is absent.
  integer function vortex_evaluate(solver, positions, strengths, sigma, velocity, gradient, &
                                   targets) result(status)
    type(vortex_solver), intent(inout) :: solver
    real(c_double), intent(in), target, contiguous :: positions(:, :), strengths(:, :), sigma(:)
    real(c_double), intent(inout), target, contiguous :: velocity(:, :)
    real(c_double), intent(inout), target, contiguous, optional :: gradient(:, :, :)
    real(c_double), intent(in), target, contiguous, optional :: targets(:, :)
    type(c_sources) :: s
    type(c_points), target :: t
    type(c_field) :: f
    type(c_ptr) :: at
    integer :: a, b, m

    status = VORTEX_ERROR_INVALID_ARGUMENT
    shape_error = ""
    m = size(sigma)
    if (present(targets)) m = size(targets, 2)
    if (size(sigma) == 0 .or. m == 0) then
      shape_error = "vortex_evaluate: no particles or no targets"
    else if (size(positions, 1) /= 3 .or. size(strengths, 1) /= 3 .or. size(velocity, 1) /= 3) then
      shape_error = "vortex_evaluate: positions, strengths and velocity must be shaped (3, n)"
    else if (size(positions, 2) /= size(sigma) .or. size(strengths, 2) /= size(sigma)) then
      shape_error = "vortex_evaluate: positions and strengths must have size(sigma) columns"
    else if (size(velocity, 2) /= m) then
      shape_error = "vortex_evaluate: velocity must have one column per target"
    else if (present(targets)) then
      if (size(targets, 1) /= 3) shape_error = "vortex_evaluate: targets must be shaped (3, m)"
    end if
    if (present(gradient)) then
      if (size(gradient, 1) /= 3 .or. size(gradient, 2) /= 3 .or. size(gradient, 3) /= m) &
        shape_error = "vortex_evaluate: gradient must be shaped (3, 3, m)"
    end if
    if (len(shape_error) > 0) return

    s = c_sources(size(sigma, kind=c_size_t), FLOAT64, 0, c_loc(positions(1, 1)), &
      c_loc(positions(2, 1)), c_loc(positions(3, 1)), c_loc(strengths(1, 1)), &
      c_loc(strengths(2, 1)), c_loc(strengths(3, 1)), c_loc(sigma(1)), 3, 3, 1)
    at = c_null_ptr
    if (present(targets)) then
      t = c_points(size(targets, 2, kind=c_size_t), FLOAT64, 0, c_loc(targets(1, 1)), &
        c_loc(targets(2, 1)), c_loc(targets(3, 1)), 3)
      at = c_loc(t)
    end if
    f%type = FLOAT64
    f%reserved = 0
    do a = 1, 3
      f%u(a) = c_loc(velocity(a, 1))
    end do
    f%u_stride = 3
    f%du = c_null_ptr
    if (present(gradient)) then
      ! du[3a+b] (C, from 0) is gradient(a, b, i) (Fortran, from 1), 9 values per target.
      do a = 1, 3
        do b = 1, 3
          f%du(3 * (a - 1) + b) = c_loc(gradient(a, b, 1))
        end do
      end do
    end if
    f%du_stride = 9
    status = c_evaluate(solver%handle, s, at, f)
  end function

  integer function vortex_get_stats(solver, stats) result(status)
    type(vortex_solver), intent(in) :: solver
    type(vortex_stats), intent(out) :: stats
    status = c_stats(solver%handle, stats)
  end function

  ! The message of the last failed call on this thread.
  function vortex_last_error_message() result(message)
    character(len=:), allocatable :: message
    character(kind=c_char), pointer :: chars(:)
    type(c_ptr) :: p
    integer :: i, n
    if (allocated(shape_error)) then
      if (len(shape_error) > 0) then
        message = shape_error
        return
      end if
    end if
    p = c_last_error()
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate (character(len=n) :: message)
    do i = 1, n
      message(i:i) = chars(i)
    end do
  end function

end module vortex
