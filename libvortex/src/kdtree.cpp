#include "vortex/kdtree.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

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

// One binary VAMSplit cut of [begin, end) at mid. Cuts of equal depth touch disjoint ranges.
struct Cut {
  int begin, mid, end, depth;
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
    expand(nodes, cuts, 0, 0);
  }

 private:
  struct Piece {
    int begin, end;
  };

  void expand(std::vector<KdNode>& nodes, std::vector<Cut>& cuts, int node, int depth) {
    const int begin = nodes[node].begin, end = nodes[node].end;
    if (end - begin <= bucket_) return;
    std::vector<Piece> pieces{{begin, end}};
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
        cuts.push_back({piece.begin, mid, piece.end, d});
        next.push_back({piece.begin, mid});
        next.push_back({mid, piece.end});
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
    for (int c = 0; c < static_cast<int>(pieces.size()); ++c) expand(nodes, cuts, first + c, d);
  }

  int bucket_;
  int levels_per_node_;
};

// Dimension of largest variance of the items in [begin, end).
int widest_dimension(const Item* items, int begin, int end) {
  double mean[3] = {0, 0, 0}, m2[3] = {0, 0, 0};
  const double n = end - begin;
  for (int i = begin; i < end; ++i)
    for (int k = 0; k < 3; ++k) mean[k] += items[i].p[k];
  for (int k = 0; k < 3; ++k) mean[k] /= n;
  for (int i = begin; i < end; ++i)
    for (int k = 0; k < 3; ++k) {
      const double d = items[i].p[k] - mean[k];
      m2[k] += d * d;
    }
  return static_cast<int>(std::max_element(m2, m2 + 3) - m2);
}

void cut(Item* items, const Cut& c) {
  const int dim = widest_dimension(items, c.begin, c.end);
  std::nth_element(items + c.begin, items + c.mid, items + c.end,
                   [dim](const Item& a, const Item& b) { return a.p[dim] < b.p[dim]; });
}

// Tight bounds, center, radius and max sigma of one node from its particles.
void measure(KdNode& node, const Item* items) {
  for (int k = 0; k < 3; ++k) {
    node.lo[k] = items[node.begin].p[k];
    node.hi[k] = items[node.begin].p[k];
  }
  double max_sigma = 0;
  for (int i = node.begin; i < node.end; ++i) {
    for (int k = 0; k < 3; ++k) {
      node.lo[k] = std::min(node.lo[k], items[i].p[k]);
      node.hi[k] = std::max(node.hi[k], items[i].p[k]);
    }
    max_sigma = std::max(max_sigma, static_cast<double>(items[i].sigma));
  }
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
  node.max_sigma = max_sigma;
}

}  // namespace

KdTree build_kdtree(PointsView points, const double* sigma, int bucket, int arity) {
  if (bucket < 1)
    throw std::invalid_argument("k-d tree bucket size must be >= 1, got " + std::to_string(bucket));
  if (arity != 2 && arity != 4 && arity != 8)
    throw std::invalid_argument("k-d tree arity must be 2, 4 or 8, got " + std::to_string(arity));
  KdTree tree;
  tree.bucket = bucket;
  tree.arity = arity;
  const int n = static_cast<int>(points.size());
  tree.permutation.resize(n);
  if (n == 0) return tree;

  std::vector<Item> items(n);
  if (static_cast<std::uint64_t>(n) > std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("k-d tree: more than 2^32 - 1 points");
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i)
    items[i] = {{points.x[i], points.y[i], points.z[i]},
                sigma ? round_up_to_float(sigma[i]) : 0.0f,
                static_cast<std::uint32_t>(i)};

  std::vector<Cut> cuts;
  Topology(bucket, arity).build(tree.nodes, cuts, n);

  // Partition depth by depth; the cuts of one depth are independent.
  std::stable_sort(cuts.begin(), cuts.end(),
                   [](const Cut& a, const Cut& b) { return a.depth < b.depth; });
  for (std::size_t first = 0; first < cuts.size();) {
    std::size_t last = first;
    while (last < cuts.size() && cuts[last].depth == cuts[first].depth) ++last;
#pragma omp parallel for schedule(dynamic, 1)
    for (std::size_t c = first; c < last; ++c) cut(items.data(), cuts[c]);
    first = last;
  }

  const int num_nodes = static_cast<int>(tree.nodes.size());
#pragma omp parallel for schedule(dynamic, 8)
  for (int k = 0; k < num_nodes; ++k) measure(tree.nodes[k], items.data());

  for (int i = 0; i < n; ++i) tree.permutation[i] = items[i].index;
  for (int k = 0; k < num_nodes; ++k)
    if (tree.nodes[k].is_leaf()) tree.leaves.push_back(k);
  std::sort(tree.leaves.begin(), tree.leaves.end(),
            [&](int a, int b) { return tree.nodes[a].begin < tree.nodes[b].begin; });
  return tree;
}

}  // namespace vortex
