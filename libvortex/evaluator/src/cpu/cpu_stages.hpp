#pragma once
// The stages of the CPU backend (cpu_backend.cpp runs them). Results are written to 12 component
// arrays `out` (velocity 0..2, gradient 3..11; only 0..2 without the gradient), 1/(4 pi) included.

#include <vector>

#include "backend/tree_plan.hpp"
#include "cpu/pair_sum.hpp"

namespace vortex::detail {

using ComponentArrays = double* const*;

// All packed sources onto all targets (relative to the same origin), assigned to `out` in the
// targets' order. Any core, the arithmetic of T.
template <class T>
void direct_sum_cpu(const SourceArrays<T>& sources, std::size_t num_sources, PointsView targets,
                    Origin origin, Core core, bool gradient, ComponentArrays out);

// Near field: pair sums over each target leaf's near ranges, assigned to `out` (target-tree order).
template <class T>
void near_field_cpu(const TreePlan& plan, const SourceArrays<T>& sources, Core core, bool gradient,
                    ComponentArrays out);

// Per-thread scratch of the far field, kept between calls.
// Aligned to a cache line, so that threads resizing their own scratch share no line.
template <class T>
struct alignas(64) FarScratch {
  std::vector<T> x, y, z;
  std::vector<VelocityGradientAccumulator<T>> acc;

  void reserve(std::size_t n) {
    x.reserve(n);
    y.reserve(n);
    z.reserve(n);
    acc.reserve(n);
  }
};

// Far field: M2P over each target leaf's far list, targets of a leaf in SIMD lanes, added to `out`.
// `expansions` and `centers` (3 per node) as pack_expansions writes them.
template <class T>
void far_field_cpu(const TreePlan& plan, const T* expansions, const T* centers, bool gradient,
                   std::vector<FarScratch<T>>& scratch, ComponentArrays out);

}  // namespace vortex::detail
