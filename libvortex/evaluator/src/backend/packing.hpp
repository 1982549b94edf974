#pragma once
// Packing, written once for both layouts: what the sums read, made from the particles in the
// order the backend sums them. The CPU stores it as structure-of-arrays columns, CUDA as Vec4
// records; each passes a `store` callable that writes one entry in its layout into storage the
// backend keeps between calls.
//
// Sources are read as PairSource (math/pair_kernel.hpp): strength / sigma^3 and 1/sigma^2.
// Positions and expansion centers are taken relative to an Origin (tree_plan.hpp) before they are
// rounded to float.

#include <cstddef>
#include <type_traits>
#include <vector>

#include "tree/tree_plan.hpp"
#include "vortex/math/pair_kernel.hpp"
#include "vortex/math/point_key.hpp"
#include "vortex/multipole/expansion.hpp"
#include "vortex/multipole/expansion_scale.hpp"

namespace vortex::detail {

// One source as the pair kernel reads it, in double before the layout's rounding.
struct PackedSource {
  double x, y, z;     // position relative to the origin
  double gx, gy, gz;  // strength / sigma^3
  double inv_sigma2;  // 1 / sigma^2
  double key;         // point_key of the position
};

// store(i, PackedSource) for every source.
template <class Store>
void pack_sources(SourcesView s, Core core, Origin o, Store&& store) {
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(s.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const PairSource<double> p = pair_source(core, s.gx[i], s.gy[i], s.gz[i], s.sigma[i]);
    const double x = s.x[i] - o.x, y = s.y[i] - o.y, z = s.z[i] - o.z;
    store(i, PackedSource{x, y, z, p.gx, p.gy, p.gz, p.inv_sigma2, point_key(x, y, z)});
  }
}

// A target as the pair kernel reads it: its position relative to the origin and its point_key.
struct PackedPoint {
  double x, y, z, key;
};

inline PackedPoint packed_point(PointsView p, std::size_t i, Origin o) {
  const double x = p.x[i] - o.x, y = p.y[i] - o.y, z = p.z[i] - o.z;
  return {x, y, z, point_key(x, y, z)};
}

// store(i, PackedPoint) for every point.
template <class Store>
void pack_points(PointsView p, Origin o, Store&& store) {
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(p.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) store(i, packed_point(p, static_cast<std::size_t>(i), o));
}

// The plan's velocity expansions in T, node-major, into out[plan.velocity_expansions.size()]
// (storage of the backend: pinned memory on CUDA).
template <class T>
void convert_expansions(const TreePlan& plan, T* out) {
  const std::ptrdiff_t total = static_cast<std::ptrdiff_t>(plan.velocity_expansions.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < total; ++i) out[i] = static_cast<T>(plan.velocity_expansions[i]);
}

// store_center(k, x, y, z, inv_scale) for every source node: its expansion center relative to the
// origin, and 1 / its scale, by which M2P multiplies the target offsets (expansion_scale.hpp).
template <class StoreCenter>
void pack_centers(const TreePlan& plan, Origin o, StoreCenter&& store_center) {
  const std::ptrdiff_t nodes = static_cast<std::ptrdiff_t>(plan.source_tree.nodes.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t k = 0; k < nodes; ++k) {
    const KdNode& node = plan.source_tree.nodes[k];
    const double* c = node.center;
    store_center(k, c[0] - o.x, c[1] - o.y, c[2] - o.z,
                 multipole::inverse_scale(multipole::scale_exponent(node.radius)));
  }
}

}  // namespace vortex::detail
