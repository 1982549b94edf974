// The VRM's rounds on the device (vrm/vrm_step.hpp): the owners listed for it in batches, its
// thread, what it gives back, the later rounds' owners.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <future>

#include <omp.h>

#include "vortex/place_in_order.hpp"
#include "vrm/vrm_step.hpp"

namespace vortex::vrm_step {

// The device's first round in two batches of owners whose paths to their neighbours no wall can
// block: `far`, those wall_far puts beyond the wall (or all, without a wall), listed before the
// wall is prepared and solved beside it; `near`, the others none of whose neighbours within R
// the wall can cut off (none within R/2 of it: every path within R then lies in a ball free of
// the wall, blocked() below), with the moments hook's moments, listed once the wall hooks
// answer. The device leaves out the neighbours inside the body, as blocked() does, and hands
// the strengths of the owners it solves over to their neighbours (the sums come back per
// particle); the owners it leaves (deferred or without a solution) go to the host's first
// round.
void VrmStep::start_device_round(DeviceRound& round) {
  if (!ws_.device) ws_.device = detail::VrmDevice::create();
  list_device_owners(ws_.far_batch, false, [&](std::int32_t i) { return beyond_wall(i); });
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
void VrmStep::later_round_on_device(VrmStats& stats) {
  const auto start = std::chrono::steady_clock::now();
  const auto charge = [&] {
    stats.seconds_later_device +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  std::vector<std::int32_t>& owners = ws_.later_owners;
  place_in_order(
      n0_,
      [&](std::size_t i) {
        return ws_.state[i] == kUnsolved && beyond_wall(static_cast<std::ptrdiff_t>(i));
      },
      [&](std::size_t count) { owners.resize(count); },
      [&](std::size_t i, std::size_t rank) {
        if (rank != kNotPicked) owners[rank] = static_cast<std::int32_t>(i);
      },
      n0_ > 20000);
  later_count_ = std::min(owners.size(), capacity_);  // the rest stay on the host
  if (later_count_ == 0) return charge();
  if (ws_.later_place.size() < n0_) ws_.later_place.resize(n0_, -1);
  for (std::size_t t = 0; t < later_count_; ++t)
    ws_.later_place[owners[t]] = static_cast<std::int32_t>(t);
  ws_.device->add_particles(n_added_ > 0 ? ws_.added.view() : GridView{}, p_, n0_);
  later_ = ws_.device->solve(owners.data(), later_count_, nullptr, nullptr, 0, nullptr, true);
  for (std::size_t k = 0; k < later_.free_count; ++k)
    keep_free_nodes(owners[later_.free_owner[k]],
                    later_.free_nodes + k * static_cast<std::size_t>(node_words_));
  device_seconds_[0] += later_.seconds_upload;
  device_seconds_[1] += later_.seconds_solve;
  device_kernels_ += later_.kernels;
  device_seconds_[3] += later_.seconds_download;
  std::size_t solved_count = 0;
  for (std::size_t t = 0; t < later_count_; ++t)
    solved_count += later_.outcome[t] == vrm::kRoundSolved;
  stats.device_solved += solved_count;
  stats.device_later += solved_count;
  charge();
}

// Whether owner i is beyond the reach of every wall hook (all are, without a wall): the far
// batch's owners, and in the later rounds those the device takes again.
bool VrmStep::beyond_wall(std::ptrdiff_t i) const {
  return !o_.blocked || (o_.wall_far && o_.wall_far({p_.x[i], p_.y[i], p_.z[i]}, dt_));
}

// Owner i's solve of a later round where the device made it: recorded if solved; without a
// solution it goes on to the insertions (device_failed); deferred, the host solves it.
bool VrmStep::take_later_device_result(std::ptrdiff_t i, ThreadStore& w) {
  if (later_count_ == 0 || static_cast<std::size_t>(i) >= ws_.later_place.size()) return false;
  const std::int32_t t = ws_.later_place[i];
  if (t < 0 || static_cast<std::size_t>(t) >= later_count_ || ws_.later_owners[t] != i)
    return false;
  ws_.later_place[i] = -1;
  const std::int8_t o = later_.outcome[t];
  if (o == vrm::kRoundNoSolution && !ws_.device_failed[i]) ws_.device_failed[i] = kFailedOnDevice;
  if (o != vrm::kRoundSolved) return false;
  const std::size_t at = static_cast<std::size_t>(t) * vrm::kRoundSlots;
  record(i, later_.neighbors + at, later_.fractions + at, later_.size[t]);
  solved(i, later_.residual[t], later_.size[t], w);
  return true;
}

// The near batch, once the wall hooks answer; the device's thread goes on with it.
void VrmStep::list_near_owners(DeviceRound& round) {
  list_device_owners(ws_.near, true, [&](std::int32_t i) { return !may_block(i, 0.5 * radius_); });
  round.near_listed.set_value(true);
  round.near_signalled = true;
}

// The owners in state kUnsolved that `eligible` takes, in the grid's order (neighbouring owners
// on neighbouring threads walk the same cells), marked kOnDevice; with their own moments where
// the hook gave them (`own`). They are picked in the particles' order (eligible() reads the
// particles where they lie), then listed in the grid's: the order is split in one range per
// thread; each counts its owners (and their moments), then writes them at its offset.
template <class Eligible>
void VrmStep::list_device_owners(DeviceBatch& batch, bool own, const Eligible& eligible) {
  const auto n = static_cast<std::ptrdiff_t>(n0_);
#pragma omp parallel for schedule(static) if (n > 20000)
  for (std::ptrdiff_t i = 0; i < n; ++i)
    if (ws_.state[i] == kUnsolved && eligible(static_cast<std::int32_t>(i))) ws_.state[i] = kListed;
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
  batch.free_owner.clear();
  batch.free_nodes.clear();
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
void VrmStep::device_round(DeviceRound& round) {
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

void VrmStep::load_device() {
  ws_.device->load(ws_.base.view(), p_, capacity_, radius_, h_, o_.hole_distance * h_,
                   detail::moment_target(free_));
  held_ = 0;
}

void VrmStep::add_device_times(const vrm::RoundHandover& s) {
  device_seconds_[0] += s.seconds_upload;
  device_seconds_[2] += s.seconds_handover;
  device_seconds_[3] += s.seconds_download;
}

// A batch on the device, in pieces that fit the session; the outcomes copied to the batch.
void VrmStep::solve_on_device(DeviceBatch& batch, const double* distance) {
  const std::size_t count = batch.owners.size();
  const std::size_t own_count = batch.moments.size() / 10;
  for (std::size_t begin = 0; begin < count;) {
    if (held_ == capacity_) {  // the session is full: its sums, then a new one
      const vrm::RoundHandover s = ws_.device->hand_over();
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
    const vrm::RoundBatchResult r =
        ws_.device->solve(batch.owners.data() + begin, piece,
                          batch.rows.empty() ? nullptr : batch.rows.data() + begin,
                          batch.moments.data(), own_count, distance);
    std::copy(r.outcome, r.outcome + piece, batch.outcome.begin() + begin);
    std::copy(r.size, r.size + piece, batch.size.begin() + begin);
    std::copy(r.residual, r.residual + piece, batch.residual.begin() + begin);
    for (std::size_t k = 0; k < r.free_count; ++k)
      batch.free_owner.push_back(static_cast<std::int32_t>(begin) + r.free_owner[k]);
    batch.free_nodes.insert(batch.free_nodes.end(), r.free_nodes,
                            r.free_nodes + r.free_count * node_words_);
    device_seconds_[0] += r.seconds_upload;
    device_seconds_[1] += r.seconds_solve;
    device_kernels_ += r.kernels;
    device_seconds_[3] += r.seconds_download;
    held_ += piece;
    begin += piece;
  }
}

// What the device handed over: the last session's sums where they are all (read where they
// lie, in the device's pinned buffers), else added to the earlier sessions'.
void VrmStep::take_device_sums() {
  if (summed_) add_sums(last_sums_, false, true);
  const vrm::RoundHandover& s = last_sums_;
  device_sum_[0] = summed_ ? ws_.device_gx.data() : s.gx;
  device_sum_[1] = summed_ ? ws_.device_gy.data() : s.gy;
  device_sum_[2] = summed_ ? ws_.device_gz.data() : s.gz;
}

// A session's sums, written (`first`) or added: on the device's thread serially (an earlier
// session's), on all threads for the last.
void VrmStep::add_sums(const vrm::RoundHandover& s, bool first, bool parallel) {
  const auto n = static_cast<std::ptrdiff_t>(n0_);
#pragma omp parallel for schedule(static) if (parallel && n > 20000)
  for (std::ptrdiff_t j = 0; j < n; ++j) {
    ws_.device_gx[j] = first ? s.gx[j] : ws_.device_gx[j] + s.gx[j];
    ws_.device_gy[j] = first ? s.gy[j] : ws_.device_gy[j] + s.gy[j];
    ws_.device_gz[j] = first ? s.gz[j] : ws_.device_gz[j] + s.gz[j];
  }
}

// The device's outcomes of a batch: its solved owners recorded, the others given back.
void VrmStep::take_device_outcomes(const DeviceBatch& batch, VrmStats& stats) {
  const std::size_t count = batch.owners.size();
  std::size_t solved_count = 0, deferred = 0, crowded = 0, unsolved = 0;
#pragma omp parallel if (count > 500) reduction(+ : solved_count, deferred, crowded, unsolved)
  {
    ThreadStore& w = ws_.threads[omp_get_thread_num()];
#pragma omp for schedule(static)
    for (std::ptrdiff_t t = 0; t < static_cast<std::ptrdiff_t>(count); ++t) {
      const std::int32_t i = batch.owners[t];
      const std::int8_t o = batch.outcome[t];
      solved_count += o == vrm::kRoundSolved;
      deferred += o == vrm::kRoundDeferred || o == vrm::kRoundCrowded;
      crowded += o == vrm::kRoundCrowded;
      unsolved += o == vrm::kRoundNoSolution;
      if (o == vrm::kRoundNoSolution) ws_.device_failed[i] = kFailedOnDevice;
      if (o != vrm::kRoundSolved) {
        ws_.state[i] = kReturned;
        continue;
      }
      solved(i, batch.residual[t], batch.size[t], w);
      ws_.state[i] = kHandedOver;
    }
  }
  for (std::size_t k = 0; k < batch.free_owner.size(); ++k)
    keep_free_nodes(batch.owners[batch.free_owner[k]],
                    batch.free_nodes.data() + k * static_cast<std::size_t>(node_words_));
  stats.device_solved += solved_count;
  stats.device_deferred += deferred;
  stats.device_crowded += crowded;
  stats.device_unsolved += unsolved;
}

// The free nodes the device found around owner i (without a solution), for its proposals.
void VrmStep::keep_free_nodes(std::int32_t i, const std::uint64_t* mask) {
  ws_.free_place[i] = static_cast<std::int32_t>(ws_.free_owner.size());
  ws_.free_owner.push_back(i);
  ws_.free_nodes.insert(ws_.free_nodes.end(), mask, mask + node_words_);
  ws_.device_failed[i] = kFreeNodesFound;
}

}  // namespace vortex::vrm_step
