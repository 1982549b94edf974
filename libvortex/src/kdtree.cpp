#include "vortex/kdtree.hpp"

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

// One binary VAMSplit cut of [begin, end) at mid; left/right: the cuts of [begin, mid) and
// [mid, end), or -1. Cuts of equal depth touch disjoint ranges.
struct Cut {
  int begin, mid, end, depth;
  int left = -1, right = -1;
};

// The multiple of the bucket size closest to the middle, so the left part fills its leaves exactly.
int split_position(int count, int bucket) {
  const long half_buckets = std::lround(static_cast<double>(count) / (2.0 * bucket));
  const int mid = static_cast<int>(std::max<long>(1, half_buckets) * bucket);
  return std::min(mid, count - 1);
}

// The topology of a VAMSplit tree depends only on the counts; the data only choose the cut
// dimensions. So the nodes and cuts are laid out first, and the partitions are done afterwards.
class Topology {
 public:
  Topology(int bucket, int arity)
      : bucket_(bucket),
        levels_per_node_(arity == 2   ? 1
                         : arity == 4 ? 2
                                      : 3) {}

  void build(std::vector<KdNode>& nodes, std::vector<Cut>& cuts, int n) {
    nodes.clear();
    nodes.emplace_back();
    nodes[0].begin = 0;
    nodes[0].end = n;
    expand(nodes, cuts, 0, 0, {0, n, -1, false});
  }

 private:
  // A range still to be cut, and the cut that made it (-1 for the root; `right`: its right side).
  struct Piece {
    int begin, end;
    int made_by;
    bool right;
  };

  void expand(std::vector<KdNode>& nodes, std::vector<Cut>& cuts, int node, int depth,
              Piece whole) {
    if (whole.end - whole.begin <= bucket_) return;
    std::vector<Piece> pieces{whole};
    int d = depth;
    for (int level = 0; level < levels_per_node_; ++level, ++d) {
      std::vector<Piece> next;
      for (const Piece& piece : pieces) {
        const int count = piece.end - piece.begin;
        if (count <= bucket_) {
          next.push_back(piece);
          continue;
        }
        const int mid = piece.begin + split_position(count, bucket_);
        const int c = static_cast<int>(cuts.size());
        cuts.push_back({piece.begin, mid, piece.end, d});
        // A range's cut comes after the cut that made the range: it is that cut's left or right
        // child.
        if (piece.made_by >= 0)
          (piece.right ? cuts[piece.made_by].right : cuts[piece.made_by].left) = c;
        next.push_back({piece.begin, mid, c, false});
        next.push_back({mid, piece.end, c, true});
      }
      pieces.swap(next);
    }
    const int first = static_cast<int>(nodes.size());
    nodes[node].first_child = first;
    nodes[node].num_children = static_cast<int>(pieces.size());
    for (const Piece& piece : pieces) {
      KdNode child;
      child.begin = piece.begin;
      child.end = piece.end;
      child.parent = node;
      child.level = nodes[node].level + 1;
      nodes.push_back(child);
    }
    for (int c = 0; c < static_cast<int>(pieces.size()); ++c)
      expand(nodes, cuts, first + c, d, pieces[c]);
  }

  int bucket_;
  int levels_per_node_;
};

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

void cut(Item* items, const Cut& c) {
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

// Bounds, centers and radii of every node, one level at a time from the deepest up.
void measure_nodes(std::vector<KdNode>& nodes, const Item* items) {
  int depth = 0;
  for (const KdNode& node : nodes) depth = std::max(depth, node.level);
  std::vector<std::vector<int>> by_level(depth + 1);
  for (int k = 0; k < static_cast<int>(nodes.size()); ++k) by_level[nodes[k].level].push_back(k);
  for (int level = depth; level >= 0; --level) {
    const std::vector<int>& ids = by_level[level];
    const int count = static_cast<int>(ids.size());
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

// Partitions a cut's range, then its sub-ranges' cuts as OpenMP tasks (small ones inline). The
// tasks outlive this call, so they get copies of the pointers, not references to this frame.
void run_cut(Item* items, const Cut* cuts, int c) {
  cut(items, cuts[c]);
  for (const int child : {cuts[c].left, cuts[c].right}) {
    if (child < 0) continue;
    const bool large = cuts[child].end - cuts[child].begin > 8192;
#pragma omp task if (large) firstprivate(items, cuts, child)
    run_cut(items, cuts, child);
  }
}

// Builds one tree with OpenMP tasks; run() must be called by one thread of a parallel region, so
// that several trees can share the threads.
class TreeBuilder {
 public:
  TreeBuilder(PointsView points, const double* sigma, int bucket, int arity)
      : points_(points), sigma_(sigma) {
    if (bucket < 1)
      throw std::invalid_argument("k-d tree bucket size must be >= 1, got " +
                                  std::to_string(bucket));
    if (arity != 2 && arity != 4 && arity != 8)
      throw std::invalid_argument("k-d tree arity must be 2, 4 or 8, got " + std::to_string(arity));
    if (static_cast<std::uint64_t>(points.size()) > std::numeric_limits<std::uint32_t>::max())
      throw std::invalid_argument("k-d tree: more than 2^32 - 1 points");
    tree_.bucket = bucket;
    tree_.arity = arity;
  }

  void run() {
    const int n = static_cast<int>(points_.size());
    tree_.permutation.resize(n);
    if (n == 0) return;
    // Uninitialized, so that the pages are first touched by the threads that fill them.
    items_.reset(new Item[n]);
#pragma omp taskloop grainsize(16384) default(shared)
    for (int i = 0; i < n; ++i)
      items_[i] = {{points_.x[i], points_.y[i], points_.z[i]},
                   sigma_ ? round_up_to_float(sigma_[i]) : 0.0f,
                   static_cast<std::uint32_t>(i)};

    std::vector<Cut> cuts;
    Topology(tree_.bucket, tree_.arity).build(tree_.nodes, cuts, n);
    if (!cuts.empty()) {
#pragma omp taskgroup
      run_cut(items_.get(), cuts.data(), 0);
    }

    measure_nodes(tree_.nodes, items_.get());
    const int num_nodes = static_cast<int>(tree_.nodes.size());
#pragma omp taskloop grainsize(16384) default(shared)
    for (int i = 0; i < n; ++i) tree_.permutation[i] = items_[i].index;

    for (int k = 0; k < num_nodes; ++k)
      if (tree_.nodes[k].is_leaf()) tree_.leaves.push_back(k);
    std::sort(tree_.leaves.begin(), tree_.leaves.end(),
              [&](int a, int b) { return tree_.nodes[a].begin < tree_.nodes[b].begin; });
    items_.reset();
  }

  KdTree take() {
    return std::move(tree_);
  }

 private:
  PointsView points_;
  const double* sigma_;
  KdTree tree_;
  std::unique_ptr<Item[]> items_;
};

}  // namespace

KdTree build_kdtree(PointsView points, const double* sigma, int bucket, int arity) {
  TreeBuilder builder(points, sigma, bucket, arity);
#pragma omp parallel
#pragma omp single
  builder.run();
  return builder.take();
}

std::pair<KdTree, KdTree> build_kdtree_pair(PointsView a, const double* sigma_a, int bucket_a,
                                            PointsView b, const double* sigma_b, int bucket_b,
                                            int arity) {
  TreeBuilder first(a, sigma_a, bucket_a, arity), second(b, sigma_b, bucket_b, arity);
#pragma omp parallel
#pragma omp single
  {
#pragma omp task default(shared)
    first.run();
#pragma omp task default(shared)
    second.run();
#pragma omp taskwait
  }
  return {first.take(), second.take()};
}

}  // namespace vortex
