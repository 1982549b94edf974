#include "tree/tree_shape.hpp"

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "tree/kdtree_topology.hpp"

namespace vortex::detail {

namespace {

// Chunks of at most kTreeChunk positions of [begin, end), recorded with their owner.
void add_chunks(int owner, int begin, int end, std::vector<int>& owners, std::vector<int>& begins,
                std::vector<int>& ends) {
  for (int b = begin; b < end; b += gpu::kTreeChunk) {
    owners.push_back(owner);
    begins.push_back(b);
    ends.push_back(std::min(end, b + gpu::kTreeChunk));
  }
}

// The pieces of every cut depth: the ranges between the cuts of all earlier depths.
void lay_out_pieces(const std::vector<KdCut>& cuts, int n, gpu::TreeShape& s) {
  int depths = 0;
  for (const KdCut& c : cuts) depths = std::max(depths, c.depth + 1);
  std::vector<std::vector<const KdCut*>> by_depth(depths);
  for (const KdCut& c : cuts) by_depth[c.depth].push_back(&c);
  std::vector<int> bounds = {0, n}, next;
  s.depth_start.assign(1, 0);
  s.depth_chunk_start.assign(1, 0);
  for (int d = 0; d < depths; ++d) {
    auto& here = by_depth[d];
    std::sort(here.begin(), here.end(), [](auto a, auto b) { return a->begin < b->begin; });
    std::size_t k = 0;
    for (std::size_t b = 0; b + 1 < bounds.size(); ++b) {
      const int piece = static_cast<int>(s.piece_begin.size());
      s.piece_begin.push_back(bounds[b]);
      s.piece_end.push_back(bounds[b + 1]);
      const bool cut = k < here.size() && here[k]->begin == bounds[b];
      s.piece_first_chunk.push_back(cut ? static_cast<int>(s.chunk_piece.size()) : -1);
      s.piece_mid.push_back(cut ? here[k]->mid : bounds[b + 1]);
      if (cut)
        add_chunks(piece, bounds[b], bounds[b + 1], s.chunk_piece, s.chunk_begin, s.chunk_end);
      if (cut) ++k;
    }
    s.depth_start.push_back(static_cast<int>(s.piece_begin.size()));
    s.depth_chunk_start.push_back(static_cast<int>(s.chunk_piece.size()));
    next.clear();
    std::vector<int> mids;
    for (const KdCut* c : here) mids.push_back(c->mid);
    std::merge(bounds.begin(), bounds.end(), mids.begin(), mids.end(), std::back_inserter(next));
    bounds.swap(next);
  }
}

}  // namespace

gpu::TreeShape make_tree_shape(int n, int bucket, int arity, const DecidedCuts* decided) {
  gpu::TreeShape s;
  s.n = n;
  s.bucket = bucket;
  s.arity = arity;
  if (n == 0) {
    s.depth_start.assign(1, 0);
    s.depth_chunk_start.assign(1, 0);
    s.level_start.assign(1, 0);
    return s;
  }
  std::vector<KdCut> cuts;
  lay_out_kdtree(n, bucket, arity, s.nodes, cuts, decided);
  lay_out_pieces(cuts, n, s);
  const int num_nodes = static_cast<int>(s.nodes.size());
  int max_level = 0;
  for (int k = 0; k < num_nodes; ++k) {
    const KdNode& node = s.nodes[k];
    max_level = std::max(max_level, node.level);
    if (node.is_leaf()) s.leaves.push_back(k);
    add_chunks(k, node.begin, node.end, s.node_chunk_node, s.node_chunk_begin, s.node_chunk_end);
  }
  std::sort(s.leaves.begin(), s.leaves.end(),
            [&](int a, int b) { return s.nodes[a].begin < s.nodes[b].begin; });
  // Inner nodes by level (a counting sort).
  s.level_start.assign(max_level + 2, 0);
  for (const KdNode& node : s.nodes)
    if (!node.is_leaf()) ++s.level_start[node.level + 1];
  for (int l = 0; l <= max_level; ++l) s.level_start[l + 1] += s.level_start[l];
  s.inner_by_level.resize(s.level_start[max_level + 1]);
  std::vector<int> fill(s.level_start.begin(), s.level_start.end() - 1);
  for (int k = 0; k < num_nodes; ++k)
    if (!s.nodes[k].is_leaf()) s.inner_by_level[fill[s.nodes[k].level]++] = k;
  return s;
}

int cut_adaptive_depths(gpu::DeviceTree& tree, int n, int bucket, cudaStream_t stream,
                        DecidedCuts& decided) {
  decided.clear();
  std::vector<std::pair<int, int>> ranges = {{0, n}}, next;
  gpu::AdaptiveDepth a;
  std::vector<long long> counts;
  int depth = 0;
  for (;; ++depth) {
    bool any = false;
    for (const auto& [b, e] : ranges) any |= e - b > bucket && is_adaptive_cut(e - b, n, depth);
    if (!any) break;
    for (auto* v : {&a.piece_begin, &a.piece_end, &a.piece_mid, &a.piece_first_chunk, &a.adaptive,
                    &a.chunk_piece, &a.chunk_begin, &a.chunk_end})
      v->clear();
    for (const auto& [b, e] : ranges) {
      const int piece = static_cast<int>(a.piece_begin.size());
      const bool cut = e - b > bucket;
      a.piece_begin.push_back(b);
      a.piece_end.push_back(e);
      a.piece_first_chunk.push_back(cut ? static_cast<int>(a.chunk_piece.size()) : -1);
      a.adaptive.push_back(cut && is_adaptive_cut(e - b, n, depth) ? 1 : 0);
      if (cut) add_chunks(piece, b, e, a.chunk_piece, a.chunk_begin, a.chunk_end);
    }
    tree.measure_adaptive_depth(a, stream, counts);
    next.clear();
    for (std::size_t k = 0; k < ranges.size(); ++k) {
      const auto [b, e] = ranges[k];
      if (e - b <= bucket) {
        a.piece_mid.push_back(e);
        next.push_back({b, e});
        continue;
      }
      const int median = split_position(e - b, bucket);
      int mid = b + median;
      if (a.adaptive[k]) {
        mid = b + adaptive_split_position(e - b, bucket, median, counts[2 * k], counts[2 * k + 1]);
        decided.add(b, mid, e);
      }
      a.piece_mid.push_back(mid);
      next.push_back({b, mid});
      next.push_back({mid, e});
    }
    tree.cut_adaptive_depth(a, stream);
    ranges.swap(next);
  }
  decided.finish();
  return depth;
}

int walk_stack_bound(const gpu::TreeShape& shape) {
  const int levels = static_cast<int>(shape.level_start.size()) - 1;
  return std::max(shape.arity, 2) * (levels + 1) + 1;
}

}  // namespace vortex::detail
