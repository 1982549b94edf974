// The direct sum on the GPU: every source onto every target, balanced work items.

#include "backend/cuda_workspace.hpp"

namespace vortex::detail {

namespace {
constexpr int kDirectThreads = 128;
}

ComponentView direct_sum_cuda(CudaWorkspace& ws, SourcesView sources, PointsView targets,
                              const ResolvedOptions& options, bool gradient,
                              EvaluationStats& stats) {
  const QuietenOnExit quieten(ws);
  HostPhases phases;
  const std::size_t n = targets.size();
  const g::Arithmetic a = device_arithmetic(options.arithmetic);

  g::Balance balance;
  balance.block_threads = kDirectThreads;
  balance.resident_blocks = resident_blocks(
      ws, g::pair_sum_blocks_per_multiprocessor(options.core, a, gradient, kDirectThreads));
  const g::WorkPlan plan =
      g::plan_direct(static_cast<int>(n), static_cast<int>(sources.size()), balance);

  const double pack_time =
      start_pair_sum(ws, sources, targets, middle_of(sources), plan, options, gradient);
  launch_combine_and_download(ws, plan, n, gradient);
  ws.compute.synchronize();
  phases.mark("wait_gpu");

  fill_names(ws, a, stats);
  fill_plan_balance(plan, stats);
  stats.times.near = ws.far_end.seconds_since(ws.near_start);
  stats.times.transfer =
      pack_time + ws.uploaded.seconds_since(ws.start) + ws.downloaded.seconds_since(ws.far_end);
  phases.add("gpu_pair_kernel", ws.near_end.seconds_since(ws.near_start));
  return downloaded_results(ws, n, gradient);
}

}  // namespace vortex::detail
