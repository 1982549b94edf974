// The CUDA backend behind the internal Backend and DevicePipeline interfaces.

#include <stdexcept>

#include "backend/cuda_workspace.hpp"

namespace vortex::detail {

namespace {

class CudaBackend final : public DeviceBackend {
 public:
  CudaBackend() { ws_.info = g::current_device(); }

  ComponentView direct_sum(SourcesView sources, PointsView targets, const ResolvedOptions& options,
                           bool gradient, EvaluationStats& stats) override {
    return direct_sum_cuda(ws_, sources, targets, options, gradient, stats);
  }

  ComponentView tree_sum(TreePlan& plan, const ResolvedOptions& options, bool gradient,
                         EvaluationStats& stats) override {
    return tree_sum_cuda(ws_, plan, options, gradient, stats);
  }

  void device_tree_sum(SourcesView sources, PointsView targets, const ResolvedOptions& options,
                       bool gradient, EvaluationStats& stats, double* const* out, bool on_device,
                       Units units, bool reuse_points) override {
    device_tree_sum_cuda(ws_, sources, targets, options, gradient, stats, out, on_device, units,
                         reuse_points);
  }

  SourceFacts device_input_facts(SourcesView sources, PointsView targets, double* const* out,
                                 int components) override {
    return device_input_facts_cuda(ws_, sources, targets, out, components);
  }

 private:
  CudaWorkspace ws_;
};

}  // namespace

bool cuda_device_present() {
  return g::device_count() > 0;
}

int use_cuda_device(int index) {
  const int count = g::device_count();
  if (count == 0) return -1;
  const int device = index % count;
  g::use_device(device);
  return device;
}

void require_cuda() {
  if (!cuda_device_present())
    throw std::runtime_error("backend 'cuda' was requested but no CUDA device is present");
}

std::unique_ptr<DeviceBackend> make_cuda_backend() {
  require_cuda();
  return std::make_unique<CudaBackend>();
}

}  // namespace vortex::detail
