// The vorticity redistribution method: one diffusion step of a particle set, with particles
// inserted at free lattice nodes where a neighbourhood has no non-negative solution.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <future>
#include <optional>
#include <stdexcept>
#include <string>

#include <omp.h>

#include "vortex/grid_search.hpp"
#include "vortex/solver.hpp"
#include "vortex/vrm.hpp"
#include "vrm_device.hpp"
#include "vrm_solve.hpp"

namespace vortex {

namespace {

using Clock = std::chrono::steady_clock;

// Lattice node key; nodes are h * (i, j, k) with |i|, |j|, |k| < 2^20.
std::uint64_t node_key(long i, long j, long k) {
  const std::uint64_t off = 1u << 20;
  return ((static_cast<std::uint64_t>(i + off) & 0x1FFFFF) << 42) |
         ((static_cast<std::uint64_t>(j + off) & 0x1FFFFF) << 21) |
         (static_cast<std::uint64_t>(k + off) & 0x1FFFFF);
}

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

// The lattice nodes taken this step: an open-addressing set that keeps its table when cleared.
class NodeSet {
 public:
  void clear() {
    if (used_ > 0) std::fill(slots_.begin(), slots_.end(), kNone);
    used_ = 0;
  }
  // True when the key was not in the set.
  bool insert(std::uint64_t key) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = spread(key) & mask;; s = (s + 1) & mask) {
      if (slots_[s] == key) return false;
      if (slots_[s] == kNone) {
        slots_[s] = key;
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
    old.swap(slots_);
    used_ = 0;
    for (std::uint64_t k : old)
      if (k != kNone) insert(k);
  }
  std::vector<std::uint64_t> slots_;
  std::size_t used_ = 0;
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
};

// Every thread's scratch to the largest capacity any of them has needed, so that a step like an
// earlier one allocates nothing, whichever thread solves which particle.
void reserve_alike(std::vector<ThreadStore>& threads) {
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
// made of each (written by the device's thread).
struct DeviceBatch {
  std::vector<std::int32_t> owners, rows;
  std::vector<double> moments;
  std::vector<std::int8_t> outcome;
  std::vector<std::int32_t> size;
  std::vector<double> residual;
};

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

}  // namespace

struct VrmWorkspace::Impl {
  GridSearch base;   // the particles at the start of the step (cells of R)
  GridSearch added;  // the particles inserted since
  std::vector<ThreadStore> threads;
  std::vector<Block> blocks;
  std::vector<Span> lists;  // per owner, where its list lies (valid for the owners recorded)
  std::vector<char> state, weak;
  std::vector<char> custom;         // per owner: the moments hook gave its own moments
  std::vector<char> device_failed;  // per owner: the device found no solution within R
  std::vector<char> far;            // per owner: in the device's far batch (this call)
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
  NodeSet occupied;
};

VrmWorkspace::VrmWorkspace() : impl_(std::make_unique<Impl>()) {}
VrmWorkspace::~VrmWorkspace() = default;
VrmWorkspace::VrmWorkspace(VrmWorkspace&&) noexcept = default;
VrmWorkspace& VrmWorkspace::operator=(VrmWorkspace&&) noexcept = default;

namespace {

// One call of vrm_diffuse: rounds of solving every owner's neighbourhood (inserting particles at
// free nodes between rounds), then the redistribution of the strengths.
class VrmStep {
 public:
  VrmStep(ParticleSet& p, const VrmOptions& o, double radius, double dt, double s2,
          VrmWorkspace::Impl& ws)
      : p_(p),
        o_(o),
        ws_(ws),
        h_(o.spacing),
        radius_(radius),
        dt_(dt),
        s2_(s2),
        free_(free_space_moments(s2)),
        n0_(p.size()) {
    const int threads = std::max(1, omp_get_max_threads());
    if (static_cast<int>(ws_.threads.size()) < threads) ws_.threads.resize(threads);
    for (ThreadStore& w : ws_.threads) {
      w.residual = w.neighbor_total = 0;
      w.solved = 0;
    }
    const std::size_t blocks = (n0_ + kBlock - 1) / kBlock;
    if (ws_.blocks.size() < blocks) ws_.blocks.resize(blocks);
    for (std::size_t b = 0; b < blocks; ++b) {
      ws_.blocks[b].neighbors.clear();
      ws_.blocks[b].fractions.clear();
    }
    ws_.lists.resize(n0_);  // read only for the owners it records
    ws_.state.assign(n0_, kUnsolved);
    ws_.weak.assign(n0_, 0);
    ws_.custom.assign(n0_, 0);
    ws_.device_failed.assign(n0_, 0);
    ws_.moved.clear();
    ws_.occupied.clear();
    const auto n = static_cast<std::ptrdiff_t>(n0_);
    double max_strength = 0;
    std::size_t owners = 0;
#pragma omp parallel for if (n > 500) reduction(max : max_strength) reduction(+ : owners)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      const double s = p.strength(i);
      max_strength = std::max(max_strength, s);
      owners += s != 0;
    }
    strongest_ = max_strength;
    owners_ = owners;
    const double weak = o.insert_threshold * max_strength;
#pragma omp parallel for if (n > 500)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      const double s = p.strength(i);
      if (s == 0) ws_.state[i] = kEmpty;  // nothing to redistribute
      ws_.weak[i] = s < weak;
    }
    ws_.distance.clear();
    const auto grid_start = Clock::now();
    ws_.base.rebuild(p_, radius_);
    seconds_grid_ = std::chrono::duration<double>(Clock::now() - grid_start).count();
  }

  // What the wall hooks need, then their answers: the owners' moments and the wall distances.
  void prepare_wall() {
    if (o_.prepare_wall) o_.prepare_wall(p_, dt_);
    if (o_.moments) set_targets(s2_ * h_ * h_);
    if (o_.blocked && o_.wall_distance) wall_distances(0);
  }

  // The wall distances of the particles from `first` on (exact within the reach of the widest
  // neighbourhood, 2 R).
  void wall_distances(std::size_t first) {
    const auto n = static_cast<std::ptrdiff_t>(p_.size());
    ws_.distance.resize(p_.size());
#pragma omp parallel for if (n - static_cast <std::ptrdiff_t>(first) > 500) schedule(dynamic, 256)
    for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(first); i < n; ++i)
      ws_.distance[i] =
          o_.wall_distance(static_cast<std::size_t>(i), {p_.x[i], p_.y[i], p_.z[i]}, 2 * radius_);
  }

  // The hook's moments per owner, in units of h (owners it leaves alone use free_; their entries
  // are neither written nor read, so that the array is not filled anew every call).
  void set_targets(double two_nu_dt) {
    ws_.target.resize(n0_);
    const double h2 = h_ * h_;
#pragma omp parallel for if (n0_ > 500) schedule(dynamic, 256)
    for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n0_); ++i) {
      VrmMoments m;
      if (!o_.moments(static_cast<std::size_t>(i), {p_.x[i], p_.y[i], p_.z[i]}, two_nu_dt, m))
        continue;
      for (int k = 0; k < 3; ++k) m.first[k] /= h_;
      for (int k = 0; k < 6; ++k) m.second[k] /= h2;
      ws_.target[i] = m;
      ws_.custom[i] = 1;
    }
  }

  const VrmMoments& target(std::ptrdiff_t i) const {
    return ws_.custom[i] ? ws_.target[i] : free_;
  }

  void run(VrmStats& stats) {
    auto lap = [t = Clock::now()]() mutable {
      const auto now = Clock::now();
      const double s = std::chrono::duration<double>(now - t).count();
      t = now;
      return s;
    };
    stats.seconds_grid = seconds_grid_;
    stats.strongest = strongest_;
    // The device's first round runs beside the host's work: the owners beyond the wall's reach at
    // once, beside the wall's preparation; the others it can take once the wall hooks answer,
    // beside the host's first round over the owners near the wall. The owners it gives back
    // join the host's round after it.
    const bool device = resolve_backend(o_.backend) == Backend::Cuda && owners_ > 0;
    std::optional<DeviceRound> round1;  // (its promises allocate: only with the device)
    if (device) start_device_round(round1.emplace());
    stats.device_far = device ? ws_.far_batch.owners.size() : 0;
    stats.seconds_setup += lap();
    prepare_wall();
    stats.seconds_wall = lap();
    if (device) list_near_owners(*round1);
    stats.seconds_setup += lap();
    for (int round = 0; round < o_.max_rounds; ++round) {
      stats.rounds = round + 1;
      if (round > 0 && device) later_round_on_device(stats);
      solve_round(round + 1 == o_.max_rounds, kUnsolved);
      if (round1 && round1->done.valid()) {
        stats.seconds_host_first = lap();
        round1->far_done.get();
        stats.seconds_device += lap();
        take_device_outcomes(ws_.far_batch, stats);
        solve_round(round + 1 == o_.max_rounds, kReturned);
        stats.seconds_returned += lap();
        round1->done.get();
        stats.seconds_device += lap();
        take_device_outcomes(ws_.near, stats);
        take_device_sums();
        solve_round(round + 1 == o_.max_rounds, kReturned);
        stats.seconds_returned += lap();
        stats.seconds_upload = device_seconds_[0];
        stats.seconds_solve = device_seconds_[1];
        stats.seconds_handover = device_seconds_[2];
        stats.seconds_download = device_seconds_[3];
      }
      const auto insert_start = Clock::now();
      const std::size_t added = insert_proposed();
      stats.seconds_insert += std::chrono::duration<double>(Clock::now() - insert_start).count();
      stats.inserted += added;
      if (std::none_of(ws_.state.begin(), ws_.state.end(), [](char s) { return s == kUnsolved; }))
        break;
      if (added == 0 && round + 2 < o_.max_rounds) round = o_.max_rounds - 2;  // to the last round
    }
    // The host's rounds: all but the waits for the device.
    stats.seconds_rounds = lap() + stats.seconds_host_first + stats.seconds_returned;
    reserve_alike(ws_.threads);
    redistribute(stats);
    drop_unused_insertions(stats);
    stats.seconds_redistribute = lap();
    double residual = 0, neighbors = 0;
    std::size_t solved = 0;
    for (const ThreadStore& w : ws_.threads) {
      residual = std::max(residual, w.residual);
      neighbors += w.neighbor_total;
      solved += w.solved;
    }
    stats.max_residual = residual;
    stats.mean_neighbors = solved ? neighbors / static_cast<double>(solved) : 0;
  }

 private:
  // The indices of all particles within r of (x, y, z), ascending: those of the step's start, then
  // the inserted ones (all of higher index).
  void neighbors(double x, double y, double z, double r, ThreadStore& w,
                 std::vector<int>& out) const {
    ws_.base.query(x, y, z, r, out);
    if (n_added_ == 0) return;
    ws_.added.query(x, y, z, r, w.extra);
    for (int j : w.extra) out.push_back(j + static_cast<int>(n0_));
  }

  // Solves the owners in state `which` (kUnsolved, or kReturned: those the device gave back, in
  // the same round; their proposals join the round's).
  void solve_round(bool last_round, char which) {
    const auto blocks = static_cast<std::ptrdiff_t>((n0_ + kBlock - 1) / kBlock);
    if (which == kUnsolved)
      for (std::ptrdiff_t b = 0; b < blocks; ++b) {
        ws_.blocks[b].keys.clear();
        ws_.blocks[b].proposers.clear();
      }
#pragma omp parallel if (n0_ > 500)
    {
      ThreadStore& w = ws_.threads[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 1)
      for (std::ptrdiff_t b = 0; b < blocks; ++b) {
        const std::size_t end = std::min(n0_, (b + 1) * kBlock);
        for (std::size_t i = b * kBlock; i < end; ++i) {
          if (ws_.state[i] != which) continue;
          ws_.state[i] = kUnsolved;
          solve_owner(static_cast<std::ptrdiff_t>(i), last_round, w);
        }
      }
    }
  }

  void solve_owner(std::ptrdiff_t i, bool last_round, ThreadStore& w) {
    if (take_later_device_result(i, w)) return;
    if (ws_.device_failed[i]) {  // the round's solve within R was the device's
      ws_.device_failed[i] = 0;
      gather(i, radius_, w);
    } else if (solve_within(i, radius_, w)) {
      return;
    }
    if (o_.insert && !ws_.weak[i] && !last_round) {
      propose_free_nodes(i, w);
      return;
    }
    // Out of rounds: a wider neighbourhood, without insertions.
    if (!ws_.weak[i] && solve_within(i, 2 * radius_, w)) return;
    // Weak, not inserting, or out of rounds: keep the strength, or use signed fractions.
    if (o_.signed_fallback && solve_redistribution_signed(w.offsets, w.self, target(i), w.f)) {
      record(i, w);
      ws_.state[i] = kSigned;
    } else {
      ws_.state[i] = kKept;
    }
  }

  // The device's first round in two batches of owners whose paths to their neighbours no wall can
  // block: `far`, those wall_far puts beyond the wall (or all, without a wall), listed before the
  // wall is prepared and solved beside it; `near`, the others none of whose neighbours within R
  // the wall can cut off (none within R/2 of it: every path within R then lies in a ball free of
  // the wall, blocked() below), with the moments hook's moments, listed once the wall hooks
  // answer. The device leaves out the neighbours inside the body, as blocked() does, and hands
  // the strengths of the owners it solves over to their neighbours (the sums come back per
  // particle); the owners it leaves (deferred or without a solution) go to the host's first
  // round.
  void start_device_round(DeviceRound& round) {
    if (!ws_.device) ws_.device = detail::VrmDevice::create();
    const bool wall = static_cast<bool>(o_.blocked);
    ws_.far.assign(n0_, 0);
    list_device_owners(ws_.far_batch, false, [&](std::int32_t i) {
      const bool far = !wall || (o_.wall_far && o_.wall_far({p_.x[i], p_.y[i], p_.z[i]}, dt_));
      ws_.far[i] = far;
      return far;
    });
    device_handed_over_ = true;
    // On a thread of its own: it reads the particles, the grid and the batches' lists, which the
    // host's work beside it does not change.
    round.done = std::async(std::launch::async, [this, &round] {
      try {
        device_round(round);
      } catch (...) {
        if (!round.far_signalled) round.far_promise.set_exception(std::current_exception());
        throw;
      }
    });
  }

  // A later round's owners of the far batch (those that asked for insertions) on the device, with
  // the particles inserted since as neighbours too; their lists come back, and the host records
  // the solved ones in its round (take_later_device_result) and hands them over with its own.
  // Beyond the wall's reach, as before, and so are their neighbours within R.
  void later_round_on_device(VrmStats& stats) {
    std::vector<std::int32_t>& owners = ws_.later_owners;
    collect_owners([&](std::size_t i) { return ws_.state[i] == kUnsolved && ws_.far[i]; }, owners);
    later_count_ = std::min(owners.size(), capacity_);  // the rest stay on the host
    if (later_count_ == 0) return;
    if (ws_.later_place.size() < n0_) ws_.later_place.resize(n0_, -1);
    for (std::size_t t = 0; t < later_count_; ++t)
      ws_.later_place[owners[t]] = static_cast<std::int32_t>(t);
    ws_.device->add_particles(n_added_ > 0 ? ws_.added.view() : GridView{}, p_, n0_);
    later_ = ws_.device->solve(owners.data(), later_count_, nullptr, nullptr, 0, nullptr, true);
    device_seconds_[0] += later_.seconds_upload;
    device_seconds_[1] += later_.seconds_solve;
    device_seconds_[3] += later_.seconds_download;
    std::size_t solved_count = 0;
    for (std::size_t t = 0; t < later_count_; ++t)
      solved_count += later_.outcome[t] == detail::kDeviceSolved;
    stats.device_solved += solved_count;
    stats.device_later += solved_count;
  }

  // The owners for which `take` holds, ascending, gathered per range of owners on all threads.
  template <class Take>
  void collect_owners(const Take& take, std::vector<std::int32_t>& out) {
    const int ranges = std::max(1, omp_get_max_threads());
    if (static_cast<int>(ws_.listed_parts.size()) < ranges) {
      ws_.listed_parts.resize(ranges);
      ws_.moved_parts.resize(ranges);
    }
    const std::size_t width = (n0_ + ranges - 1) / ranges;
#pragma omp parallel for schedule(static, 1) if (n0_ > 20000)
    for (int range = 0; range < ranges; ++range) {
      std::vector<std::int32_t>& part = ws_.listed_parts[range];
      part.clear();
      const std::size_t lo = range * width, hi = std::min(n0_, lo + width);
      for (std::size_t i = lo; i < hi; ++i)
        if (take(i)) part.push_back(static_cast<std::int32_t>(i));
    }
    out.clear();
    for (int range = 0; range < ranges; ++range)
      out.insert(out.end(), ws_.listed_parts[range].begin(), ws_.listed_parts[range].end());
  }

  // Owner i's solve of a later round where the device made it: recorded if solved; without a
  // solution it goes on to the insertions (device_failed); deferred, the host solves it.
  bool take_later_device_result(std::ptrdiff_t i, ThreadStore& w) {
    if (later_count_ == 0 || static_cast<std::size_t>(i) >= ws_.later_place.size()) return false;
    const std::int32_t t = ws_.later_place[i];
    if (t < 0 || static_cast<std::size_t>(t) >= later_count_ || ws_.later_owners[t] != i)
      return false;
    ws_.later_place[i] = -1;
    const std::int8_t o = later_.outcome[t];
    if (o == detail::kDeviceNoSolution) ws_.device_failed[i] = 1;
    if (o != detail::kDeviceSolved) return false;
    const std::size_t at = static_cast<std::size_t>(t) * detail::kDeviceSlots;
    record(i, later_.neighbors + at, later_.fractions + at, later_.size[t]);
    solved(i, later_.residual[t], later_.size[t], w);
    return true;
  }

  // The near batch, once the wall hooks answer; the device's thread goes on with it.
  void list_near_owners(DeviceRound& round) {
    list_device_owners(ws_.near, true,
                       [&](std::int32_t i) { return !may_block(i, 0.5 * radius_); });
    round.near_listed.set_value(true);
    round.near_signalled = true;
  }

  // The owners in state kUnsolved that `eligible` takes, in the grid's order (neighbouring owners
  // on neighbouring threads walk the same cells), marked kOnDevice; with their own moments where
  // the hook gave them (`own`). They are picked in the particles' order (eligible() reads the
  // particles where they lie), then listed in the grid's: the order is split in one range per
  // thread; each counts its owners (and their moments), then writes them at its offset.
  template <class Eligible>
  void list_device_owners(DeviceBatch& batch, bool own, const Eligible& eligible) {
    const auto n = static_cast<std::ptrdiff_t>(n0_);
#pragma omp parallel for schedule(static) if (n > 20000)
    for (std::ptrdiff_t i = 0; i < n; ++i)
      if (ws_.state[i] == kUnsolved && eligible(static_cast<std::int32_t>(i)))
        ws_.state[i] = kListed;
    const GridView grid = ws_.base.view();
    const int ranges = std::max(1, omp_get_max_threads());
    const std::size_t width = (grid.size + ranges - 1) / ranges;
    std::vector<std::size_t> at_owner(ranges + 1, 0), at_row(ranges + 1, 0);
    const auto take = [&](std::int32_t i) { return ws_.state[i] == kListed; };
#pragma omp parallel for schedule(static, 1) if (grid.size > 20000)
    for (int range = 0; range < ranges; ++range) {
      const std::size_t lo = range * width, hi = std::min(grid.size, lo + width);
      std::size_t count = 0, custom = 0;
      for (std::size_t at = lo; at < hi; ++at) {
        const std::int32_t i = grid.index[at];
        if (!take(i)) continue;
        ++count;
        custom += own && ws_.custom[i];
      }
      at_owner[range + 1] = count;
      at_row[range + 1] = custom;
    }
    for (int range = 0; range < ranges; ++range) {
      at_owner[range + 1] += at_owner[range];
      at_row[range + 1] += at_row[range];
    }
    batch.owners.resize(at_owner[ranges]);
    batch.rows.resize(own ? at_owner[ranges] : 0);
    batch.moments.resize(10 * at_row[ranges]);
#pragma omp parallel for schedule(static, 1) if (grid.size > 20000)
    for (int range = 0; range < ranges; ++range) {
      const std::size_t lo = range * width, hi = std::min(grid.size, lo + width);
      std::size_t t = at_owner[range], row = at_row[range];
      for (std::size_t at = lo; at < hi; ++at) {
        const std::int32_t i = grid.index[at];
        if (!take(i)) continue;
        ws_.state[i] = kOnDevice;
        if (own) batch.rows[t] = ws_.custom[i] ? static_cast<std::int32_t>(row) : -1;
        batch.owners[t++] = i;
        if (!own || !ws_.custom[i]) continue;
        const auto b = detail::moment_target(ws_.target[i]);
        std::copy(b.begin(), b.end(), batch.moments.begin() + 10 * row++);
      }
    }
    const std::size_t count = batch.owners.size();
    if (batch.outcome.size() < count) {  // grown only: written by the device's thread
      batch.outcome.resize(count);
      batch.size.resize(count);
      batch.residual.resize(count);
    }
  }

  // On the device's thread: the particles loaded, the far batch solved, then (once listed) the
  // near one, and the strengths of every owner solved handed over. In sessions of at most
  // kDeviceChunk owners, so that the device's lists (64 slots an owner) stay bounded: a full
  // session is handed over (its sums kept) and the particles loaded again.
  void device_round(DeviceRound& round) {
    capacity_ = std::min(owners_, kDeviceChunk);
    load_device();
    solve_on_device(ws_.far_batch, nullptr);
    round.far_signalled = true;
    round.far_promise.set_value();
    if (!round.near_ready.get()) return;  // the host gave up
    solve_on_device(ws_.near, ws_.distance.empty() ? nullptr : ws_.distance.data());
    last_sums_ = ws_.device->hand_over();
    add_device_times(last_sums_);
  }

  void load_device() {
    ws_.device->load(ws_.base.view(), p_, capacity_, radius_, h_, detail::moment_target(free_));
    held_ = 0;
  }

  void add_device_times(const detail::VrmDeviceSums& s) {
    device_seconds_[0] += s.seconds_upload;
    device_seconds_[2] += s.seconds_handover;
    device_seconds_[3] += s.seconds_download;
  }

  // A batch on the device, in pieces that fit the session; the outcomes copied to the batch.
  void solve_on_device(DeviceBatch& batch, const double* distance) {
    const std::size_t count = batch.owners.size();
    const std::size_t own_count = batch.moments.size() / 10;
    for (std::size_t begin = 0; begin < count;) {
      if (held_ == capacity_) {  // the session is full: its sums, then a new one
        const detail::VrmDeviceSums s = ws_.device->hand_over();
        add_device_times(s);
        if (!summed_) {
          ws_.device_gx.resize(n0_);
          ws_.device_gy.resize(n0_);
          ws_.device_gz.resize(n0_);
        }
        add_sums(s, !summed_, false);
        summed_ = true;
        load_device();
      }
      const std::size_t piece = std::min(count - begin, capacity_ - held_);
      const detail::VrmDeviceBatch r =
          ws_.device->solve(batch.owners.data() + begin, piece,
                            batch.rows.empty() ? nullptr : batch.rows.data() + begin,
                            batch.moments.data(), own_count, distance);
      std::copy(r.outcome, r.outcome + piece, batch.outcome.begin() + begin);
      std::copy(r.size, r.size + piece, batch.size.begin() + begin);
      std::copy(r.residual, r.residual + piece, batch.residual.begin() + begin);
      device_seconds_[0] += r.seconds_upload;
      device_seconds_[1] += r.seconds_solve;
      device_seconds_[3] += r.seconds_download;
      held_ += piece;
      begin += piece;
    }
  }

  // What the device handed over: the last session's sums where they are all (read where they
  // lie, in the device's pinned buffers), else added to the earlier sessions'.
  void take_device_sums() {
    if (summed_) add_sums(last_sums_, false, true);
    const detail::VrmDeviceSums& s = last_sums_;
    device_sum_[0] = summed_ ? ws_.device_gx.data() : s.gx;
    device_sum_[1] = summed_ ? ws_.device_gy.data() : s.gy;
    device_sum_[2] = summed_ ? ws_.device_gz.data() : s.gz;
  }

  // A session's sums, written (`first`) or added: on the device's thread serially (an earlier
  // session's), on all threads for the last.
  void add_sums(const detail::VrmDeviceSums& s, bool first, bool parallel) {
    const auto n = static_cast<std::ptrdiff_t>(n0_);
#pragma omp parallel for schedule(static) if (parallel && n > 20000)
    for (std::ptrdiff_t j = 0; j < n; ++j) {
      ws_.device_gx[j] = first ? s.gx[j] : ws_.device_gx[j] + s.gx[j];
      ws_.device_gy[j] = first ? s.gy[j] : ws_.device_gy[j] + s.gy[j];
      ws_.device_gz[j] = first ? s.gz[j] : ws_.device_gz[j] + s.gz[j];
    }
  }

  // The device's outcomes of a batch: its solved owners recorded, the others given back.
  void take_device_outcomes(const DeviceBatch& batch, VrmStats& stats) {
    const std::size_t count = batch.owners.size();
    std::size_t solved_count = 0, deferred = 0, crowded = 0, unsolved = 0;
#pragma omp parallel if (count > 500) reduction(+ : solved_count, deferred, crowded, unsolved)
    {
      ThreadStore& w = ws_.threads[omp_get_thread_num()];
#pragma omp for schedule(static)
      for (std::ptrdiff_t t = 0; t < static_cast<std::ptrdiff_t>(count); ++t) {
        const std::int32_t i = batch.owners[t];
        const std::int8_t o = batch.outcome[t];
        solved_count += o == detail::kDeviceSolved;
        deferred += o == detail::kDeviceDeferred || o == detail::kDeviceCrowded;
        crowded += o == detail::kDeviceCrowded;
        unsolved += o == detail::kDeviceNoSolution;
        if (o == detail::kDeviceNoSolution) ws_.device_failed[i] = 1;
        if (o != detail::kDeviceSolved) {
          ws_.state[i] = kReturned;
          continue;
        }
        solved(i, batch.residual[t], batch.size[t], w);
        ws_.state[i] = kHandedOver;
      }
    }
    stats.device_solved += solved_count;
    stats.device_deferred += deferred;
    stats.device_crowded += crowded;
    stats.device_unsolved += unsolved;
  }

  // Whether the wall may block a path from particle i to a point within r: not when i is farther
  // than r from it.
  bool may_block(std::ptrdiff_t i, double r) const {
    if (!o_.blocked) return false;
    return ws_.distance.empty() || !(r < ws_.distance[i] * (1 - 1e-9));
  }

  // Whether the path from particle i to particle j (j >= 0) or to the lattice node q (j < 0)
  // leaves the fluid. With the wall distances: j inside the body is; a path within a ball free of
  // the wall (around i, or around j for particles) is not; the others ask the blocked hook.
  bool blocked(std::ptrdiff_t i, std::ptrdiff_t j, const std::array<double, 3>& q) const {
    const std::array<double, 3> p{p_.x[i], p_.y[i], p_.z[i]};
    if (!ws_.distance.empty()) {
      const double ex = q[0] - p[0], ey = q[1] - p[1], ez = q[2] - p[2];
      const double length = std::sqrt(ex * ex + ey * ey + ez * ez);
      if (j >= 0) {
        if (ws_.distance[j] < 0) return true;
        if (0.5 * length < std::max(ws_.distance[i], ws_.distance[j]) * (1 - 1e-9)) return false;
      } else if (length < ws_.distance[i] * (1 - 1e-9)) {
        return false;
      }
    }
    return o_.blocked(static_cast<std::size_t>(i), p, q);
  }

  // Owner i's `count` neighbours and fractions to the storage of its block.
  void record(std::ptrdiff_t i, const int* neighbors, const double* fractions, int count) {
    Block& b = ws_.blocks[i / kBlock];
    ws_.lists[i] = {b.neighbors.size(), count};
    b.neighbors.insert(b.neighbors.end(), neighbors, neighbors + count);
    b.fractions.insert(b.fractions.end(), fractions, fractions + count);
  }
  void record(std::ptrdiff_t i, const ThreadStore& w) {
    record(i, w.found.data(), w.f.data(), static_cast<int>(w.found.size()));
  }

  // Owner i solved with non-negative fractions over `count` neighbours (recorded).
  void solved(std::ptrdiff_t i, double residual, int count, ThreadStore& w) {
    ws_.state[i] = kSolved;
    w.residual = std::max(w.residual, residual);
    w.neighbor_total += static_cast<double>(count);
    ++w.solved;
  }

  // Solves owner i on its neighbours within r (gather); on success records its fractions.
  bool solve_within(std::ptrdiff_t i, double r, ThreadStore& w) {
    gather(i, r, w);
    double res = 0;
    if (!detail::solve_redistribution(w.offsets, w.self, target(i), w.f, w.solve, &res, nullptr))
      return false;
    record(i, w);
    solved(i, res, static_cast<int>(w.found.size()), w);
    return true;
  }

  // Owner i's neighbours within r (w.within: all particles; w.found, w.offsets and w.self: those
  // the wall does not block).
  void gather(std::ptrdiff_t i, double r, ThreadStore& w) {
    neighbors(p_.x[i], p_.y[i], p_.z[i], r, w, w.within);
    w.found = w.within;
    if (may_block(i, r))
      w.found.erase(std::remove_if(w.found.begin(), w.found.end(),
                                   [&](int j) {
                                     return j != i && blocked(i, j, {p_.x[j], p_.y[j], p_.z[j]});
                                   }),
                    w.found.end());
    w.offsets.resize(w.found.size());
    w.self = -1;
    for (std::size_t k = 0; k < w.found.size(); ++k) {
      const int j = w.found[k];
      if (j == i) w.self = static_cast<int>(k);
      w.offsets[k] = {(p_.x[j] - p_.x[i]) / h_, (p_.y[j] - p_.y[i]) / h_, (p_.z[j] - p_.z[i]) / h_};
    }
  }

  // Free lattice nodes within R of particle i, as insertion proposals (after solve_within(i, R):
  // w.within holds the particles within R).
  void propose_free_nodes(std::ptrdiff_t i, ThreadStore& w) {
    const long r_cells = static_cast<long>(std::ceil(radius_ / h_));
    const long ci = std::lround(p_.x[i] / h_), cj = std::lround(p_.y[i] / h_),
               ck = std::lround(p_.z[i] / h_);
    const bool wall = may_block(i, radius_);
    Block& block = ws_.blocks[i / kBlock];
    std::vector<std::uint64_t>& keys = block.keys;
    const std::size_t first = keys.size();
    for (long di = -r_cells; di <= r_cells; ++di)
      for (long dj = -r_cells; dj <= r_cells; ++dj)
        for (long dk = -r_cells; dk <= r_cells; ++dk) {
          const double nx = (ci + di) * h_, ny = (cj + dj) * h_, nz = (ck + dk) * h_;
          const double ex = nx - p_.x[i], ey = ny - p_.y[i], ez = nz - p_.z[i];
          if (ex * ex + ey * ey + ez * ez > radius_ * radius_ * (1 - 1e-9)) continue;
          if (!node_is_free(i, nx, ny, nz, wall, w)) continue;
          keys.push_back(node_key(ci + di, cj + dj, ck + dk));
        }
    block.proposers.push_back(
        {static_cast<std::int32_t>(i), static_cast<int>(keys.size() - first), first});
  }

  // Occupied only by a particle that is also a neighbour of i (a particle near the node but outside
  // R would leave the gap open), or across the wall. The neighbours are i's list within R, so no
  // search is needed.
  bool node_is_free(std::ptrdiff_t i, double nx, double ny, double nz, bool wall,
                    const ThreadStore& w) const {
    const double hole = o_.hole_distance * h_;
    for (int j : w.within) {
      const double dx = p_.x[j] - nx, dy = p_.y[j] - ny, dz = p_.z[j] - nz;
      if (dx * dx + dy * dy + dz * dz <= hole * hole) return false;
    }
    return !(wall && blocked(i, -1, {nx, ny, nz}));
  }

  // Inserts the proposed nodes in particle order (deterministic), each once; the inserted
  // particles then get their own search.
  std::size_t insert_proposed() {
    std::size_t added = 0;
    const std::size_t blocks = (n0_ + kBlock - 1) / kBlock;
    for (std::size_t b = 0; b < blocks; ++b) {  // blocks and owners ascending: particle order
      Block& block = ws_.blocks[b];
      // A round's owners given back by the device propose after the others of their block.
      if (!std::is_sorted(block.proposers.begin(), block.proposers.end()))
        std::sort(block.proposers.begin(), block.proposers.end());
      for (const Proposal& proposal : block.proposers) {
        const std::int32_t i = proposal.owner;
        for (int k = 0; k < proposal.count; ++k) {
          const std::uint64_t key = block.keys[proposal.first + k];
          if (!ws_.occupied.insert(key)) continue;
          const long ki = static_cast<long>((key >> 42) & 0x1FFFFF) - (1l << 20);
          const long kj = static_cast<long>((key >> 21) & 0x1FFFFF) - (1l << 20);
          const long kk = static_cast<long>(key & 0x1FFFFF) - (1l << 20);
          const double sigma = o_.core_radius > 0 ? o_.core_radius : p_.sigma[i];
          p_.push_back(ki * h_, kj * h_, kk * h_, 0, 0, 0, sigma);
          ++added;
        }
      }
    }
    if (added > 0) {
      if (!ws_.distance.empty()) wall_distances(n0_ + n_added_);
      n_added_ = p_.size() - n0_;
      PointsView inserted(p_);
      inserted.x += n0_;
      inserted.y += n0_;
      inserted.z += n0_;
      inserted.n = n_added_;
      ws_.added.rebuild(inserted, radius_);
    }
    return added;
  }

  // Each owner's strength to its neighbours by its fractions (or kept), on top of what the device
  // handed over. Every receiver sums what it gets in ascending owner order, as one pass in
  // particle order would: the receivers are split
  // in ranges, one per thread, and each thread walks all owners and adds what lands in its range
  // (its share of the sums stays in its cache), so the result does not depend on the threads.
  void redistribute(VrmStats& stats) {
    std::vector<double>&gx = ws_.gx, &gy = ws_.gy, &gz = ws_.gz;
    const std::size_t n = p_.size();
    gx.resize(n);
    gy.resize(n);
    gz.resize(n);
    const bool device = device_handed_over_;  // first what the device handed over
#pragma omp parallel for if (n > 20000)
    for (std::ptrdiff_t j = 0; j < static_cast<std::ptrdiff_t>(n); ++j) {
      const bool from = device && static_cast<std::size_t>(j) < n0_;
      gx[j] = from ? device_sum_[0][j] : 0.0;
      gy[j] = from ? device_sum_[1][j] : 0.0;
      gz[j] = from ? device_sum_[2][j] : 0.0;
    }
    tally_owners(stats);
    // Every receiver sums in ascending owner order: the owners with host lists (ascending) merged
    // with those of its range that keep their strength.
    const std::vector<std::int32_t>& listed = ws_.listed;
    const int ranges = std::max(1, omp_get_max_threads());
    const std::size_t width = (n + ranges - 1) / ranges;
#pragma omp parallel for schedule(static, 1) if (n0_ > 500)
    for (int range = 0; range < ranges; ++range) {
      const std::size_t lo = range * width, hi = std::min(n, lo + width);
      if (lo >= hi) continue;
      const std::size_t own_end = std::min(hi, n0_);
      std::size_t own = lo;
      for (std::size_t a = 0;; ++a) {
        const std::size_t next = a < listed.size() ? static_cast<std::size_t>(listed[a]) : n0_;
        for (; own < own_end && own < next; ++own) {
          if (!keeps(ws_.state[own])) continue;
          gx[own] += p_.gx[own];
          gy[own] += p_.gy[own];
          gz[own] += p_.gz[own];
        }
        if (a == listed.size()) break;
        const std::size_t i = next;
        const double sx = p_.gx[i], sy = p_.gy[i], sz = p_.gz[i];
        const Span& s = ws_.lists[i];
        const int* nbr = ws_.blocks[i / kBlock].neighbors.data() + s.offset;
        const double* frac = ws_.blocks[i / kBlock].fractions.data() + s.offset;
        for (int k = 0; k < s.count; ++k) {
          const auto j = static_cast<std::size_t>(nbr[k]);
          if (j < lo || j >= hi) continue;
          const double f = frac[k];
          gx[j] += f * sx;
          gy[j] += f * sy;
          gz[j] += f * sz;
        }
      }
    }
    const std::size_t moved = ws_.moved.size();
    ws_.mx.resize(moved);
    ws_.my.resize(moved);
    ws_.mz.resize(moved);
    for (std::size_t k = 0; k < moved; ++k) {
      const std::size_t i = ws_.moved[k];
      ws_.mx[k] = p_.gx[i];
      ws_.my[k] = p_.gy[i];
      ws_.mz[k] = p_.gz[i];
    }
    p_.gx.swap(gx);
    p_.gy.swap(gy);
    p_.gz.swap(gz);
    for (std::size_t k = 0; k < moved; ++k) {
      const std::size_t i = ws_.moved[k];
      const VrmMoments& m = ws_.target[i];
      p_.push_back(p_.x[i] + m.first[0] * h_, p_.y[i] + m.first[1] * h_, p_.z[i] + m.first[2] * h_,
                   ws_.mx[k], ws_.my[k], ws_.mz[k], p_.sigma[i]);
    }
  }

  // An owner that keeps its strength (the kept, the empty): neither handed over nor moved.
  static bool keeps(char state) {
    return state != kMoved && state != kHandedOver && state != kSolved && state != kSigned;
  }

  // The owners' outcomes counted; the kept ones that drift marked kMoved (ws_.moved, ascending);
  // the owners with host lists gathered (ws_.listed, ascending). In one range of owners per
  // thread, joined in order.
  void tally_owners(VrmStats& stats) {
    const int ranges = std::max(1, omp_get_max_threads());
    if (static_cast<int>(ws_.listed_parts.size()) < ranges) {
      ws_.listed_parts.resize(ranges);
      ws_.moved_parts.resize(ranges);
    }
    const std::size_t width = (n0_ + ranges - 1) / ranges;
    std::size_t diffused = 0, signed_fallback = 0, kept = 0, moved = 0, unresolved = 0;
#pragma omp parallel for schedule(static, 1) if (n0_ > 20000) \
    reduction(+ : diffused, signed_fallback, kept, moved, unresolved)
    for (int range = 0; range < ranges; ++range) {
      std::vector<std::int32_t>& listed = ws_.listed_parts[range];
      std::vector<std::size_t>& drifted = ws_.moved_parts[range];
      listed.clear();
      drifted.clear();
      const std::size_t lo = range * width, hi = std::min(n0_, lo + width);
      for (std::size_t i = lo; i < hi; ++i) {
        const char state = ws_.state[i];
        if (state == kSolved || state == kHandedOver) {
          ++diffused;
          if (state == kSolved) listed.push_back(static_cast<std::int32_t>(i));
        } else if (state == kSigned) {
          ++signed_fallback;
          listed.push_back(static_cast<std::int32_t>(i));
        } else if (state == kKept && ws_.custom[i] && drifts(ws_.target[i])) {
          // Its strength to a new particle at the drifted position (appended below).
          ws_.state[i] = kMoved;
          drifted.push_back(i);
          ++kept;
          ++moved;
          unresolved += !ws_.weak[i];
        } else if (state != kEmpty) {
          ++kept;
          unresolved += !ws_.weak[i];
        }
      }
    }
    ws_.listed.clear();
    for (int range = 0; range < ranges; ++range) {
      ws_.listed.insert(ws_.listed.end(), ws_.listed_parts[range].begin(),
                        ws_.listed_parts[range].end());
      ws_.moved.insert(ws_.moved.end(), ws_.moved_parts[range].begin(),
                       ws_.moved_parts[range].end());
    }
    stats.diffused += diffused;
    stats.signed_fallback += signed_fallback;
    stats.kept += kept;
    stats.moved += moved;
    stats.unresolved += unresolved;
  }

  static bool drifts(const VrmMoments& m) {
    return m.first[0] != 0 || m.first[1] != 0 || m.first[2] != 0;
  }

  // Inserted particles that no solution used stay empty: drop them again.
  void drop_unused_insertions(VrmStats& stats) {
    std::size_t w = n0_;
    for (std::size_t i = n0_; i < p_.size(); ++i) {
      if (p_.gx[i] == 0 && p_.gy[i] == 0 && p_.gz[i] == 0) continue;
      p_.copy_particle(i, w++);
    }
    stats.inserted = w - n0_ - stats.moved;
    p_.resize(w);
  }

  ParticleSet& p_;
  const VrmOptions& o_;
  VrmWorkspace::Impl& ws_;
  const double h_, radius_, dt_, s2_;  // s2_: 2 nu dt / h^2
  const VrmMoments free_;              // the free-space moments, in units of h
  const std::size_t n0_;               // particles at the start of the step
  std::size_t owners_ = 0;             // of them, those with strength
  std::size_t n_added_ = 0;            // particles inserted so far (indices n0_ ...)
  double seconds_grid_ = 0;            // the set-up's grid build
  double strongest_ = 0;               // the largest |Gamma| at the start
  bool device_handed_over_ = false;    // device_sum_ holds the device's sums of this call
  const double* device_sum_[3] = {};   // per particle, what the device handed over
  // The device's thread's: a session's room for owners and how many it holds, whether an earlier
  // session's sums are in device_gx ..., the last session's sums, and the device's times (uploads,
  // solves, hand-over, downloads).
  std::size_t capacity_ = 0, held_ = 0;
  bool summed_ = false;
  detail::VrmDeviceSums last_sums_{};
  double device_seconds_[4] = {};
  // A later round's batch on the device: its owners (ws_.later_owners' first) and its results.
  std::size_t later_count_ = 0;
  detail::VrmDeviceBatch later_{};
};

}  // namespace

void validate(const VrmOptions& o) {
  if (!(o.spacing > 0) || !std::isfinite(o.spacing))
    throw std::invalid_argument("VRM: spacing h must be positive, got " +
                                std::to_string(o.spacing));
  if (!(o.radius_factor > 0)) throw std::invalid_argument("VRM: radius_factor must be positive");
  if (!(o.min_radius >= 1.0))
    throw std::invalid_argument("VRM: min_radius must be at least 1 (reach lattice neighbours)");
  if (!(o.hole_distance > 0 && o.hole_distance < 1))
    throw std::invalid_argument("VRM: hole_distance must be in (0, 1)");
  if (!(o.insert_threshold >= 0)) throw std::invalid_argument("VRM: insert_threshold must be >= 0");
  if (!(o.core_radius >= 0)) throw std::invalid_argument("VRM: core_radius must be >= 0");
  if (o.max_rounds < 1) throw std::invalid_argument("VRM: max_rounds must be >= 1");
}

double vrm_radius(const VrmOptions& o, double nu, double dt) {
  return std::max(o.radius_factor * std::sqrt(nu * dt), o.min_radius * o.spacing);
}

VrmStats vrm_diffuse(ParticleSet& p, double nu, double dt, const VrmOptions& o) {
  VrmWorkspace workspace;
  return vrm_diffuse(p, nu, dt, o, workspace);
}

VrmStats vrm_diffuse(ParticleSet& p, double nu, double dt, const VrmOptions& o,
                     VrmWorkspace& workspace) {
  validate(o);
  if (!(nu >= 0) || !(dt >= 0) || !std::isfinite(nu) || !std::isfinite(dt))
    throw std::invalid_argument("VRM: nu and dt must be finite and >= 0");
  const auto start = Clock::now();
  VrmStats stats;
  const double h = o.spacing;
  const double radius = vrm_radius(o, nu, dt);
  stats.radius = radius;
  if (nu == 0 || dt == 0 || p.size() == 0) return stats;
  VrmStep step(p, o, radius, dt, 2.0 * nu * dt / (h * h), *workspace.impl_);
  stats.seconds_setup = std::chrono::duration<double>(Clock::now() - start).count();
  step.run(stats);
  stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return stats;
}

}  // namespace vortex
