#include "vortex/kdtree.hpp"

#include "tree/kdtree_cuts.hpp"
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
using detail::round_up_to_float;

namespace {

using Item = detail::TreeItem;

// The adaptive cuts from [begin, end) at `depth` down (tree_node.hpp): each decided by the data,
// partitioned and recorded, its sub-ranges' cuts as OpenMP tasks.
void decide_cuts(Item* items, int begin, int end, int depth, int whole, int bucket,
                 detail::DecidedCuts* decided) {
  const int count = end - begin;
  if (count <= bucket || !is_adaptive_cut(count, whole, depth)) return;
  const int dim = detail::widest_dimension(items, begin, end);
  const int mid = detail::adaptive_mid(items, begin, end, bucket, dim);
  std::nth_element(items + begin, items + mid, items + end,
                   [dim](const Item& a, const Item& b) { return detail::before(a, b, dim); });
#pragma omp critical(vortex_decided_cuts)
  decided->add(begin, mid, end);
  const int ranges[2][2] = {{begin, mid}, {mid, end}};
  for (const auto& r : ranges) {
    const int b = r[0], e = r[1];
#pragma omp task firstprivate(items, b, e, depth, whole, bucket, decided)
    decide_cuts(items, b, e, depth + 1, whole, bucket, decided);
  }
}

// Partitions a cut's range (unless an adaptive cut did), then its sub-ranges' cuts as OpenMP tasks
// (small ones inline). The tasks outlive this call, so they get copies of the pointers, not
// references to this frame.
void run_cut(Item* items, const KdCut* cuts, int c) {
  if (!cuts[c].decided) detail::cut(items, cuts[c]);
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
  detail::DecidedCuts decided;
  std::vector<int> order, level_start;
};

KdTreeBuilder::KdTreeBuilder() : scratch_(std::make_unique<Scratch>()) {}
KdTreeBuilder::~KdTreeBuilder() = default;
KdTreeBuilder::KdTreeBuilder(KdTreeBuilder&&) noexcept = default;
KdTreeBuilder& KdTreeBuilder::operator=(KdTreeBuilder&&) noexcept = default;

// Must run on one thread of a parallel region (its loops are OpenMP tasks), so that several trees
// can share the threads.
void KdTreeBuilder::run(const TreeInput& in, int arity, KdTree& tree) {
  const PointsView points = in.points;
  const double* sigma = in.sigma;
  const int bucket = in.bucket;
  const PointsOut ordered = in.ordered;
  const double scale = in.scale;
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
  w.decided.clear();
#pragma omp taskgroup
  decide_cuts(items, 0, n, in.depth, in.whole > 0 ? in.whole : n, bucket, &w.decided);
  w.decided.finish();
  lay_out_kdtree(n, bucket, arity, tree.nodes, w.cuts, &w.decided);
  if (!w.cuts.empty()) {
#pragma omp taskgroup
    run_cut(items, w.cuts.data(), 0);
  }

  detail::measure_nodes(tree.nodes, items, w.order, w.level_start);
  detail::floor_radii(tree.nodes,
                      in.radius_floor < 0 ? tree.nodes[0].radius * kRadiusFloor : in.radius_floor);
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
  run({points, sigma, bucket, ordered}, arity, tree);
}

void KdTreeBuilder::build(const TreeInput& input, int arity, KdTree& tree) {
  check_tree_options(input.points.size(), input.bucket, arity);
  reserve(input.points.size());
#pragma omp parallel
#pragma omp single
  run(input, arity, tree);
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
    first.run(a, arity, tree_a);
#pragma omp task default(shared)
    second.run(b, arity, tree_b);
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
