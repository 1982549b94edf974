#pragma once
// Error bound of a local expansion (M2L of order p -> q, m2l.hpp, then L2P, l2p.hpp). For sources
// within a of the multipole centre, targets within b of the local centre, R = |t| > a + b, per unit
// |G| (Banach's bound on the mixed directional derivatives of 1/r, |d^N (1/r)| <= N!/r^(N+1)):
//
//   |d psi|     <= sum_{n>p or k>q} C(n+k, k) a^n b^k / R^(n+k+1)
//   |d u|       <= sum_{n>p or k>q} k C(n+k, k) a^n b^(k-1) / R^(n+k+1)
//   |d grad u|F <= 3 sum_{n>p or k>q} k (k-1) C(n+k, k) a^n b^(k-2) / R^(n+k+1)
//
// i.e. velocity and gradient converge like ((a+b)/R)^(min(p, q-1)+1) and ((a+b)/R)^(min(p, q-2)+1):
// q = p + 2 keeps M2P's order of accuracy for the gradient.

#include <cmath>

namespace vortex::multipole {

// The bound above on |error| per unit |G|: of psi (derivative 0), of the velocity (1) or of the
// Frobenius norm of the gradient (2); a + b < R.
inline double local_error_bound(int p, int q, double a, double b, double R, int derivative) {
  const int d = derivative, n_max = p + q + 400;
  double sum = 0;
  double an = 1 / R;  // a^n / R^(n+1)
  for (int n = 0; n <= n_max; ++n, an *= a / R) {
    double binom = 1;  // C(n+k, k) at k = d
    for (int i = 1; i <= d; ++i) binom = binom * (n + i) / i;
    double bk = std::pow(R, -d);  // b^(k-d) / R^k
    for (int k = d; k <= n_max; ++k) {
      if (n > p || k > q) {
        double falling = 1;  // k!/(k-d)!
        for (int i = 0; i < d; ++i) falling *= k - i;
        sum += binom * falling * an * bk;
      }
      binom = binom * (n + k + 1) / (k + 1);
      bk *= b / R;
    }
  }
  return d == 2 ? 3 * sum : sum;
}

}  // namespace vortex::multipole
