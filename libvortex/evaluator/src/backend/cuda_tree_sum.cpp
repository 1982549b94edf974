// The treecode's sums on the GPU, with the host's multipoles overlapped with the near field.

#include "backend/cuda_stages.hpp"

namespace vortex::detail {

ComponentView tree_sum_cuda(CudaWorkspace& ws, TreePlan& plan, const ResolvedOptions& options,
                            bool gradient, EvaluationStats& stats) {
  const QuietenOnExit quieten(ws);
  HostPhases phases;
  const std::size_t n = plan.targets.size();
  const g::WorkPlan work = plan_tree_work(ws, plan, options, gradient);
  double transfer_host = phases.mark("plan");
  transfer_host += start_near_field(ws, plan, work, options, gradient);
  upload_far_lists(ws, plan, work);
  phases.mark("launch_near");

  compute_multipoles(plan);  // on the host while the GPU sums the near field
  const double multipole_time = phases.mark("multipoles");

  transfer_host += start_far_field(ws, plan, work, options, gradient);
  launch_combine_and_download(ws, work, n, gradient);
  ws.compute.synchronize();
  phases.mark("wait_gpu");

  fill_names(ws, device_arithmetic(options.arithmetic), stats);
  fill_plan_balance(work, stats);
  reset_far_field_stats(stats);  // the host-built path's far field is M2P, whatever the option
  stats.times.multipole = multipole_time;
  stats.times.near = ws.near_end.seconds_since(ws.near_start);
  stats.times.far = ws.far_end.seconds_since(ws.far_start);
  stats.times.m2p = ws.m2p_end.seconds_since(ws.far_start);
  const double uploads = ws.uploaded.seconds_since(ws.start) +
                         ws.far_lists_end.seconds_since(ws.far_lists_start) +
                         ws.expansions_end.seconds_since(ws.expansions_start);
  const double download = ws.downloaded.seconds_since(ws.far_end);
  stats.times.transfer = transfer_host + uploads + download;
  phases.add("gpu_near", stats.times.near);
  phases.add("gpu_far", stats.times.far);
  phases.add("gpu_upload", uploads);
  phases.add("gpu_download", download);
  phases.add("gpu_idle_before_far", ws.far_start.seconds_since(ws.near_end));
  return downloaded_results(ws, n, gradient);
}

}  // namespace vortex::detail
