// The near field of the treecode on the GPU: work items planned from the lists, particles packed in
// tree order, the pair-sum kernel launched.

#include <algorithm>

#include "backend/cuda_stages.hpp"

namespace vortex::detail {

namespace {
constexpr int kMaxGroupThreads = 256;

int round_up(int n, int m) {
  return (n + m - 1) / m * m;
}
}  // namespace

g::Balance tree_balance(const CudaWorkspace& ws, const ResolvedOptions& options, bool gradient,
                        int largest_leaf) {
  const g::Arithmetic a = device_arithmetic(options.arithmetic);
  const int threads = std::min(kMaxGroupThreads, round_up(std::max(largest_leaf, 1), 32));
  g::Balance balance;
  balance.block_threads = threads;
  balance.resident_blocks = resident_blocks(
      ws, g::pair_sum_blocks_per_multiprocessor(options.core, a, gradient, threads));
  balance.far_resident_blocks = resident_blocks(
      ws, g::far_sum_blocks_per_multiprocessor(options.tree.order, a, gradient, threads));
  return balance;
}

g::WorkPlan plan_tree_work(CudaWorkspace& ws, const TreePlan& plan, const ResolvedOptions& options,
                           bool gradient) {
  const KdTree& tt = plan.target_tree;
  const int num_leaves = static_cast<int>(tt.leaves.size());
  ws.target_leaves.resize(num_leaves);
  int largest = 1;
  for (int i = 0; i < num_leaves; ++i) {
    const KdNode& node = tt.nodes[tt.leaves[i]];
    ws.target_leaves[i] = {node.begin, node.end};
    largest = std::max(largest, node.count());
  }
  g::ListView view;
  view.target_leaves = ws.target_leaves.data();
  view.num_leaves = num_leaves;
  view.near_offsets = plan.lists.near_offsets.data();
  view.near_entries = plan.lists.near_ranges.data();
  view.far_offsets = plan.lists.far_offsets.data();
  view.far_nodes = plan.lists.far_nodes.data();
  return g::plan_tree(view, tree_balance(ws, options, gradient, largest));
}

double start_near_field(CudaWorkspace& ws, const TreePlan& plan, const g::WorkPlan& work,
                        const ResolvedOptions& options, bool gradient) {
  return start_pair_sum(ws, plan.sources, PointsView(plan.targets), plan.origin(), work, options,
                        gradient);
}

}  // namespace vortex::detail
