#pragma once
// vrm_diffuse's step (vortex/vrm.hpp), shared by its sources: the step's set-up and order
// (vrm/vrm.cpp), the host's rounds (vrm/vrm_host_rounds.cpp), the device's rounds
// (vrm/vrm_device_rounds.cpp) and the hand-over of the strengths (vrm/vrm_redistribute.cpp); the
// owners' states, the storage a workspace keeps from call to call.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <future>
#include <memory>
#include <vector>

#include "vortex/grid_search.hpp"
#include "vortex/vrm.hpp"
#include "vrm/vrm_parts.hpp"
#include "vrm/vrm_round_cuda.hpp"
#include "vrm/vrm_solve.hpp"

namespace vortex {

namespace vrm_step {

using detail::VrmParts;
using Clock = std::chrono::steady_clock;

// Lattice node key; nodes are h * (i, j, k) with |i|, |j|, |k| < 2^20.
inline std::uint64_t node_key(long i, long j, long k) {
  const std::uint64_t off = 1u << 20;
  return ((static_cast<std::uint64_t>(i + off) & 0x1FFFFF) << 42) |
         ((static_cast<std::uint64_t>(j + off) & 0x1FFFFF) << 21) |
         (static_cast<std::uint64_t>(k + off) & 0x1FFFFF);
}

using detail::node_position;

// Solution state of a particle that owns strength this step.
// kMoved: kept, and handed to a new particle at the drifted position.
// kHandedOver: solved on the device, which also handed its strength to its neighbours.
// kOnDevice: given to the device's round, which is running; kReturned: the device gave it back
// unsolved, for the host's first round; kListed: being listed for the device.
enum State : char {
  kUnsolved,
  kSolved,
  kEmpty,
  kSigned,
  kKept,
  kMoved,
  kHandedOver,
  kOnDevice,
  kReturned,
  kListed
};

// The lattice nodes taken this step: an open-addressing set that keeps its table when cleared;
// each key holds a value, that of its first insertion.
class NodeSet {
 public:
  void clear() {
    if (used_ > 0) std::fill(slots_.begin(), slots_.end(), kNone);
    used_ = 0;
  }
  // True when the key was not in the set (it now holds `value`); else `held` gets its value.
  bool insert(std::uint64_t key, std::size_t value, std::size_t& held) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = spread(key) & mask;; s = (s + 1) & mask) {
      if (slots_[s] == key) {
        held = values_[s];
        return false;
      }
      if (slots_[s] == kNone) {
        slots_[s] = key;
        values_[s] = value;
        ++used_;
        return true;
      }
    }
  }

 private:
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};  // node keys use 63 bits
  static std::uint64_t spread(std::uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    return k ^ (k >> 33);
  }
  void grow() {
    std::vector<std::uint64_t> old(std::max<std::size_t>(64, 2 * slots_.size()), kNone);
    std::vector<std::size_t> old_values(old.size());
    old.swap(slots_);
    old_values.swap(values_);
    used_ = 0;
    std::size_t held = 0;
    for (std::size_t k = 0; k < old.size(); ++k)
      if (old[k] != kNone) insert(old[k], old_values[k], held);
  }
  std::vector<std::uint64_t> slots_;
  std::vector<std::size_t> values_;
  std::size_t used_ = 0;
};

// Which of `shards` node sets holds a key (the high bits of a product, which NodeSet's slots,
// taken from the low bits of another mix, do not follow).
inline int node_shard(std::uint64_t key, int shards) {
  const std::uint64_t h = (key * 0x9e3779b97f4a7c15ull) >> 32;
  return static_cast<int>((h * static_cast<std::uint64_t>(shards)) >> 32);
}

// A round's insertion proposals in particle order (blocks, their owners ascending, each owner's
// keys in its order): the keys, their owners, their node sets, whether each is the node's first
// proposal this step, and for a first proposal the smallest core radius of the node's proposers
// this round (that of the particle inserted there: it does not depend on the particles' order).
struct ProposalList {
  std::vector<std::uint64_t> keys;
  std::vector<std::int32_t> owners;
  std::vector<std::uint8_t> shard, first;
  std::vector<double> sigma;
  std::vector<std::size_t> block_start;  // per block, where its keys begin
  std::vector<std::uint64_t> new_keys;  // with parts: the round's first proposals, then the merge's
  std::vector<double> new_sigma;
};

// Owners the device solves in one call, at most.
constexpr std::size_t kDeviceChunk = std::size_t{1} << 22;

// Owners are solved in blocks of this many consecutive particles; each block keeps the lists of
// its owners, so that the storage does not depend on which thread took which block.
constexpr std::size_t kBlock = 256;

// Where an owner's list lies in its block's storage.
struct Span {
  std::size_t offset = 0;
  int count = 0;
};

// The keys an owner proposed this round: keys[first, first + count) of its block.
struct Proposal {
  std::int32_t owner;
  int count;
  std::size_t first;
  bool operator<(const Proposal& o) const { return owner < o.owner; }
};

struct Block {
  std::vector<int> neighbors;       // of the owners solved, one after another
  std::vector<double> fractions;    // the same layout
  std::vector<std::uint64_t> keys;  // insertion proposals of this round, one owner after another
  std::vector<Proposal> proposers;  // their owners (ascending once sorted) and keys
};

// One thread's scratch.
struct ThreadStore {
  std::vector<int> within, found, extra;
  std::vector<std::array<double, 3>> offsets;
  std::vector<double> f;
  detail::VrmSolveScratch solve;
  int self = -1;
  double residual = 0, neighbor_total = 0;
  std::size_t solved = 0;
  std::size_t proposed_from_device = 0;  // owners that proposed the device's free nodes
};

// Every thread's scratch to the largest capacity any of them has needed, so that a step like an
// earlier one allocates nothing, whichever thread solves which particle.
inline void reserve_alike(std::vector<ThreadStore>& threads) {
  std::size_t within = 0, found = 0, extra = 0, offsets = 0, f = 0, weights = 0, dots = 0;
  for (const ThreadStore& w : threads) {
    found = std::max(found, w.found.capacity());
    extra = std::max(extra, w.extra.capacity());
    within = std::max(within, w.within.capacity());
    offsets = std::max(offsets, w.offsets.capacity());
    f = std::max(f, w.f.capacity());
    weights = std::max(weights, w.solve.inverse_weights.capacity());
    dots = std::max({dots, w.solve.dots.capacity(), w.solve.trial_dots.capacity()});
  }
  for (ThreadStore& w : threads) {
    w.found.reserve(found);
    w.extra.reserve(extra);
    w.within.reserve(within);
    w.offsets.reserve(offsets);
    w.f.reserve(f);
    w.solve.inverse_weights.reserve(weights);
    w.solve.dots.reserve(dots);
    w.solve.trial_dots.reserve(dots);
  }
}

// Owners for the device: their indices (in the grid's order), the row of each one's own moments
// (or -1; none in a batch without them), the rows (10 values each, units of h); what the device
// made of each (written by the device's thread), and of the owners without a solution the places
// of those whose free nodes it found, with their masks.
struct DeviceBatch {
  std::vector<std::int32_t> owners, rows;
  std::vector<double> moments;
  std::vector<std::int8_t> outcome;
  std::vector<std::int32_t> size;
  std::vector<double> residual;
  std::vector<std::int32_t> free_owner;
  std::vector<std::uint64_t> free_nodes;
};

// device_failed's values: the device found no solution within R for the owner in this round;
// and the free nodes around it too (free_place).
constexpr char kFailedOnDevice = 1, kFreeNodesFound = 2;

// The device's first round on a thread of its own: its signals to the host (the far batch's
// outcomes are in; everything is, with the sums: `done`) and the host's to it (the near batch is
// listed: true, or the host gave up: false). Whatever happens on the host, the thread is let go
// on and waited for.
struct DeviceRound {
  std::promise<void> far_promise;
  std::promise<bool> near_listed;
  std::future<void> far_done = far_promise.get_future();
  std::shared_future<bool> near_ready = near_listed.get_future().share();
  std::future<void> done;
  bool far_signalled = false, near_signalled = false;
  DeviceRound() = default;
  DeviceRound(const DeviceRound&) = delete;
  DeviceRound& operator=(const DeviceRound&) = delete;
  ~DeviceRound() {
    if (!done.valid()) return;
    if (!near_signalled) near_listed.set_value(false);
    done.wait();
  }
};

}  // namespace vrm_step

struct VrmWorkspace::Impl {
  using Block = vrm_step::Block;
  using DeviceBatch = vrm_step::DeviceBatch;
  using NodeSet = vrm_step::NodeSet;
  using ProposalList = vrm_step::ProposalList;
  using Span = vrm_step::Span;
  using ThreadStore = vrm_step::ThreadStore;
  GridSearch base;   // the particles at the start of the step (cells of R)
  GridSearch added;  // the particles inserted since
  std::vector<ThreadStore> threads;
  std::vector<Block> blocks;
  std::vector<Span> lists;  // per owner, where its list lies (valid for the owners recorded)
  std::vector<char> state, weak;
  std::vector<char> custom;         // per owner: the moments hook gave its own moments
  std::vector<char> device_failed;  // per owner: kFailedOnDevice, kFreeNodesFound or 0
  // The free nodes the device found: per record its owner and the mask (node_words_ words); per
  // owner, its record (read only where device_failed is kFreeNodesFound).
  std::vector<std::int32_t> free_owner, free_place;
  std::vector<std::uint64_t> free_nodes;
  // Per owner: its place in the device's batch of a later round, or -1 (stale entries are told
  // apart by that batch's owner at the place).
  std::vector<std::int32_t> later_place;
  std::vector<std::int32_t> later_owners;  // the device's batch of a later round
  // The device's first round: the owners beyond the wall's reach, the others.
  DeviceBatch far_batch, near;
  std::vector<double> device_gx, device_gy, device_gz;  // per particle: what the device handed over
  std::unique_ptr<detail::VrmDevice> device;            // made at the first call that asks for it
  std::vector<double> distance;                         // per particle, the wall_distance hook's
  std::vector<VrmMoments> target;
  std::vector<std::size_t> moved;
  std::vector<std::int32_t> listed;  // the owners with host lists, ascending (the hand-over's)
  std::vector<std::vector<std::int32_t>> listed_parts;  // per thread's range of owners
  std::vector<std::vector<std::size_t>> moved_parts;
  std::vector<double> gx, gy, gz, mx, my, mz;
  // The lattice nodes taken this step, in node sets by node_shard, one thread each.
  std::vector<NodeSet> occupied;
  ProposalList proposals;
};

namespace vrm_step {

// One call of vrm_diffuse: rounds of solving every owner's neighbourhood (inserting particles at
// free nodes between rounds), then the redistribution of the strengths.
class VrmStep {
 public:
  // `parts`: null for a whole set, else the other parts of a set split over processes.
  VrmStep(ParticleSet& p, const VrmOptions& o, double radius, double dt, double s2,
          VrmWorkspace::Impl& ws, const VrmParts* parts);
  void run(VrmStats& stats);

 private:
  // Set-up (vrm/vrm.cpp): the wall hooks' preparation and answers.
  void prepare_wall();
  void wall_distances(std::size_t first);
  void set_targets(double two_nu_dt);
  const VrmMoments& target(std::ptrdiff_t i) const { return ws_.custom[i] ? ws_.target[i] : free_; }

  // The host's rounds (vrm/vrm_host_rounds.cpp).
  void neighbors(double x, double y, double z, double r, ThreadStore& w,
                 std::vector<int>& out) const;
  void solve_round(bool last_round, char which);
  void solve_owner(std::ptrdiff_t i, bool last_round, ThreadStore& w);
  bool may_block(std::ptrdiff_t i, double r) const;
  bool blocked(std::ptrdiff_t i, std::ptrdiff_t j, const std::array<double, 3>& q) const;
  void record(std::ptrdiff_t i, const int* neighbors, const double* fractions, int count);
  void record(std::ptrdiff_t i, const ThreadStore& w);
  void solved(std::ptrdiff_t i, double residual, int count, ThreadStore& w);
  bool solve_within(std::ptrdiff_t i, double r, ThreadStore& w);
  void gather(std::ptrdiff_t i, double r, ThreadStore& w);
  void propose_free_nodes(std::ptrdiff_t i, const ThreadStore& w,
                          const std::uint64_t* mask = nullptr);
  std::size_t insert_proposed();
  std::size_t list_proposals();
  std::size_t merge_with_parts(std::size_t total);

  // The device's rounds (vrm/vrm_device_rounds.cpp).
  bool beyond_wall(std::ptrdiff_t i) const;
  void start_device_round(DeviceRound& round);
  void list_near_owners(DeviceRound& round);
  template <class Eligible>
  void list_device_owners(DeviceBatch& batch, bool own, const Eligible& eligible);
  void device_round(DeviceRound& round);
  void load_device();
  void add_device_times(const vrm::RoundHandover& s);
  void solve_on_device(DeviceBatch& batch, const double* distance);
  void take_device_sums();
  void add_sums(const vrm::RoundHandover& s, bool first, bool parallel);
  void take_device_outcomes(const DeviceBatch& batch, VrmStats& stats);
  void keep_free_nodes(std::int32_t i, const std::uint64_t* mask);
  void later_round_on_device(VrmStats& stats);
  bool take_later_device_result(std::ptrdiff_t i, ThreadStore& w);

  // The hand-over of the strengths (vrm/vrm_redistribute.cpp).
  void redistribute(VrmStats& stats);
  static bool keeps(char state);
  void tally_owners(VrmStats& stats);
  static bool drifts(const VrmMoments& m);
  void drop_unused_insertions(VrmStats& stats);

  ParticleSet& p_;
  const VrmOptions& o_;
  VrmWorkspace::Impl& ws_;
  const VrmParts* parts_;              // null for a whole set
  const double h_, radius_, dt_, s2_;  // s2_: 2 nu dt / h^2
  const VrmMoments free_;              // the free-space moments, in units of h
  const std::size_t n0_;               // particles at the start of the step
  std::size_t owners_ = 0;             // of them, those with strength
  std::size_t n_added_ = 0;            // particles inserted so far (indices n0_ ...)
  std::size_t proposed_ = 0;           // proposals of the earlier rounds (NodeSet values)
  double seconds_grid_ = 0;            // the set-up's grid build
  const int node_words_;               // of a mask of the device's free nodes (R's cube)
  double strongest_ = 0;               // the largest |Gamma| at the start
  // Per particle, what the device handed over (null: nothing this call).
  const double* device_sum_[3] = {};
  // The device's thread's: a session's room for owners and how many it holds, whether an earlier
  // session's sums are in device_gx ..., the last session's sums, and the device's times (uploads,
  // solves, hand-over, downloads).
  std::size_t capacity_ = 0, held_ = 0;
  bool summed_ = false;
  vrm::RoundHandover last_sums_{};
  double device_seconds_[4] = {};
  VrmKernelSeconds device_kernels_;  // of the solves' time
  // A later round's batch on the device: its owners (ws_.later_owners' first) and its results.
  std::size_t later_count_ = 0;
  vrm::RoundBatchResult later_{};
};

}  // namespace vrm_step

}  // namespace vortex
