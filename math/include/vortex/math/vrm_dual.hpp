#pragma once
// The dual method of the VRM (vortex/vrm.hpp) for the non-negative fractions of least weighted
// norm of one particle, written once for the host's solves and the device's first round: K moment
// conditions sum_q f_q a_q = b, f_q = max(0, a_q . lambda) / c_q, Newton steps on the multipliers
// lambda. The rows a_q are formed from the offsets d_q (in units of h) where they are needed, and
// c_q = 1 + |d_q|^2; the caller's arrays hold every per-neighbour value, so nothing is allocated.
//
// The rare steps that need an eigendecomposition or a regularized factorization (a singular Hessian
// that the Gram route of gram_direction does not cover, a Newton step that does not ascend, a
// start whose matrix fails the Cholesky test) go through a Fallback: SmallFallback does them in
// fixed arrays (the host's solves and the device's owners that need them), NoFallback declines
// (the device's solves, which keep their registers for the common steps) and the solve then
// reports `deferred`, to be taken up where it stopped with a fallback that takes them.

#include <cmath>
#include <utility>

#include "vortex/math/hd.hpp"
#include "vortex/math/vrm_dual_algebra.hpp"

namespace vortex::vrm {

// One solve between its Newton iterations, so that it can run one iteration at a time (the
// device's threads each take the next owner as soon as theirs is done). Its start is an
// iteration too, from lambda = 0 with every neighbour counted active (one pass over the
// neighbours and one factorization, the iterations' own), so that a solve stopped anywhere, its
// start included, is saved by lambda, scale and iteration count alone. The dots of an accepted
// trial point are kept for the next iteration; a solve resumed elsewhere recomputes them from
// lambda, which gives the same values (the same products, lambda being that trial point).
template <int K>
struct DualSolve {
  double lambda[K];
  double scale;  // of the regularization: max(1, trace of the full Hessian / K)
  double tol, loose, null_floor;
  double residual = 0;
  int it = 0;
  bool started = false;            // lambda holds the start's multipliers or later ones
  bool dots_known = false;         // dots holds a_q . lambda already (from the accepted trial)
  bool swapped = false;            // the trial's dots are in a.dots' place and the reverse
  bool fractions_swapped = false;  // the last iteration's dots at its start were a.trial_dots
  bool ok = false;
  bool empty = false;  // no neighbours: no solution, and nothing reported
};

enum class Progress { running, done, deferred };

// The solve's limits from its moments b: converged residuals sit at 1e-16..1e-12 (rounding of the
// K x K solves); a stalled line search below `loose` is rounding too, not infeasibility.
template <int K>
VORTEX_HD void dual_limits(const double* b, DualSolve<K>& s) {
  double b_max = 0;
  for (int i = 0; i < K; ++i) b_max = fmax(b_max, fabs(b[i]));
  const double size = fmax(1.0, b_max);
  s.tol = 1e-12 * size;
  s.loose = 1e-9 * size;
  s.null_floor = 1e-13 * detail::norm<K>(b);  // a smaller part outside H's range is rounding
}

// A solve past its start taken up again elsewhere, in the caller's arrays (their weights set again
// here), from the saved s.lambda, s.scale and s.it.
template <int K>
VORTEX_HD void dual_resume(int m, const double* d, const double* b, DualArrays a, DualSolve<K>& s) {
  detail::set_inverse_weights(m, d, a.inv_c);
  dual_limits<K>(b, s);
  s.residual = 0;
  s.started = true;
  s.dots_known = s.swapped = s.ok = s.empty = false;
}

// A solve set up before its start: the weights, lambda = 0; `done` (with no solution) where there
// are no neighbours.
template <int K>
VORTEX_HD Progress dual_setup(int m, const double* d, const double* b, DualArrays a,
                              DualSolve<K>& s) {
  detail::set_inverse_weights(m, d, a.inv_c);
  s = DualSolve<K>{};
  for (int i = 0; i < K; ++i) s.lambda[i] = 0;
  if (m == 0) {
    s.empty = true;
    return Progress::done;
  }
  dual_limits<K>(b, s);
  return Progress::running;
}

namespace detail {

// The parts of one dual_iterate call, as members so that they share its arrays and the solve
// without passing them on: its one pass over the neighbours, the residual's test, the start's
// step, the null-space step and the Newton step with its line search. The members are VORTEX_HD,
// forced inline on the device, whose threads keep the arrays and the solve in registers.
template <int K, class Fallback>
struct DualIteration {
  int m;
  const double* d;
  const double* b;
  const double* inv_c;
  double* dots;        // a_q . lambda at lambda (swapped with trial_dots by an accepted trial)
  double* trial_dots;  // a_q . trial at the last dual_value's trial point
  Fallback& fallback;
  DualSolve<K>& s;

  // a_q . v, with the row formed where it is needed (the caller keeps no rows).
  VORTEX_HD double row_dot(int q, const double* v) const {
    double row[K];
    moment_row<K>(d + 3 * q, row);
    return dot<K>(row, v);
  }

  // The dual at a trial point; keeps its dots (for residual_at_trial and the next iteration).
  VORTEX_HD double dual_value(const double* trial) {
    double v = dot<K>(b, trial);
    for (int q = 0; q < m; ++q) {
      const double t = positive_part(trial_dots[q] = row_dot(q, trial));
      v -= 0.5 * t * t * inv_c[q];
    }
    return v;
  }

  // The moment residual at the trial point of the last dual_value call: the line search's second
  // test, where the dual's rise is below its rounding.
  VORTEX_HD double residual_at_trial() const {
    double r[K];
    for (int i = 0; i < K; ++i) r[i] = b[i];
    for (int q = 0; q < m; ++q) {
      const double t = trial_dots[q];
      if (!(t > 0)) continue;
      double row[K];
      moment_row<K>(d + 3 * q, row);
      for (int i = 0; i < K; ++i) r[i] -= (t * inv_c[q]) * row[i];
    }
    double worst = 0;
    for (int i = 0; i < K; ++i) worst = larger(worst, fabs(r[i]));
    return worst;
  }

  // The line search along a step from lambda (halving it from 1 down to 1e-4): whether a trial
  // point was accepted, which then is lambda, its dots those of `dots`.
  VORTEX_HD bool ascend(const double* step, double slope, double d0, double r0) {
    if (!(slope > 0)) return false;
    double* lambda = s.lambda;
    for (double alpha = 1; alpha > 1e-4; alpha *= 0.5) {
      double trial[K];
      for (int i = 0; i < K; ++i) trial[i] = lambda[i] + alpha * step[i];
      if (dual_value(trial) >= d0 + 1e-4 * alpha * slope || residual_at_trial() < 0.5 * r0) {
        for (int i = 0; i < K; ++i) lambda[i] = trial[i];
        s.swapped = !s.swapped;  // the trial's dots are lambda's now
        double* swap = dots;
        dots = trial_dots;
        trial_dots = swap;
        s.dots_known = true;
        return true;
      }
    }
    return false;
  }

  // The end of an iteration that goes on to the next one.
  VORTEX_HD Progress next() { return ++s.it < 80 ? Progress::running : Progress::done; }

  // One pass over the neighbours: the fractions at lambda (not kept: dual_fractions forms those
  // of the last iteration from its dots), the moment residual r, the Hessian's sums, the first K
  // active neighbours and how many there are (k), and the dual at lambda, returned (its terms of
  // the active neighbours; the others add zero). At the start lambda = 0: every dot, fraction
  // and term is zero, r = b.
  VORTEX_HD double pass(bool start, double (&r)[K], HessianSums<K>& sums, int (&active)[K],
                        int& k) {
    const double* lambda = s.lambda;
    for (int i = 0; i < K; ++i) r[i] = b[i];
    double d0 = dot<K>(b, lambda);
    for (int q = 0; q < m; ++q) {
      // A struct, not a bare array: the device compiler lets the arrays of the functions it
      // inlines share their stack slots, and this row, sharing one with the Cholesky factor's
      // array, would be stored there after the loop; on its own it stays in registers.
      struct {
        double v[K];
      } row;
      moment_row<K>(d + 3 * q, row.v);
      const double t = s.dots_known ? dots[q] : (dots[q] = dot<K>(row.v, lambda));
      if (start || t > 0) {
        const double fq = t * inv_c[q];
        for (int i = 0; i < K; ++i) r[i] -= fq * row.v[i];
        d0 -= 0.5 * t * t * inv_c[q];
        sums.add(d + 3 * q, inv_c[q]);
        if (k < K) active[k] = q;
        ++k;
      }
    }
    return d0;
  }

  // Past the start: whether the solve ends at lambda, its residual not finite or converged (ok).
  VORTEX_HD bool finished(double residual, bool finite) {
    s.residual = residual;
    if (!finite) return true;
    if (residual <= s.tol) {
      s.ok = true;
      return true;
    }
    return false;
  }

  // The start's step, the multipliers without the sign constraints: the Cholesky solve's (step)
  // where it factored H, a regularized solve otherwise.
  VORTEX_HD Progress start_step(double (&h)[K][K], bool factored, double (&step)[K]) {
    if (!factored) {  // regularized
      for (int i = 0; i < K; ++i) h[i][i] += 1e-8 * s.scale;
      if (!fallback.regularized_solve(h, 0.0, b, step)) return Progress::deferred;
    }
    for (int i = 0; i < K; ++i) s.lambda[i] = step[i];
    s.started = true;
    return Progress::running;
  }

  // Moments the active neighbours cannot reach: along v, the residual's part outside the active
  // rows' range, the dual rises linearly until an inactive neighbour q with a_q . v > 0 turns
  // active. Step just past the first such point; if there is none, the dual is unbounded and no
  // non-negative solution exists.
  VORTEX_HD Progress null_space_step(const double* v) {
    double length = HUGE_VAL;
    for (int q = 0; q < m; ++q) {
      const double t = dots[q], rate = row_dot(q, v);
      if (t <= 0 && rate > 0) length = -t / rate < length ? -t / rate : length;
    }
    if (length == HUGE_VAL) return Progress::done;
    const double move = length * (1 + 1e-9) + 1e-12 / norm<K>(v);
    for (int i = 0; i < K; ++i) s.lambda[i] += move * v[i];
    s.dots_known = false;
    return next();
  }

  // A Newton step with backtracking; damped steps (H + damping I, regularized by the fallback)
  // if it does not ascend.
  VORTEX_HD Progress newton_step(const double (&h)[K][K], const double (&r)[K],
                                 const double (&step)[K], double d0, double residual) {
    bool stepped = ascend(step, dot<K>(r, step), d0, residual);
    for (double damping = 1e-6; !stepped && damping <= 1e6; damping *= 1e2) {
      double damped[K];
      if (!fallback.regularized_solve(h, damping * s.scale, r, damped)) return Progress::deferred;
      stepped = ascend(damped, dot<K>(r, damped), d0, residual);
    }
    // No ascent left: rounding level, or the dual is unbounded.
    if (!stepped) return Progress::done;
    return next();
  }
};

// The max-norm of the moment residual r, and whether every entry is finite.
template <int K>
VORTEX_HD double residual_norm(const double (&r)[K], bool& finite) {
  double residual = 0;
  for (int i = 0; i < K; ++i) {
    const double e = fabs(r[i]);
    finite = finite && e < HUGE_VAL;  // false for inf and NaN
    residual = larger(residual, e);
  }
  return residual;
}

// The regularization's scale, set at the start: max(1, trace of the full Hessian / K).
template <int K>
VORTEX_HD double regularization_scale(const double (&h)[K][K]) {
  double trace = 0;
  for (int i = 0; i < K; ++i) trace += h[i][i];
  return fmax(1.0, trace / K);
}

}  // namespace detail

// One iteration. It works with the active neighbours (a_q . lambda > 0). Their rows need not span
// all K moments (a lattice stencil has no xy products, say), so the generalized Hessian
// H = sum_active a_q a_q^T / c_q may be singular: the residual's part in its null space is
// handled by an exact step to the next breakpoint, the part in its range by Newton's method.
// A Newton trial point is accepted when the dual rises enough (Armijo) or, near the solution
// where that rise is below the rounding of the dual value, when the moment residual falls.
// At most 80 iterations are taken.
//
// The start (the first call after dual_setup) counts every neighbour active at lambda = 0, so
// that its residual is b and its step the multipliers of the problem without the sign
// constraints: exact where all neighbours' rows are well conditioned (then, if every fraction is
// positive, already the solution), regularized otherwise. It is not counted as an iteration.
template <int K, class Fallback>
VORTEX_HD Progress dual_iterate(int m, const double* d, const double* b, DualArrays a,
                                bool cholesky_first, Fallback& fallback, DualSolve<K>& s) {
  double* dots = s.swapped ? a.trial_dots : a.dots;  // a_q . lambda, and at the trial points
  double* trial_dots = s.swapped ? a.dots : a.trial_dots;
  detail::DualIteration<K, Fallback> iteration{m, d, b, a.inv_c, dots, trial_dots, fallback, s};
  const bool start = !s.started;
  s.fractions_swapped = s.swapped;  // this iteration's fractions are those of `dots`
  double r[K];
  detail::HessianSums<K> sums;
  int active[K], k = 0;  // the first K active neighbours, and how many there are
  const double d0 = iteration.pass(start, r, sums, active, k);
  double h[K][K];
  sums.lower(h);
  bool finite = true;
  const double residual = detail::residual_norm<K>(r, finite);
  if (!start) {
    if (iteration.finished(residual, finite)) return Progress::done;
  } else {
    s.scale = detail::regularization_scale<K>(h);
  }
  // The Newton direction H^-1 r where H is well conditioned: the start's step too (r = b).
  vortex::detail::SmallCholesky<K> cholesky;
  const bool factored = cholesky_first && cholesky.factor(K, [&](int i, int j) { return h[i][j]; });
  double step[K];
  if (factored) cholesky.solve(r, step);
  if (start) return iteration.start_step(h, factored, step);
  Direction direction = factored ? Direction::newton : Direction::unknown;
  if (!factored && cholesky_first)
    direction = detail::gram_direction<K>(cholesky, r, d, a.inv_c, active, k, s.null_floor, step);
  if (direction == Direction::unknown) {
    direction = fallback.eigen_direction(h, r, s.null_floor, step);
    if (direction == Direction::unknown) return Progress::deferred;
  }
  if (direction == Direction::null_space) return iteration.null_space_step(step);
  return iteration.newton_step(h, r, step, d0, residual);
}

// The start: set up, and the start's iteration (dual_iterate).
template <int K, class Fallback>
VORTEX_HD Progress dual_start(int m, const double* d, const double* b, DualArrays a,
                              bool cholesky_first, Fallback& fallback, DualSolve<K>& s) {
  const Progress p = dual_setup<K>(m, d, b, a, s);
  if (p != Progress::running) return p;
  return dual_iterate<K>(m, d, b, a, cholesky_first, fallback, s);
}

// The fractions of a solve that is done, into a.f: its last iteration's, max(0, a_q . lambda) / c_q
// at that iteration's lambda (whose dots are kept in one of the two arrays).
template <int K>
VORTEX_HD void dual_fractions(int m, DualArrays a, const DualSolve<K>& s) {
  const double* dots = s.fractions_swapped ? a.trial_dots : a.dots;
  for (int q = 0; q < m; ++q) a.f[q] = detail::positive_part(dots[q]) * a.inv_c[q];
}

// The outcome of a solve that is done.
template <int K>
VORTEX_HD Outcome dual_outcome(const DualSolve<K>& s, double* residual_out, int* iterations_out) {
  if (s.empty) return Outcome::no_solution;
  if (residual_out) *residual_out = s.residual;
  if (iterations_out) *iterations_out = s.it;
  return s.ok || s.residual <= s.loose ? Outcome::solved  // below `loose`: stalled at rounding
                                       : Outcome::no_solution;
}

// The fractions of least weighted norm of m neighbours at offsets d (3 m values) for the moments
// b[K]; a.f gets them. `cholesky_first` false takes every direction from the fallback's
// eigendecomposition (the host's reference path). `residual` gets the max-norm moment residual,
// `iterations` the Newton count.
template <int K, class Fallback>
VORTEX_HD Outcome solve_nonnegative(int m, const double* d, const double* b, DualArrays a,
                                    bool cholesky_first, Fallback& fallback, double* residual_out,
                                    int* iterations_out) {
  DualSolve<K> s;
  Progress p = dual_start<K>(m, d, b, a, cholesky_first, fallback, s);
  while (p == Progress::running) p = dual_iterate<K>(m, d, b, a, cholesky_first, fallback, s);
  if (p == Progress::deferred) return Outcome::deferred;
  dual_fractions<K>(m, a, s);
  return dual_outcome<K>(s, residual_out, iterations_out);
}

// The outcome of a redistribution from that of its non-negative solve: where solved, the
// particle's own share f[self] is reset to 1 - sum of the others (so that the strength it hands
// on sums to its own to rounding), and a share below -1e-12 counts as no solution.
VORTEX_HD Outcome own_share(int m, int self, double* f, Outcome outcome) {
  if (outcome != Outcome::solved) return outcome;
  double others = 0;
  for (int q = 0; q < m; ++q)
    if (q != self) others += f[q];
  f[self] = 1.0 - others;
  return f[self] >= -1e-12 ? Outcome::solved : Outcome::no_solution;
}

// The redistribution fractions of one particle (vortex/vrm.hpp): the ten moments b, the particle
// itself at index `self` of the m offsets; its own share as own_share() sets it.
template <class Fallback>
VORTEX_HD Outcome solve_redistribution(int m, const double* d, int self, const double* b,
                                       DualArrays a, bool cholesky_first, Fallback& fallback,
                                       double* residual, int* iterations) {
  if (m == 0 || self < 0 || self >= m) {
    for (int q = 0; q < m; ++q) a.f[q] = 0;
    return Outcome::no_solution;
  }
  return own_share(
      m, self, a.f,
      solve_nonnegative<10>(m, d, b, a, cholesky_first, fallback, residual, iterations));
}

}  // namespace vortex::vrm
