#pragma once
// The device-built treecode's local expansions (docs/methods/treecode.md, section 4): the host half
// of gpu/lists/local_expansion_lists.cu, gpu/far/local_m2l.cu and gpu/far/local_field.cu. Per call:
// prepare() decides whether the far field may take local expansions; launch_rooms() runs before the
// host reads the list sizes and reads its own with them; choose() builds the lists once the far
// lists are filled and leaves each leaf's M2P entries; the sums then run around the M2P far field.

#include <cstdint>
#include <vector>

#include "backend/resolved_options.hpp"
#include "vortex/field.hpp"
#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/device_tree.hpp"
#include "vortex/gpu/local_launch.hpp"
#include "vortex/gpu/stream.hpp"

namespace vortex::detail {

// The far lists of the target leaves on the device.
struct DeviceFarLists {
  const int* offsets = nullptr;  // num_leaves + 1
  const int* nodes = nullptr;
  const unsigned char* orders = nullptr;
};

class DeviceLocals {
 public:
  // Whether this call may take local expansions: the option, the cost model at the largest target
  // node, a target tree with inner nodes. Sets up the lists' inputs; `far` is filled later.
  bool prepare(const ResolvedOptions& options, const gpu::DeviceTree& targets,
               const gpu::DeviceTree& sources, const int* far_offsets, EvaluationStats& stats);
  bool active() const { return active_; }
  // The rooms of the slots, once the far counts and offsets are queued; their total is read
  // with the list sizes.
  void launch_rooms(gpu::DeviceBuffer<unsigned char>& scan_temp, cudaStream_t stream);
  // Once the far lists (far_total entries) are queued and the stream has passed launch_rooms: a
  // bound of whether any node could take M2L entries, then the choice and the M2P lists, waiting
  // for each's counts. Falls back to M2P alone (returns false) when no node takes one or new
  // storage would not fit in half the device's free memory.
  bool choose(DeviceFarLists far, int far_total, gpu::DeviceBuffer<unsigned char>& scan_temp,
              const gpu::Stream& stream, EvaluationStats& stats);
  // The far lists that M2P evaluates: the M2P lists when local expansions are taken.
  DeviceFarLists m2p(DeviceFarLists far) const;
  // M2L and L2L (once the multipoles are up), then, after the combine, L2P into the results.
  void launch_translations(const double* multipoles, const gpu::Stream& stream);
  void launch_l2p(const gpu::DeviceTree& targets, double scale, double* out, std::size_t stride,
                  bool gradient, const gpu::Stream& stream);
  // Operation times of the call (events; after the stream is done).
  void fill_times(EvaluationStats& stats) const;

 private:
  bool active_ = false;
  int order_ = 0;
  std::vector<int> level_start_;
  gpu::LocalField field_;
  gpu::LocalListStorage storage_;
  gpu::DeviceBuffer<double> partials_, locals_;
  gpu::DeviceBuffer<double> normalized_;       // the M2L's moments (LocalField::normalized)
  gpu::DeviceBuffer<unsigned char> rotation_;  // multipole::rotation::Tables
  gpu::PinnedBuffer<int> sizes_;  // M2P entries, M2L chunks, stored expansions, may_take
  gpu::PinnedBuffer<long long> slot_total_;
  gpu::PinnedBuffer<unsigned long long> counted_;
  gpu::Event choice_start_, choice_end_, m2l_start_, m2l_end_, l2l_end_, l2p_start_, l2p_end_;
};

}  // namespace vortex::detail
