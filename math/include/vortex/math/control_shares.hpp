#pragma once
// Particle control's decisions for one particle (vortex/particle_control.hpp), written once for the
// host's and the device's: which of two particles ranks above the other, and the fractions with
// which a removed particle hands its strength to its receivers, found within a radius doubled
// while too few answer. How the receivers are found (the host's grid search and wall test, the
// device's grid walk) is the caller's, as a `collect` callable.

#include <cmath>
#include <cstdint>

#include "vortex/math/hd.hpp"
#include "vortex/math/small_cholesky.hpp"
#include "vortex/math/vrm_dual.hpp"

namespace vortex::control {

// The most receivers a device thread holds.
constexpr int kSlots = 64;

// What the device decides for a particle's merge.
enum Merge : std::int8_t { kNoMerge = 0, kMerge = 1, kMergeOnHost = 2 };

// Why the device left a candidate to the host.
enum Left : std::int32_t { kNotLeft = 0, kCrowded = 1, kWall = 2, kSolve = 3 };

// One candidate's receivers as the device found them.
struct DeviceShares {
  std::int32_t first = 0;   // its receivers and fractions from here in the pools
  std::int32_t count = -1;  // how many; 0: none found, -1: left to the host
  std::int32_t signed_shares = 0;
  std::int32_t left = kNotLeft;  // with count -1: more receivers than the slots or the pool
                                 // hold, a path not cleared of the wall, or the solve's fallback
};

// Signed shares whose magnitudes sum to more than this are refused: they come from receivers
// that nearly lie in a plane (or on a line) with the particle off it, and hand the receivers many
// times the particle's strength with both signs.
constexpr double kMaxSignedSum = 3;

// Whether particle j (strength sj, at xj, caller index j) ranks above particle i: stronger, or as
// strong and first by position (then by index), an order that does not depend on the particles'
// order but where they coincide.
VORTEX_HD bool stronger(double sj, const double* xj, int j, double si, const double* xi, int i) {
  if (sj != si) return sj > si;
  for (int c = 0; c < 3; ++c)
    if (xj[c] != xi[c]) return xj[c] < xi[c];
  return j < i;
}

// Least-norm fractions with zeroth and first moments, signed: f_q = a_q . lambda / c_q for rows
// a_q = (1, d_q) and weights c_q = 1 + |d_q|^2, with (sum_q a_q a_q^T / c_q) lambda = (1, 0, 0, 0).
// False where the receivers do not span 3-D (the matrix fails the Cholesky test of its
// conditioning).
VORTEX_HD bool signed_fractions(int m, const double* d, double* f) {
  double h[4][4] = {};
  for (int q = 0; q < m; ++q) {
    const double a[4] = {1, d[3 * q], d[3 * q + 1], d[3 * q + 2]};
    const double inv_c = vrm::inverse_weight(d + 3 * q);
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c <= r; ++c) h[r][c] += a[r] * a[c] * inv_c;
  }
  vortex::detail::SmallCholesky<4> cholesky;
  if (!cholesky.factor(4, [&](int r, int c) { return h[r][c]; })) return false;
  const double e1[4] = {1, 0, 0, 0};
  double lambda[4];
  cholesky.solve(e1, lambda);
  for (int q = 0; q < m; ++q) {
    const double* dq = d + 3 * q;
    f[q] = (lambda[0] + lambda[1] * dq[0] + lambda[2] * dq[1] + lambda[3] * dq[2]) *
           vrm::inverse_weight(dq);
  }
  return true;
}

// The per-receiver arrays of one hand-over (m entries each; d 3 m), the caller's.
struct ShareArrays {
  double* d;                          // offsets of the receivers from the particle, in units of h
  double* f;                          // the fractions
  double *inv_c, *dots, *trial_dots;  // the dual solve's scratch
};

enum class Shares { found, none, deferred };

// The fractions of a removed particle: within radius r = first_radius, 2 r, 4 r, 8 r, collect(r, a)
// fills a's offsets of the receivers found and returns their count (or -1: the caller cannot
// look this far, and the particle is deferred to one that can). Non-negative fractions where the
// particle lies inside its receivers' hull (their sum set to 1 exactly: the largest takes the
// difference), else, for a weak particle (not `merging`), signed ones bounded by kMaxSignedSum.
// `m` gets the receivers' count, `signed_shares` whether the fractions are signed. A Fallback
// that declines a step defers the particle too.
template <class Collect, class Fallback>
VORTEX_HD Shares find_shares(double first_radius, bool merging, Collect&& collect,
                             Fallback& fallback, int& m, bool& signed_shares) {
  for (double r = first_radius; r <= 8 * first_radius; r *= 2) {
    ShareArrays a;
    m = collect(r, a);
    if (m < 0) return Shares::deferred;
    if (m < 4) continue;
    const double b[4] = {1, 0, 0, 0};
    const vrm::Outcome o = vrm::solve_nonnegative<4>(
        m, a.d, b, {a.inv_c, a.f, a.dots, a.trial_dots}, true, fallback, nullptr, nullptr);
    if (o == vrm::Outcome::deferred) return Shares::deferred;
    signed_shares = o != vrm::Outcome::solved;
    if (!signed_shares) {
      int largest = 0;
      for (int q = 1; q < m; ++q)
        if (a.f[q] > a.f[largest]) largest = q;
      double others = 0;
      for (int q = 0; q < m; ++q)
        if (q != largest) others += a.f[q];
      a.f[largest] = 1.0 - others;
      return Shares::found;
    }
    if (merging || !signed_fractions(m, a.d, a.f)) continue;
    double magnitudes = 0;
    for (int q = 0; q < m; ++q) magnitudes += fabs(a.f[q]);
    if (magnitudes <= kMaxSignedSum) return Shares::found;
  }
  m = 0;
  return Shares::none;
}

}  // namespace vortex::control
