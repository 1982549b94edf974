// Device-memory input (Solver::evaluate_on_device): each array must be device memory; every entry
// is checked on the device by the rules the host applies, and the first bad one is named by the
// host's own check of a copy of that one entry.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/cuda_workspace.hpp"
#include "vortex/math/layout_grid.hpp"
#include "vortex/tolerance.hpp"

namespace vortex::detail {

namespace {

void require_device_memory(const double* p, const char* what) {
  if (!p) throw std::invalid_argument(std::string("device arrays: ") + what + " is null");
  cudaPointerAttributes a{};
  const cudaError_t e = cudaPointerGetAttributes(&a, p);
  if (e != cudaSuccess) cudaGetLastError();  // clear it: not an error of the device
  if (e != cudaSuccess || (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged))
    throw std::invalid_argument(
        std::string("device arrays: ") + what +
        " is not device memory (host memory goes through Solver::evaluate)");
}

// Runs the host's checks on a copy of entry i and rethrows their message with the entry's index.
[[noreturn]] void name_bad_entry(const double* const* arrays, int count, long long i, bool source) {
  double v[7] = {0, 0, 0, 0, 0, 0, 1};
  for (int k = 0; k < count; ++k)
    VORTEX_CUDA_CHECK(cudaMemcpy(v + k, arrays[k] + i, sizeof(double), cudaMemcpyDeviceToHost));
  std::string message;
  try {
    SourcesView s;
    s.x = v, s.y = v + 1, s.z = v + 2, s.gx = v + 3, s.gy = v + 4, s.gz = v + 5, s.sigma = v + 6;
    s.n = 1;
    PointsView t;
    t.x = v, t.y = v + 1, t.z = v + 2, t.n = 1;
    if (source) {
      validate_sources(s);
      validate_length_scales(s, PointsView{});
    } else {
      validate_targets(t);
      validate_length_scales(SourcesView{}, t);
    }
    message =
        std::string(source ? "sources" : "targets") + "[" + std::to_string(i) + "] is not accepted";
  } catch (const std::invalid_argument& e) {
    message = e.what();
    const std::size_t at = message.find("[0]");
    if (at != std::string::npos) message.replace(at, 3, "[" + std::to_string(i) + "]");
  }
  throw std::invalid_argument("device arrays: " + message);
}

}  // namespace

SourceFacts device_input_facts_cuda(CudaWorkspace& ws, SourcesView s, PointsView t,
                                    double* const* out, int components) {
  const double* sources[7] = {s.x, s.y, s.z, s.gx, s.gy, s.gz, s.sigma};
  const char* source_names[7] = {"sources x",  "sources y",  "sources z",    "sources gx",
                                 "sources gy", "sources gz", "sources sigma"};
  for (int k = 0; k < 7; ++k) require_device_memory(sources[k], source_names[k]);
  const double* targets[3] = {t.x, t.y, t.z};
  const char* target_names[3] = {"targets x", "targets y", "targets z"};
  for (int k = 0; k < 3; ++k) require_device_memory(targets[k], target_names[k]);
  for (int c = 0; c < components; ++c)
    require_device_memory(out[c], c < 3 ? "a velocity result array" : "a gradient result array");

  g::DeviceInput in;
  in.x = s.x, in.y = s.y, in.z = s.z, in.gx = s.gx, in.gy = s.gy, in.gz = s.gz;
  in.sigma = s.sigma;
  in.num_sources = static_cast<long long>(s.size());
  in.tx = t.x, in.ty = t.y, in.tz = t.z;
  in.num_targets = static_cast<long long>(t.size());
  const g::InputSummary summary = ws.input_summary.summarize(in, ws.compute.get());
  if (summary.first_bad_source >= 0) name_bad_entry(sources, 7, summary.first_bad_source, true);
  if (summary.first_bad_target >= 0) name_bad_entry(targets, 3, summary.first_bad_target, false);

  SourceFacts facts;
  facts.num_sources = s.size();
  facts.given_mean_offset = summary.mean_offset_in_sigmas;
  facts.given_layout.num_sources = s.size();
  double half_width = 0;
  for (int a = 0; a < 3; ++a)
    half_width = std::max(half_width, 0.5 * summary.hi[a] - 0.5 * summary.lo[a]);
  facts.given_units = units_from(half_width, summary.max_strength, summary.max_sigma);
  facts.given_range = float_range_from(summary.lo, summary.hi, summary.min_sigma, summary.target_lo,
                                       summary.target_hi);
  if (summary.occupied > 0) {
    const double n = static_cast<double>(s.size());
    facts.given_layout.contrast = layout_grid::contrast(summary.occupied, summary.squares, n);
    facts.given_layout.dimension =
        layout_grid::dimension(summary.squares - n, summary.coarse_pairs, summary.cells_per_side);
    if (filament_share(facts.given_layout) > 0) {
      // The host's sample (spread_sample) copied back, measured by the host's code.
      const std::size_t stride = spread_stride(s.size()), m = (s.size() + stride - 1) / stride;
      std::vector<double> sample(4 * m);
      const double* arrays[4] = {s.x, s.y, s.z, s.sigma};
      for (int a = 0; a < 4; ++a)
        VORTEX_CUDA_CHECK(cudaMemcpy2D(sample.data() + a, 4 * sizeof(double), arrays[a],
                                       stride * sizeof(double), sizeof(double), m,
                                       cudaMemcpyDeviceToHost));
      const int k = summary.cells_per_side;
      facts.given_layout.spread = spread_across(
          sample.data(), m, summary.lo, layout_grid::cell_scale(k, summary.lo, summary.hi), k);
    }
  }
  return facts;
}

}  // namespace vortex::detail
