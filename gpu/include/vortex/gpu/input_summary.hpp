#pragma once
// Particles that already live in device memory, checked and summarized where they are: every
// entry against the Solver's input rules (math/input_check.hpp), then what option resolution
// reads of the sources (their bounding box, their mean offset from its middle in sigmas, the
// layout grid's counts; math/layout_grid.hpp). Nothing of the particles goes to the host.

#include <cuda_runtime_api.h>

#include "vortex/gpu/buffer.hpp"

namespace vortex::gpu {

struct DeviceInput {
  const double *x = nullptr, *y = nullptr, *z = nullptr;
  const double *gx = nullptr, *gy = nullptr, *gz = nullptr, *sigma = nullptr;
  long long num_sources = 0;
  const double *tx = nullptr, *ty = nullptr, *tz = nullptr;
  long long num_targets = 0;
};

struct InputSummary {
  long long first_bad_source = -1, first_bad_target = -1;  // -1: every entry is valid
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};             // the sources' bounding box
  double max_strength = 0, max_sigma = 0;  // largest strength component magnitude, sigma
  double min_sigma = 0;
  double target_lo[3] = {0, 0, 0}, target_hi[3] = {0, 0, 0};  // the targets' bounding box
  double mean_offset_in_sigmas = 0;
  // Layout grid: occupied cells, sum of squared counts, cells a side, and sum of n (n - 1) over
  // the coarse cells (layout_grid::coarse_count).
  double occupied = 0, squares = 0;
  int cells_per_side = 0;
  double coarse_pairs = 0;
};

class InputSummarizer {
 public:
  // The checks; when every entry passes, the summary too. Waits for `stream`.
  InputSummary summarize(const DeviceInput& in, cudaStream_t stream);

 private:
  DeviceBuffer<unsigned long long> words_;  // first bad indices, box as order bits
  DeviceBuffer<double> sums_;               // offset sum, occupied, squares, coarse pairs
  DeviceBuffer<unsigned> counts_;           // layout grid
  PinnedBuffer<unsigned long long> host_words_;
  PinnedBuffer<double> host_sums_;
};

}  // namespace vortex::gpu
