// The cost model of the far field's choice between M2P and local expansions: the time of each
// operation at order p, fitted to the operations timed on the 2-core AVX-512 Xeon (M2P and L2P:
// docs/journal/performance-to-2026-11-27.md, "Local expansions beside M2P": every thread timing 32
// calls on a synthetic box and a leaf of 64 targets at once, best of 5 rounds, at p = 7 and 8 in
// float and 11 and 13 in double; M2L and L2L: docs/journal/2026-11-28-m2l-rotation.md, the
// walk's own times over 2 threads on the cube of 100,000 at tolerances 1e-3 to 1e-7). A fixed model
// rather than timings taken by each process: the same particles and options then give the same
// lists, and the same results, in every run (a restart continues a run bit for bit), where timings
// taken under a varying load chose differently from one process to the next. Only the ratios matter
// to the choice.
//
//   M2P per target: c (p + 3)^2 (a gradient expansion of degree p + 2 read once per target),
//                   c = 1.80e-4 us in float (16 lanes), 3.85e-4 us in double;
//   L2P per target: 0.8 M2P per target (measured 0.79-0.90);
//   M2L:            0.86 us ((p + 1) / 8)^2.37, by rotation in SIMD lanes of translations, in
//                   double whatever the far field's arithmetic: 1.5 times the walk's times (0.575
//                   at p = 7, 0.761 at 8, 1.55 at 11, 2.17 at 13), since the M2P pairs a node's M2L
//                   removes save less than the mean pair (with the times alone, 31 times the
//                   translations at p = 7 and a slower far field);
//   L2L:            2.04 us ((p + 1) / 8)^2.5 (measured 2.04, 2.79, 6.06-6.50 and 8.23).

#include <cmath>

#include "backend/cpu_stages.hpp"
#include "vortex/math/order_dispatch.hpp"

namespace vortex::detail {

FarFieldCosts far_field_costs(int p, FarArithmetic arithmetic) {
  dispatch_order(p, "far field costs", [](auto) {});  // the order's check
  constexpr double us = 1e-6;
  const double per_harmonic = arithmetic == FarArithmetic::Float ? 1.80e-4 : 3.85e-4;
  FarFieldCosts c;
  c.m2p_target = per_harmonic * (p + 3) * (p + 3) * us;
  c.l2p_target = 0.8 * c.m2p_target;
  c.m2l = 0.86 * std::pow((p + 1) / 8.0, 2.37) * us;
  c.l2l = 2.04 * std::pow((p + 1) / 8.0, 2.5) * us;
  return c;
}

// The GPU's model (far/local_field_cuda.hpp), fitted to the kernels' times on one H200 (2026-11-28
// and 29, docs/journal/2026-11-28-device-local-expansions.md,
// docs/journal/2026-11-28-m2l-float-terms.md and docs/journal/2026-11-29-m2l-lanes.md):
//   M2P per target: c (p + 3)^2, c = 0.41 ps in float (measured 0.443 at p = 9, 0.389 at 11),
//                   0.94 ps in double (0.94 at p = 10);
//   L2P per target: 3 ns (2.0-4.3 ns measured, mostly each leaf's shift of its ancestor's
//                   expansion, in double whatever the arithmetic);
//   M2L:            by rotation, a translation a lane (gpu/far/local_m2l.cu,
//                   docs/journal/2026-11-29-m2l-lanes.md), 1.4 times the kernel's time, as on
//                   the CPU: terms in float 6.2 ns ((p + 1) / 9)^2.5 (measured 4.4 ns at p = 8,
//                   6.3 at 9, 7.1 at 10, 11.1 at 12; with the times alone the two-scale cloud
//                   took 2.5 times the translations for no faster far field); in double 16.3 ns
//                   ((p + 1) / 9)^2.45 (measured 15.3 at 9, 22.8 at 11);
//   L2L:            53 ns ((p + 1) / 9)^2.45 (3.0-4.2 times the M2L in double: the levels'
//                   launches over every node).
FarFieldCosts far_field_costs_cuda(int p, Arithmetic arithmetic) {
  dispatch_order(p, "far field costs", [](auto) {});
  const bool single = arithmetic == Arithmetic::Float;
  const double per_harmonic = single ? 0.41e-12 : 0.94e-12;
  const double growth = std::pow((p + 1) / 9.0, 2.45);
  FarFieldCosts c;
  c.m2p_target = per_harmonic * (p + 3) * (p + 3);
  c.l2p_target = 3e-9;
  c.m2l = single ? 6.2e-9 * std::pow((p + 1) / 9.0, 2.5) : 16.3e-9 * growth;
  c.l2l = 53.2e-9 * growth;
  return c;
}

}  // namespace vortex::detail
