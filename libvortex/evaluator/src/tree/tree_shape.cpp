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

void ensure_tree_shape(gpu::DeviceTree& tree, DecidedCuts& last, const DecidedCuts& now, int n,
                       int bucket, int arity, cudaStream_t stream) {
  if (tree.has_shape(n, bucket, arity) && now == last) return;
  tree.set_shape(make_tree_shape(n, bucket, arity, &now), stream);
  last = now;
}

namespace {

// One tree's adaptive cuts in progress: the ranges of the current depth and that depth's layout.
struct AdaptiveState {
  std::vector<std::pair<int, int>> ranges, next;
  gpu::AdaptiveDepth layout;
  std::vector<long long> counts;
  int depth = 0;
  bool done = false;
};

// Lays out the state's depth; false when no piece of it is cut adaptively.
bool lay_out_adaptive_depth(const AdaptiveJob& job, AdaptiveState& s) {
  bool any = false;
  for (const auto& [b, e] : s.ranges)
    any |= e - b > job.bucket && is_adaptive_cut(e - b, job.n, s.depth);
  if (!any) return false;
  gpu::AdaptiveDepth& a = s.layout;
  for (auto* v : {&a.piece_begin, &a.piece_end, &a.piece_mid, &a.piece_first_chunk, &a.adaptive,
                  &a.chunk_piece, &a.chunk_begin, &a.chunk_end})
    v->clear();
  for (const auto& [b, e] : s.ranges) {
    const int piece = static_cast<int>(a.piece_begin.size());
    const bool cut = e - b > job.bucket;
    a.piece_begin.push_back(b);
    a.piece_end.push_back(e);
    a.piece_first_chunk.push_back(cut ? static_cast<int>(a.chunk_piece.size()) : -1);
    a.adaptive.push_back(cut && is_adaptive_cut(e - b, job.n, s.depth) ? 1 : 0);
    if (cut) add_chunks(piece, b, e, a.chunk_piece, a.chunk_begin, a.chunk_end);
  }
  return true;
}

// The depth's cut positions from its counts (the median where a piece is not adaptive), and the
// next depth's ranges.
void place_adaptive_depth(const AdaptiveJob& job, AdaptiveState& s) {
  gpu::AdaptiveDepth& a = s.layout;
  s.next.clear();
  for (std::size_t k = 0; k < s.ranges.size(); ++k) {
    const auto [b, e] = s.ranges[k];
    if (e - b <= job.bucket) {
      a.piece_mid.push_back(e);
      s.next.push_back({b, e});
      continue;
    }
    const int median = split_position(e - b, job.bucket);
    int mid = b + median;
    if (a.adaptive[k]) {
      mid = b + adaptive_split_position(e - b, job.bucket, median, s.counts[2 * k],
                                        s.counts[2 * k + 1]);
      job.decided->add(b, mid, e);
    }
    a.piece_mid.push_back(mid);
    s.next.push_back({b, mid});
    s.next.push_back({mid, e});
  }
  s.ranges.swap(s.next);
}

}  // namespace

void cut_adaptive_depths(std::vector<AdaptiveJob>& jobs) {
  std::vector<AdaptiveState> states(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    jobs[j].decided->clear();
    states[j].ranges = {{0, jobs[j].n}};
  }
  for (bool active = true; active;) {
    active = false;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      AdaptiveState& s = states[j];
      if (s.done) continue;
      if (!lay_out_adaptive_depth(jobs[j], s)) {
        s.done = true;
        jobs[j].first_depth = s.depth;
        continue;
      }
      jobs[j].tree->measure_adaptive_depth(s.layout, jobs[j].stream);
      active = true;
    }
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      AdaptiveState& s = states[j];
      if (s.done) continue;
      jobs[j].tree->adaptive_counts(jobs[j].stream, s.counts);
      place_adaptive_depth(jobs[j], s);
      jobs[j].tree->cut_adaptive_depth(s.layout, jobs[j].stream);
      ++s.depth;
    }
  }
  for (AdaptiveJob& job : jobs) job.decided->finish();
}

int cut_adaptive_depths(gpu::DeviceTree& tree, int n, int bucket, cudaStream_t stream,
                        DecidedCuts& decided) {
  std::vector<AdaptiveJob> jobs(1);
  jobs[0].tree = &tree;
  jobs[0].n = n;
  jobs[0].bucket = bucket;
  jobs[0].stream = stream;
  jobs[0].decided = &decided;
  cut_adaptive_depths(jobs);
  return jobs[0].first_depth;
}

int walk_stack_bound(const gpu::TreeShape& shape) {
  const int levels = static_cast<int>(shape.level_start.size()) - 1;
  return std::max(shape.arity, 2) * (levels + 1) + 1;
}

}  // namespace vortex::detail
