#include "vortex/kdtree.hpp"

#include "tree/kdtree_topology.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace vortex {

using detail::KdCut;
using detail::lay_out_kdtree;

namespace {

// A point with its core radius (rounded up to float) and its caller index, partitioned in place:
// contiguous, 32 bytes, so no pass over the tree reads the caller's arrays at random.
struct Item {
  double p[3];
  float sigma;
  std::uint32_t index;
};

float round_up_to_float(double v) {
  float f = static_cast<float>(v);
  if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

// Dimension of largest variance of the items in [begin, end), in one pass: sums of the offsets
// from the range's first point and of their squares (offsets, not coordinates, so that clouds far
// from the origin do not cancel).
int widest_dimension(const Item* items, int begin, int end) {
  const double* ref = items[begin].p;
  double s1[3] = {0, 0, 0}, s2[3] = {0, 0, 0};
  for (int i = begin; i < end; ++i)
    for (int k = 0; k < 3; ++k) {
      const double d = items[i].p[k] - ref[k];
      s1[k] += d;
      s2[k] += d * d;
    }
  const double n = end - begin;
  double spread[3];  // n times the variance
  for (int k = 0; k < 3; ++k) spread[k] = s2[k] - s1[k] * s1[k] / n;
  return static_cast<int>(std::max_element(spread, spread + 3) - spread);
}

void cut(Item* items, const KdCut& c) {
  const int dim = widest_dimension(items, c.begin, c.end);
  std::nth_element(items + c.begin, items + c.mid, items + c.end,
                   [dim](const Item& a, const Item& b) { return a.p[dim] < b.p[dim]; });
}

// Tight bounds and max sigma of a leaf from its particles.
void bound_leaf(KdNode& node, const Item* items) {
  for (int k = 0; k < 3; ++k) node.lo[k] = node.hi[k] = items[node.begin].p[k];
  double max_sigma = 0;
  for (int i = node.begin; i < node.end; ++i) {
    for (int k = 0; k < 3; ++k) {
      node.lo[k] = std::min(node.lo[k], items[i].p[k]);
      node.hi[k] = std::max(node.hi[k], items[i].p[k]);
    }
    max_sigma = std::max(max_sigma, static_cast<double>(items[i].sigma));
  }
  node.max_sigma = max_sigma;
}

// The same for an inner node from its children, already bounded: min and max are exact, so the
// result equals a pass over the particles.
void bound_inner(KdNode& node, const std::vector<KdNode>& nodes) {
  const KdNode& first = nodes[node.first_child];
  for (int k = 0; k < 3; ++k) node.lo[k] = first.lo[k], node.hi[k] = first.hi[k];
  node.max_sigma = first.max_sigma;
  for (int c = node.first_child + 1; c < node.first_child + node.num_children; ++c) {
    for (int k = 0; k < 3; ++k) {
      node.lo[k] = std::min(node.lo[k], nodes[c].lo[k]);
      node.hi[k] = std::max(node.hi[k], nodes[c].hi[k]);
    }
    node.max_sigma = std::max(node.max_sigma, nodes[c].max_sigma);
  }
}

// Center of the bounds, and the largest distance from it to a particle.
void center_and_radius(KdNode& node, const Item* items) {
  for (int k = 0; k < 3; ++k) node.center[k] = 0.5 * (node.lo[k] + node.hi[k]);
  double r2 = 0;
  for (int i = node.begin; i < node.end; ++i) {
    double d2 = 0;
    for (int k = 0; k < 3; ++k) {
      const double d = items[i].p[k] - node.center[k];
      d2 += d * d;
    }
    r2 = std::max(r2, d2);
  }
  node.radius = std::sqrt(r2);
}

// Bounds, centers and radii of every node, one level at a time from the deepest up. `order` and
// `level_start` are scratch kept by the caller: the nodes sorted by level (a counting sort).
void measure_nodes(std::vector<KdNode>& nodes, const Item* items, std::vector<int>& order,
                   std::vector<int>& level_start) {
  int depth = 0;
  for (const KdNode& node : nodes) depth = std::max(depth, node.level);
  level_start.assign(depth + 2, 0);
  for (const KdNode& node : nodes) ++level_start[node.level + 1];
  for (int l = 0; l < depth + 1; ++l) level_start[l + 1] += level_start[l];
  order.resize(nodes.size());
  for (int k = 0; k < static_cast<int>(nodes.size()); ++k) order[level_start[nodes[k].level]++] = k;
  for (int l = depth; l > 0; --l) level_start[l] = level_start[l - 1];  // back to the starts
  level_start[0] = 0;
  for (int level = depth; level >= 0; --level) {
    const int* ids = order.data() + level_start[level];
    const int count = level_start[level + 1] - level_start[level];
#pragma omp taskloop grainsize(8) default(shared)
    for (int i = 0; i < count; ++i) {
      KdNode& node = nodes[ids[i]];
      if (node.is_leaf())
        bound_leaf(node, items);
      else
        bound_inner(node, nodes);
      center_and_radius(node, items);
    }
  }
}

// Radii below kRadiusFloor of the root's are raised to it: a box of coincident particles (radius 0)
// then needs a positive distance to be far, and the box's scale (multipole/expansion_scale.hpp)
// keeps every normalized target offset of its M2P at least 1 / (2 theta) long.
void floor_radii(std::vector<KdNode>& nodes) {
  const double floor = nodes[0].radius * kRadiusFloor;
  for (KdNode& node : nodes) node.radius = std::max(node.radius, floor);
}

// Partitions a cut's range, then its sub-ranges' cuts as OpenMP tasks (small ones inline). The
// tasks outlive this call, so they get copies of the pointers, not references to this frame.
void run_cut(Item* items, const KdCut* cuts, int c) {
  cut(items, cuts[c]);
  for (const int child : {cuts[c].left, cuts[c].right}) {
    if (child < 0) continue;
    const bool large = cuts[child].end - cuts[child].begin > 8192;
#pragma omp task if (large) firstprivate(items, cuts, child)
    run_cut(items, cuts, child);
  }
}

void check_tree_options(std::size_t n, int bucket, int arity) {
  if (bucket < 1)
    throw std::invalid_argument("k-d tree bucket size must be >= 1, got " + std::to_string(bucket));
  if (arity != 2 && arity != 4 && arity != 8)
    throw std::invalid_argument("k-d tree arity must be 2, 4 or 8, got " + std::to_string(arity));
  if (static_cast<std::uint64_t>(n) > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("k-d tree: more than 2^31 - 1 points");
}

}  // namespace

// Scratch of one build, kept between builds.
struct KdTreeBuilder::Scratch {
  std::unique_ptr<Item[]> items;
  std::size_t capacity = 0;
  std::vector<KdCut> cuts;
  std::vector<int> order, level_start;
};

KdTreeBuilder::KdTreeBuilder() : scratch_(std::make_unique<Scratch>()) {}
KdTreeBuilder::~KdTreeBuilder() = default;
KdTreeBuilder::KdTreeBuilder(KdTreeBuilder&&) noexcept = default;
KdTreeBuilder& KdTreeBuilder::operator=(KdTreeBuilder&&) noexcept = default;

// Must run on one thread of a parallel region (its loops are OpenMP tasks), so that several trees
// can share the threads.
void KdTreeBuilder::run(PointsView points, const double* sigma, int bucket, int arity, KdTree& tree,
                        PointsOut ordered, double scale) {
  Scratch& w = *scratch_;
  const int n = static_cast<int>(points.size());
  tree.bucket = bucket;
  tree.arity = arity;
  tree.nodes.clear();
  tree.leaves.clear();
  tree.permutation.resize(n);
  if (n == 0) return;
  Item* items = w.items.get();  // sized by reserve() before the parallel region
#pragma omp taskloop grainsize(16384) default(shared)
  for (int i = 0; i < n; ++i)
    items[i] = {{points.x[i] * scale, points.y[i] * scale, points.z[i] * scale},
                sigma ? round_up_to_float(sigma[i] * scale) : 0.0f,
                static_cast<std::uint32_t>(i)};

  w.cuts.clear();
  lay_out_kdtree(n, bucket, arity, tree.nodes, w.cuts);
  if (!w.cuts.empty()) {
#pragma omp taskgroup
    run_cut(items, w.cuts.data(), 0);
  }

  measure_nodes(tree.nodes, items, w.order, w.level_start);
  floor_radii(tree.nodes);
  // The permutation, and the points in tree order the partition already holds.
#pragma omp taskloop grainsize(16384) default(shared)
  for (int i = 0; i < n; ++i) {
    tree.permutation[i] = items[i].index;
    if (ordered.x) {
      ordered.x[i] = items[i].p[0];
      ordered.y[i] = items[i].p[1];
      ordered.z[i] = items[i].p[2];
    }
  }
  // Leaves in tree order: a depth-first walk of the nodes, which the topology lays out per parent.
  const int num_nodes = static_cast<int>(tree.nodes.size());
  for (int k = 0; k < num_nodes; ++k)
    if (tree.nodes[k].is_leaf()) tree.leaves.push_back(k);
  std::sort(tree.leaves.begin(), tree.leaves.end(),
            [&](int a, int b) { return tree.nodes[a].begin < tree.nodes[b].begin; });
}

// Allocations before the parallel region: a std::bad_alloc can leave the call only from there.
void KdTreeBuilder::reserve(std::size_t n) {
  Scratch& w = *scratch_;
  if (w.capacity < n) {
    // Uninitialized, so that the pages are first touched by the threads that fill them.
    w.items.reset(new Item[n]);
    w.capacity = n;
  }
}

void KdTreeBuilder::build(PointsView points, const double* sigma, int bucket, int arity,
                          KdTree& tree, PointsOut ordered) {
  check_tree_options(points.size(), bucket, arity);
  reserve(points.size());
#pragma omp parallel
#pragma omp single
  run(points, sigma, bucket, arity, tree, ordered, 1.0);
}

void KdTreeBuilder::build_pair(KdTreeBuilder& first, const TreeInput& a, KdTree& tree_a,
                               KdTreeBuilder& second, const TreeInput& b, KdTree& tree_b,
                               int arity) {
  check_tree_options(a.points.size(), a.bucket, arity);
  check_tree_options(b.points.size(), b.bucket, arity);
  first.reserve(a.points.size());
  second.reserve(b.points.size());
#pragma omp parallel
#pragma omp single
  {
#pragma omp task default(shared)
    first.run(a.points, a.sigma, a.bucket, arity, tree_a, a.ordered, a.scale);
#pragma omp task default(shared)
    second.run(b.points, b.sigma, b.bucket, arity, tree_b, b.ordered, b.scale);
#pragma omp taskwait
  }
}

KdTree build_kdtree(PointsView points, const double* sigma, int bucket, int arity) {
  KdTree tree;
  KdTreeBuilder().build(points, sigma, bucket, arity, tree);
  return tree;
}

std::pair<KdTree, KdTree> build_kdtree_pair(PointsView a, const double* sigma_a, int bucket_a,
                                            PointsView b, const double* sigma_b, int bucket_b,
                                            int arity) {
  std::pair<KdTree, KdTree> trees;
  KdTreeBuilder first, second;
  KdTreeBuilder::build_pair(first, {a, sigma_a, bucket_a, {}}, trees.first, second,
                            {b, sigma_b, bucket_b, {}}, trees.second, arity);
  return trees;
}

}  // namespace vortex
