#pragma once
// What particle control keeps between calls (particle_control.cpp), shared with its device pass
// (control_device_pass.cpp).

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "particle_control/control_cuda.hpp"
#include "particle_control/control_parts.hpp"
#include "vortex/grid_search.hpp"

namespace vortex::detail {

// The block of ListSpan that marks the device's pools.
constexpr std::size_t kDeviceBlock = std::numeric_limits<std::size_t>::max();

// Where a candidate's receivers and fractions lie: a block's lists (or the device's pools), from
// `first`, `count` of them.
struct ListSpan {
  std::size_t block = 0, first = 0, count = 0;
  bool signed_shares = false;  // the fractions are signed (the candidate outside their hull)
  bool partner = false;        // a merge into one partner (MergeInto::Partner)
};

struct ControlScratch {
  GridSearch search;
  std::vector<double> strength;
  std::vector<char> candidate, merge, removed;
  std::vector<std::size_t> order;    // the candidates, weakest first
  std::vector<std::size_t> spatial;  // their places in the grid, in the grid's order
  std::vector<std::int32_t> rank;
  std::vector<std::vector<int>> receivers;  // per block of candidates in the grid's order
  std::vector<std::vector<double>> fractions;
  std::vector<ListSpan> lists;        // per candidate in `order`: where its receivers lie
  std::vector<MergeMoments> moments;  // per particle: what it took as a partner
  std::vector<double> compacted;      // an array of the survivors, swapped into the set

  // The device (ParticleControlOptions::backend), made at the first call that uses it.
  std::unique_ptr<ControlDevice> device;
  bool on_device = false;                 // this call's decisions go to the device
  std::vector<double> sorted_strength;    // per place of the grid
  WallNearby wall, sorted_wall;           // as the hook gives it, and per place of the grid
  std::vector<std::int8_t> merge_flags;   // per place
  std::vector<std::size_t> host_merges;   // particles whose merge the host decides
  std::vector<std::size_t> host_shares;   // candidates (positions in `spatial`) the host decides
  std::vector<std::int8_t> left;          // per position in `spatial`: why the device left it
  std::vector<std::size_t> device_taken;  // those given to the device (positions in `spatial`)
  std::vector<std::int32_t> places;       // the latter's places in the grid
  std::vector<std::uint8_t> merging, candidate_places;
  std::vector<control::DeviceShares> shares;
  const std::int32_t* device_receivers = nullptr;
  const double* device_fractions = nullptr;

  const int* receivers_of(const ListSpan& l) const {
    return (l.block == kDeviceBlock ? device_receivers : receivers[l.block].data()) + l.first;
  }
  const double* fractions_of(const ListSpan& l) const {
    return (l.block == kDeviceBlock ? device_fractions : fractions[l.block].data()) + l.first;
  }
};

}  // namespace vortex::detail
