#include "backend/cuda_device_lists.hpp"

#include <algorithm>
#include <array>

#include "backend/cuda_stages.hpp"
#include "tree/tree_shape.hpp"

namespace vortex::detail {

ListSizes build_lists(CudaWorkspace& ws, const ResolvedOptions& options, EvaluationStats& stats) {
  DeviceTreeStorage& r = ws.resident;
  const cudaStream_t cs = ws.compute.get();
  const int leaves = static_cast<int>(r.target_tree.shape().leaves.size());
  for (auto* b : {&r.near_count, &r.far_count}) b->reserve(leaves);
  for (auto* b : {&r.near_offsets, &r.far_offsets}) b->reserve(leaves + 1);
  g::ListWalk w;
  w.targets = r.target_tree.nodes();
  w.target_leaves = r.target_tree.leaves();
  w.num_target_leaves = leaves;
  w.sources = r.source_tree.nodes();
  w.criteria = criteria_with_orders(options.tree.theta, options.tree.kappa, options.tree.order,
                                    options.tree.uniform_order);
  const g::TreeShape& ss = r.source_tree.shape();
  const std::array<int, 4> key{ss.n, ss.bucket, ss.arity, leaves};
  if (key != r.walk_key) {
    r.walk_slots.prepare(g::pick_walk_frontier(ss.nodes, leaves), leaves, cs);
    r.walk_key = key;
  }
  r.walk_slots.attach(w);
  w.near_count = r.near_count.data();
  w.far_count = r.far_count.data();
  g::launch_list_counts(w, cs);
  g::exclusive_offsets(r.near_count.data(), r.near_offsets.data(), leaves, r.scan_temp, cs);
  g::exclusive_offsets(r.far_count.data(), r.far_offsets.data(), leaves, r.scan_temp, cs);
  const bool local =
      r.locals.prepare(options, r.target_tree, r.source_tree, r.far_offsets.data(), stats);
  if (local) r.locals.launch_rooms(r.scan_temp, cs);
  int* totals = r.host_totals.reserve(2);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(totals, r.near_offsets.data() + leaves, sizeof(int),
                                    cudaMemcpyDeviceToHost, cs));
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(totals + 1, r.far_offsets.data() + leaves, sizeof(int),
                                    cudaMemcpyDeviceToHost, cs));
  ws.compute.synchronize();
  const ListSizes sizes{totals[0], totals[1]};
  r.near_ranges.reserve(std::max(sizes.near, 1));
  r.far_nodes.reserve(std::max(sizes.far, 1));
  r.far_orders.reserve(std::max(sizes.far, 1));
  w.near_offsets = r.near_offsets.data();
  w.far_offsets = r.far_offsets.data();
  w.near_ranges = r.near_ranges.data();
  w.far_nodes = r.far_nodes.data();
  w.far_orders = r.far_orders.data();
  g::launch_list_fill(w, cs);
  if (local)
    r.locals.choose({r.far_offsets.data(), r.far_nodes.data(), r.far_orders.data()}, sizes.far,
                    r.scan_temp, ws.compute, stats);
  r.lists_end.record(ws.compute);
  return sizes;
}

g::DevicePlanView plan_on_device(CudaWorkspace& ws, const ResolvedOptions& options, bool gradient) {
  DeviceTreeStorage& r = ws.resident;
  const g::TreeShape& ts = r.target_tree.shape();
  int largest = 1;
  for (const int leaf : ts.leaves)
    largest = std::max(largest, ts.nodes[leaf].end - ts.nodes[leaf].begin);
  g::DeviceLists lists;
  lists.target_nodes = r.target_tree.nodes();
  lists.target_leaves = r.target_tree.leaves();
  lists.num_leaves = static_cast<int>(ts.leaves.size());
  lists.near_offsets = r.near_offsets.data();
  lists.near_entries = r.near_ranges.data();
  lists.far_offsets = r.locals.m2p({r.far_offsets.data(), nullptr, nullptr}).offsets;
  return r.planner.plan(lists, tree_balance(ws, options, gradient, largest), ws.compute.get());
}

}  // namespace vortex::detail
