// The vorticity redistribution method: one diffusion step of a particle set, with particles
// inserted at free lattice nodes where a neighbourhood has no non-negative solution. Here the
// step's set-up and its order; its parts in vrm/vrm_host_rounds.cpp, vrm/vrm_device_rounds.cpp and
// vrm/vrm_redistribute.cpp (vrm/vrm_step.hpp).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include <omp.h>

#include "solver/text_excerpt.hpp"
#include "vortex/math/vrm_nodes.hpp"
#include "vortex/solver.hpp"
#include "vortex/vrm.hpp"
#include "vrm/vrm_step.hpp"

namespace vortex {

VrmWorkspace::VrmWorkspace() : impl_(std::make_unique<Impl>()) {}
VrmWorkspace::~VrmWorkspace() = default;
VrmWorkspace::VrmWorkspace(VrmWorkspace&&) noexcept = default;
VrmWorkspace& VrmWorkspace::operator=(VrmWorkspace&&) noexcept = default;

namespace vrm_step {

VrmStep::VrmStep(ParticleSet& p, const VrmOptions& o, double radius, double dt, double s2,
                 VrmWorkspace::Impl& ws, const VrmParts* parts)
    : p_(p),
      o_(o),
      ws_(ws),
      parts_(parts),
      h_(o.spacing),
      radius_(radius),
      dt_(dt),
      s2_(s2),
      free_(free_space_moments(s2)),
      n0_(p.size()),
      node_words_(vrm::node_cube(0, 0, 0, h_, radius_).words()) {
  const int threads = std::max(1, omp_get_max_threads());
  if (static_cast<int>(ws_.threads.size()) < threads) ws_.threads.resize(threads);
  for (ThreadStore& w : ws_.threads) {
    w.residual = w.neighbor_total = 0;
    w.solved = w.proposed_from_device = 0;
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
  ws_.free_owner.clear();
  ws_.free_nodes.clear();
  ws_.free_place.resize(n0_);  // read only where written this call
  ws_.moved.clear();
  // Node sets by threads at most 255 (ProposalList::shard), as many for any later thread count.
  ws_.occupied.resize(std::min(threads, 255));
  for (NodeSet& s : ws_.occupied) s.clear();
  const auto n = static_cast<std::ptrdiff_t>(n0_);
  double max_strength = 0;
  std::size_t owners = 0;
#pragma omp parallel for if (n > 500) reduction(max : max_strength) reduction(+ : owners)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const double s = p.strength(i);
    max_strength = std::max(max_strength, s);
    owners += s != 0;
  }
  // With parts, the weak threshold is the whole set's.
  strongest_ = parts_ ? parts_->largest(max_strength) : max_strength;
  owners_ = owners;
  const double weak = o.insert_threshold * strongest_;
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
void VrmStep::prepare_wall() {
  if (o_.prepare_wall) o_.prepare_wall(p_, dt_);
  if (o_.moments) set_targets(s2_ * h_ * h_);
  if (o_.blocked && o_.wall_distance) wall_distances(0);
}

// The wall distances of the particles from `first` on (exact within the reach of the widest
// neighbourhood, 2 R).
void VrmStep::wall_distances(std::size_t first) {
  const auto n = static_cast<std::ptrdiff_t>(p_.size());
  ws_.distance.resize(p_.size());
#pragma omp parallel for if (n - static_cast <std::ptrdiff_t>(first) > 500) schedule(dynamic, 256)
  for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(first); i < n; ++i)
    ws_.distance[i] =
        o_.wall_distance(static_cast<std::size_t>(i), {p_.x[i], p_.y[i], p_.z[i]}, 2 * radius_);
}

// The hook's moments per owner, in units of h (owners it leaves alone use free_; their entries
// are neither written nor read, so that the array is not filled anew every call).
void VrmStep::set_targets(double two_nu_dt) {
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

void VrmStep::run(VrmStats& stats) {
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
      stats.device_kernels = device_kernels_;
    }
    const auto insert_start = Clock::now();
    const std::size_t added = insert_proposed();
    stats.seconds_insert += std::chrono::duration<double>(Clock::now() - insert_start).count();
    stats.inserted += added;
    const bool unsolved =
        std::any_of(ws_.state.begin(), ws_.state.end(), [](char s) { return s == kUnsolved; });
    if (!(parts_ ? parts_->any(unsolved) : unsolved)) break;
    if (added == 0 && round + 2 < o_.max_rounds) round = o_.max_rounds - 2;  // to the last round
  }
  // The host's rounds: all but the waits for the device.
  stats.seconds_rounds = lap() + stats.seconds_host_first + stats.seconds_returned;
  reserve_alike(ws_.threads);
  redistribute(stats);
  // With parts, an inserted particle may get its shares from several: they sum them first.
  if (!parts_) drop_unused_insertions(stats);
  stats.seconds_redistribute = lap();
  double residual = 0, neighbors = 0;
  std::size_t solved = 0;
  for (const ThreadStore& w : ws_.threads) {
    residual = std::max(residual, w.residual);
    neighbors += w.neighbor_total;
    solved += w.solved;
    stats.device_proposed += w.proposed_from_device;
  }
  stats.max_residual = residual;
  stats.mean_neighbors = solved ? neighbors / static_cast<double>(solved) : 0;
}

}  // namespace vrm_step

using vrm_step::Clock;
using vrm_step::VrmStep;

void validate(const VrmOptions& o) {
  if (!(o.spacing > 0) || !std::isfinite(o.spacing))
    throw std::invalid_argument("VRM: spacing h must be positive, got " +
                                detail::number_text(o.spacing));
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

namespace {

VrmStats diffuse(ParticleSet& p, double nu, double dt, const VrmOptions& o,
                 VrmWorkspace::Impl& workspace, const vrm_step::VrmParts* parts) {
  validate(o);
  if (!(nu >= 0) || !(dt >= 0) || !std::isfinite(nu) || !std::isfinite(dt))
    throw std::invalid_argument("VRM: nu and dt must be finite and >= 0");
  const auto start = Clock::now();
  VrmStats stats;
  const double h = o.spacing;
  const double radius = vrm_radius(o, nu, dt);
  stats.radius = radius;
  // A part without particles still takes part in the whole set's rounds.
  if (nu == 0 || dt == 0 || (p.size() == 0 && parts == nullptr)) return stats;
  VrmStep step(p, o, radius, dt, 2.0 * nu * dt / (h * h), workspace, parts);
  stats.seconds_setup = std::chrono::duration<double>(Clock::now() - start).count();
  step.run(stats);
  stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return stats;
}

}  // namespace

VrmStats vrm_diffuse(ParticleSet& p, double nu, double dt, const VrmOptions& o,
                     VrmWorkspace& workspace) {
  return diffuse(p, nu, dt, o, *workspace.impl_, nullptr);
}

VrmStats detail::vrm_diffuse_part(ParticleSet& p, double nu, double dt, const VrmOptions& o,
                                  VrmWorkspace& workspace, const VrmParts& parts) {
  return diffuse(p, nu, dt, o, *workspace.impl_, &parts);
}

}  // namespace vortex
