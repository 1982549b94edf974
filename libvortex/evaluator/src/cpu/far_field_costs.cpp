// The cost model of the far field's choice between M2P and local expansions: each operation timed
// on this machine, once per process for each order and arithmetic, on a synthetic box and leaf
// (the operations' times do not depend on the data). Timed with the gradient, and used for calls
// of both kinds, so that the velocity of a call without the gradient is that of a call with it.
// Every thread times its own copy at once, under the load the stages run with (all threads busy);
// each takes the best of several rounds, and the costs are the threads' mean.

#include <chrono>
#include <mutex>
#include <random>
#include <vector>

#include "cpu/cpu_stages.hpp"
#include "vortex/kernels/order_dispatch.hpp"
#include "vortex/multipole/l2l.hpp"
#include "vortex/multipole/l2p.hpp"
#include "vortex/multipole/m2l.hpp"
#include "vortex/multipole/m2p_batch.hpp"

namespace vortex::detail {

namespace {

using Clock = std::chrono::steady_clock;

// Seconds per call of fn(): the best of 5 rounds of `calls` calls.
template <class Fn>
double best_time(int calls, Fn&& fn) {
  double best = 1e30;
  for (int round = 0; round < 5; ++round) {
    const auto start = Clock::now();
    for (int i = 0; i < calls; ++i) fn();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count() / calls);
  }
  return best;
}

template <int P, class T>
FarFieldCosts measure() {
  constexpr bool gradient = true;
  constexpr int Q = local_order(P), kTargets = 64;
  std::mt19937 gen(1);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  // A box of 32 particles about the origin, and a leaf of targets about (0.2, -0.1, 3).
  std::vector<double> M(multipole::multipole_size(P), 0.0),
      V(multipole::velocity_expansion_size(P));
  for (int j = 0; j < 32; ++j)
    multipole::p2m(P, u(gen), u(gen), u(gen), u(gen), u(gen), u(gen), M.data());
  multipole::m2v(P, M.data(), V.data());
  std::vector<T> E(gradient ? multipole::gradient_expansion_size(P) : V.size());
  if (gradient)
    multipole::gradient_expansion(P, V.data(), E.data());
  else
    for (std::size_t k = 0; k < V.size(); ++k) E[k] = static_cast<T>(V[k]);
  std::vector<T> x(kTargets), y(kTargets), z(kTargets);
  for (int i = 0; i < kTargets; ++i)
    x[i] = T(0.2 + u(gen)), y[i] = T(-0.1 + u(gen)), z[i] = T(3 + u(gen));
  std::vector<double> sums(12 * kTargets, 0.0);
  const multipole::LeafLanes<T> lanes{x.data(), y.data(), z.data(), kTargets, sums.data()};
  const T box[3] = {T(0), T(0), T(0)}, local[3] = {T(0.2), T(-0.1), T(3)};

  std::vector<double> L(multipole::local_size(Q), 0.0), child(L.size(), 0.0);
  std::vector<T> G(multipole::local_gradient_expansion_size(Q));
  FarFieldCosts c;
  c.m2l = best_time(32, [&] { multipole::m2l(P, Q, 0.2, -0.1, 3.0, M.data(), L.data()); });
  c.l2l = best_time(32, [&] { multipole::l2l(Q, 0.1, 0.1, -0.1, L.data(), child.data()); });
  multipole::local_gradient_expansion(Q, L.data(), G.data());
  c.l2p_target =
      best_time(32, [&] { multipole::l2p_lanes<Q>(G.data(), local, gradient, lanes); }) / kTargets;
  c.m2p_target = best_time(32,
                           [&] {
                             if (gradient)
                               multipole::m2p_velocity_gradient_lanes<P>(E.data(), box, lanes);
                             else
                               multipole::m2p_velocity_lanes<P>(E.data(), box, lanes);
                           }) /
                 kTargets;
  return c;
}

}  // namespace

FarFieldCosts far_field_costs(int p, FarArithmetic arithmetic) {
  static std::mutex mutex;
  static FarFieldCosts known[kMaxMultipoleOrder + 1][2];
  static bool measured[kMaxMultipoleOrder + 1][2] = {};
  dispatch_order(p, "far field costs", [](auto) {});  // the order's check
  const int a = arithmetic == FarArithmetic::Float ? 1 : 0;
  std::lock_guard<std::mutex> lock(mutex);
  if (!measured[p][a]) {
    FarFieldCosts sum;
    int threads = 0;
#pragma omp parallel
    {
      const FarFieldCosts c = dispatch_order(p, "far field costs", [&](auto P) {
        constexpr int order = decltype(P)::value;
        return a ? measure<order, float>() : measure<order, double>();
      });
#pragma omp critical
      {
        sum.m2l += c.m2l, sum.l2l += c.l2l;
        sum.l2p_target += c.l2p_target, sum.m2p_target += c.m2p_target;
        ++threads;
      }
    }
    known[p][a] = {sum.m2l / threads, sum.l2l / threads, sum.l2p_target / threads,
                   sum.m2p_target / threads};
    measured[p][a] = true;
  }
  return known[p][a];
}

}  // namespace vortex::detail
