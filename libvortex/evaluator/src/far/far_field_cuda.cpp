// The far field of the treecode on the GPU: far lists and velocity expansions staged on the copy
// stream, the multipole-sum kernel launched after them.

#include <stdexcept>

#include "backend/cuda_stages.hpp"
#include "backend/packing.hpp"
#include "vortex/multipole/expansion.hpp"

namespace vortex::detail {

void upload_far_lists(CudaWorkspace& ws, const TreePlan& plan, const g::WorkPlan& work) {
  const cudaStream_t cs = ws.copy.get();
  ws.far_lists_start.record(ws.copy);
  ws.far_items.upload(work.far_items, cs);
  ws.far_nodes.upload(plan.lists.far_nodes, cs);
  ws.far_orders.upload(plan.lists.far_orders, cs);
  ws.far_lists_end.record(ws.copy);
}

namespace {

// Expansions and centers in T, written straight into the pinned staging buffers; returns the
// bytes of the expansions.
template <class T>
std::size_t stage_expansions(CudaWorkspace& ws, const TreePlan& plan) {
  const std::size_t num_nodes = plan.source_tree.nodes.size();
  auto* centers =
      reinterpret_cast<g::Vec4<T>*>(ws.centers.host_data(num_nodes * sizeof(g::Vec4<T>)));
  pack_centers(plan, plan.origin(),
               [centers](std::ptrdiff_t k, double x, double y, double z, double inv_scale) {
                 centers[k] = {T(x), T(y), T(z), T(inv_scale)};
               });
  const std::size_t bytes = plan.velocity_expansions.size() * sizeof(T);
  convert_expansions(plan, reinterpret_cast<T*>(ws.expansions.host_data(bytes)));
  return bytes;
}

}  // namespace

double start_far_field(CudaWorkspace& ws, const TreePlan& plan, const g::WorkPlan& work,
                       const ResolvedOptions& options, bool gradient) {
  HostPhases phases;
  const g::Arithmetic a = device_arithmetic(options.arithmetic);
  const std::size_t num_nodes = plan.source_tree.nodes.size();
  if (plan.velocity_expansions.size() != num_nodes * multipole::velocity_expansion_size(plan.order))
    throw std::logic_error("compute_multipoles left velocity expansions of the wrong size");
  const std::size_t bytes = a == g::Arithmetic::Double ? stage_expansions<double>(ws, plan)
                                                       : stage_expansions<float>(ws, plan);
  const cudaStream_t cs = ws.copy.get();
  ws.expansions_start.record(ws.copy);
  ws.expansions.upload(bytes, cs);
  ws.centers.upload(num_nodes * vec_bytes(a), cs);
  ws.expansions_end.record(ws.copy);
  ws.compute.wait(ws.expansions_end.get());
  const double pack_time = phases.mark("pack_expansions");

  ws.far_start.record(ws.compute);
  g::launch_far_sum(far_sum(ws, uploaded_plan(ws, work), plan.order, a, gradient,
                            ws.far_nodes.device.data(), ws.far_orders.device.data()),
                    ws.compute.get());
  ws.m2p_end.record(ws.compute);
  return pack_time;
}

}  // namespace vortex::detail
