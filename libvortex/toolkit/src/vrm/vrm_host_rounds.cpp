// The VRM's rounds on the host (vrm/vrm_step.hpp): each owner's neighbours, its solve or its
// insertion proposals, the wall's tests, the insertions.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <omp.h>

#include "vortex/math/vrm_nodes.hpp"
#include "vortex/place_in_order.hpp"
#include "vrm/vrm_step.hpp"

namespace vortex::vrm_step {

// The indices of all particles within r of (x, y, z), ascending: those of the step's start, then
// the inserted ones (all of higher index).
void VrmStep::neighbors(double x, double y, double z, double r, ThreadStore& w,
                        std::vector<int>& out) const {
  ws_.base.query(x, y, z, r, out);
  if (n_added_ == 0) return;
  ws_.added.query(x, y, z, r, w.extra);
  for (int j : w.extra) out.push_back(j + static_cast<int>(n0_));
}

// Solves the owners in state `which` (kUnsolved, or kReturned: those the device gave back, in
// the same round; their proposals join the round's).
void VrmStep::solve_round(bool last_round, char which) {
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

void VrmStep::solve_owner(std::ptrdiff_t i, bool last_round, ThreadStore& w) {
  if (take_later_device_result(i, w)) return;
  const bool propose = o_.insert && !ws_.weak[i] && !last_round;
  if (const char failed = ws_.device_failed[i]) {  // the round's solve within R was the device's
    ws_.device_failed[i] = 0;
    if (failed == kFreeNodesFound && propose) {
      propose_free_nodes(
          i, w, ws_.free_nodes.data() + static_cast<std::size_t>(ws_.free_place[i]) * node_words_);
      ++w.proposed_from_device;
      return;
    }
    // What the proposals or a weak owner's signed fractions read (in the last round an owner not
    // weak gathers again within 2 R).
    if (propose || (ws_.weak[i] && o_.signed_fallback)) gather(i, radius_, w);
  } else if (solve_within(i, radius_, w)) {
    return;
  }
  if (propose) {
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

// Whether the wall may block a path from particle i to a point within r: not when i is farther
// than r from it.
bool VrmStep::may_block(std::ptrdiff_t i, double r) const {
  if (!o_.blocked) return false;
  return ws_.distance.empty() || !(r < ws_.distance[i] * (1 - 1e-9));
}

// Whether the path from particle i to particle j (j >= 0) or to the lattice node q (j < 0)
// leaves the fluid. With the wall distances: j inside the body is; a path within a ball free of
// the wall (around i, or around j for particles) is not; the others ask the blocked hook.
bool VrmStep::blocked(std::ptrdiff_t i, std::ptrdiff_t j, const std::array<double, 3>& q) const {
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
void VrmStep::record(std::ptrdiff_t i, const int* neighbors, const double* fractions, int count) {
  Block& b = ws_.blocks[i / kBlock];
  ws_.lists[i] = {b.neighbors.size(), count};
  b.neighbors.insert(b.neighbors.end(), neighbors, neighbors + count);
  b.fractions.insert(b.fractions.end(), fractions, fractions + count);
}

void VrmStep::record(std::ptrdiff_t i, const ThreadStore& w) {
  record(i, w.found.data(), w.f.data(), static_cast<int>(w.found.size()));
}

// Owner i solved with non-negative fractions over `count` neighbours (recorded).
void VrmStep::solved(std::ptrdiff_t i, double residual, int count, ThreadStore& w) {
  ws_.state[i] = kSolved;
  w.residual = std::max(w.residual, residual);
  w.neighbor_total += static_cast<double>(count);
  ++w.solved;
}

// Solves owner i on its neighbours within r (gather); on success records its fractions.
bool VrmStep::solve_within(std::ptrdiff_t i, double r, ThreadStore& w) {
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
void VrmStep::gather(std::ptrdiff_t i, double r, ThreadStore& w) {
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

// Free lattice nodes within R of particle i, as insertion proposals: those the device found (a
// mask of its cube, read in the same order), or else those of i's list within R (w.within, after
// solve_within(i, R) or gather(i, R)); the nodes across the wall are left out. The neighbours
// are i's list within R, so no search is needed: a node is taken only by a particle that is also
// a neighbour of i (a particle near the node but outside R would leave the gap open).
void VrmStep::propose_free_nodes(std::ptrdiff_t i, const ThreadStore& w,
                                 const std::uint64_t* mask) {
  const vrm::NodeCube cube = vrm::node_cube(p_.x[i], p_.y[i], p_.z[i], h_, radius_);
  const bool wall = may_block(i, radius_);
  Block& block = ws_.blocks[i / kBlock];
  const std::size_t first = block.keys.size();
  const auto take = [&](long di, long dj, long dk, double nx, double ny, double nz) {
    if (!(wall && blocked(i, -1, {nx, ny, nz})))
      block.keys.push_back(node_key(cube.ci + di, cube.cj + dj, cube.ck + dk));
  };
  if (mask != nullptr) {
    vrm::masked_nodes(cube, mask, h_, take);
  } else {
    vrm::free_nodes(
        cube, p_.x[i], p_.y[i], p_.z[i], h_, radius_, o_.hole_distance * h_,
        static_cast<int>(w.within.size()),
        [&](int q, double* at) {
          const int j = w.within[q];
          at[0] = p_.x[j];
          at[1] = p_.y[j];
          at[2] = p_.z[j];
        },
        [&](int, long di, long dj, long dk, double nx, double ny, double nz) {
          take(di, dj, dk, nx, ny, nz);
        });
  }
  block.proposers.push_back(
      {static_cast<std::int32_t>(i), static_cast<int>(block.keys.size() - first), first});
}

// The round's proposals listed in particle order (ws_.proposals), each node's first one this step
// marked, with the smallest core radius of the node's proposers this round; returns their count.
// On all threads: each node set (of the nodes node_shard gives it) taken by one thread, which
// walks the whole list for its nodes. The same for any thread count.
std::size_t VrmStep::list_proposals() {
  const std::size_t blocks = (n0_ + kBlock - 1) / kBlock;
  ProposalList& list = ws_.proposals;
  const auto nb = static_cast<std::ptrdiff_t>(blocks);
  list.block_start.resize(blocks + 1);
  list.block_start[0] = 0;
  const bool parallel = n0_ > 500;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::ptrdiff_t b = 0; b < nb; ++b) {
    Block& block = ws_.blocks[b];
    // A round's owners given back by the device propose after the others of their block.
    if (!std::is_sorted(block.proposers.begin(), block.proposers.end()))
      std::sort(block.proposers.begin(), block.proposers.end());
    list.block_start[b + 1] = block.keys.size();
  }
  for (std::size_t b = 0; b < blocks; ++b) list.block_start[b + 1] += list.block_start[b];
  const std::size_t total = list.block_start[blocks];
  if (total == 0) return 0;
  const int shards = static_cast<int>(ws_.occupied.size());
  list.keys.resize(total);
  list.owners.resize(total);
  list.shard.resize(total);
  list.first.resize(total);
  list.sigma.resize(total);
#pragma omp parallel for schedule(static) if (parallel)
  for (std::ptrdiff_t b = 0; b < nb; ++b) {
    const Block& block = ws_.blocks[b];
    std::size_t g = list.block_start[b];
    for (const Proposal& proposal : block.proposers)
      for (int k = 0; k < proposal.count; ++k, ++g) {
        const std::uint64_t key = block.keys[proposal.first + k];
        list.keys[g] = key;
        list.owners[g] = proposal.owner;
        list.shard[g] = static_cast<std::uint8_t>(node_shard(key, shards));
      }
  }
  // A node's set holds the place of its first proposal this step; one of this round (at or
  // after proposed_) takes the smallest core radius of the round's later ones.
#pragma omp parallel for schedule(dynamic, 1) if (parallel)
  for (int s = 0; s < shards; ++s) {
    NodeSet& set = ws_.occupied[s];
    for (std::size_t g = 0; g < total; ++g) {
      if (list.shard[g] != s) continue;
      const double sigma = p_.sigma[list.owners[g]];
      std::size_t held = 0;
      list.first[g] = set.insert(list.keys[g], proposed_ + g, held);
      if (list.first[g])
        list.sigma[g] = sigma;
      else if (held >= proposed_)
        list.sigma[held - proposed_] = std::min(list.sigma[held - proposed_], sigma);
    }
  }
  proposed_ += total;
  return total;
}

// Inserts the round's new nodes, each once, in the order of their first proposals
// (deterministic); the inserted particles then get their own search. Returns how many nodes are
// new (over all parts, with parts).
std::size_t VrmStep::insert_proposed() {
  const std::size_t total = list_proposals();
  const ProposalList& list = ws_.proposals;
  const std::size_t at = p_.size();
  const auto place = [&](std::size_t j, std::uint64_t key, double sigma) {
    node_position(key, h_, p_.x[j], p_.y[j], p_.z[j]);
    p_.gx[j] = p_.gy[j] = p_.gz[j] = 0;
    p_.sigma[j] = o_.core_radius > 0 ? o_.core_radius : sigma;
  };
  std::size_t added = 0;
  if (parts_ != nullptr) {
    added = merge_with_parts(total);
    p_.resize(at + list.new_keys.size());
    for (std::size_t k = 0; k < list.new_keys.size(); ++k)
      place(at + k, list.new_keys[k], list.new_sigma[k]);
  } else if (total > 0) {
    // The new particles written at their places in the order of the list (place_in_order).
    added = place_in_order(
        total, [&](std::size_t g) { return list.first[g] != 0; },
        [&](std::size_t count) { p_.resize(at + count); },
        [&](std::size_t g, std::size_t rank) {
          if (rank != kNotPicked) place(at + rank, list.keys[g], list.sigma[g]);
        },
        n0_ > 500);
  }
  if (p_.size() == at) return added;
  if (!ws_.distance.empty()) wall_distances(n0_ + n_added_);
  n_added_ = p_.size() - n0_;
  PointsView inserted(p_);
  inserted.x += n0_;
  inserted.y += n0_;
  inserted.z += n0_;
  inserted.n = n_added_;
  ws_.added.rebuild(inserted, radius_);
  return added;
}

// This part's new nodes of the round (its first proposals) merged with the other parts': the
// nodes to insert here in list.new_keys and new_sigma; returns the count of all parts' new nodes.
std::size_t VrmStep::merge_with_parts(std::size_t total) {
  ProposalList& list = ws_.proposals;
  list.new_keys.clear();
  list.new_sigma.clear();
  for (std::size_t g = 0; g < total; ++g)
    if (list.first[g]) {
      list.new_keys.push_back(list.keys[g]);
      list.new_sigma.push_back(list.sigma[g]);
    }
  return parts_->merge(list.new_keys, list.new_sigma);
}

}  // namespace vortex::vrm_step
