#include "vortex/particle_control.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <omp.h>

#include "particle_control/absorb.hpp"
#include "particle_control/compact.hpp"
#include "particle_control/control_device_pass.hpp"
#include "particle_control/control_parts.hpp"
#include "particle_control/control_scratch.hpp"
#include "particle_control/merge_partner.hpp"
#include "solver/text_excerpt.hpp"
#include "vortex/fixed_pieces.hpp"
#include "vortex/grid_search.hpp"
#include "vortex/math/control_shares.hpp"

namespace vortex {

void validate(const ParticleControlOptions& o) {
  if (!(o.spacing > 0) || !std::isfinite(o.spacing))
    throw std::invalid_argument("particle control: spacing must be positive, got " +
                                detail::number_text(o.spacing));
  if (!(o.remove_threshold >= 0) || o.remove_threshold >= 1)
    throw std::invalid_argument("particle control: remove_threshold must be in [0, 1)");
  if (!(o.merge_distance >= 0) || o.merge_distance >= 1)
    throw std::invalid_argument("particle control: merge_distance must be in [0, 1)");
  if (!(o.absorb_radius >= 1))
    throw std::invalid_argument("particle control: absorb_radius must be at least 1");
  // Enumerations cast from integers can hold values outside their lists.
  if (to_string(o.backend) == "?")
    throw std::invalid_argument("particle control: backend " +
                                std::to_string(static_cast<int>(o.backend)) +
                                " is not a Backend value");
  if (o.merge_into != MergeInto::Neighbours && o.merge_into != MergeInto::Partner)
    throw std::invalid_argument("particle control: merge_into " +
                                std::to_string(static_cast<int>(o.merge_into)) +
                                " is not a MergeInto value");
}

namespace {

// The strength below which particles go: the relative threshold, raised to remove the excess over
// max_particles (everything up to and including the excess-th weakest).
double removal_threshold(const std::vector<double>& s, double smax,
                         const ParticleControlOptions& o) {
  double threshold = o.remove_threshold * smax;
  const std::size_t n = s.size();
  if (o.max_particles > 0 && n > o.max_particles) {
    std::vector<double> sorted = s;
    const std::size_t excess = n - o.max_particles;
    std::nth_element(sorted.begin(), sorted.begin() + (excess - 1), sorted.end());
    threshold = std::max(threshold, std::nextafter(sorted[excess - 1], HUGE_VAL));
  }
  return threshold;
}

using detail::ControlScratch;
using detail::ListSpan;

// Keeps the first `count` inner vectors, emptied (their storage stays).
template <class T>
void clear_blocks(std::vector<std::vector<T>>& blocks, std::size_t count) {
  if (blocks.size() < count) blocks.resize(count);
  for (std::size_t b = 0; b < count; ++b) blocks[b].clear();
}

// Whether particle j ranks above particle i (control::stronger).
bool stronger(const ParticleSet& p, const std::vector<double>& s, std::size_t j, std::size_t i) {
  const double xj[3] = {p.x[j], p.y[j], p.z[j]}, xi[3] = {p.x[i], p.y[i], p.z[i]};
  return control::stronger(s[j], xj, static_cast<int>(j), s[i], xi, static_cast<int>(i));
}

// Candidates, weakest first (w.order, of the first `own` particles): weak ones, and every particle
// that has a stronger one within the merge distance, neither weak (flagged in w.merge); w.candidate
// flags them all (with parts, the copies' as their own parts decided). Each particle's merge is
// decided by its neighbours' strengths alone, not by the others' decisions, so it does not depend
// on the particles' order and is found in parallel.
void removal_order(const ParticleSet& p, double threshold, const ParticleControlOptions& o,
                   std::size_t own, const detail::ControlParts* parts, ControlScratch& w,
                   ParticleControlStats& stats) {
  const std::size_t n = p.size();
  const std::vector<double>& s = w.strength;
  std::vector<char>& candidate = w.candidate;
  std::vector<char>& merge = w.merge;
  candidate.resize(n);
  merge.resize(n);
  const auto count_all = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static) if (count_all > 100000)
  for (std::ptrdiff_t i = 0; i < count_all; ++i) {
    candidate[i] = s[i] < threshold;
    merge[i] = 0;
  }
  if (o.merge_distance > 0) {
    // On the device, all but the particles near a wall; on the host those, or per block of the
    // grid's order (neighbouring particles one after another, so that their queries read the same
    // cells).
    if (w.on_device) detail::device_merges(p, o, w, stats);
    const WallNearby* wall = w.on_device ? &w.wall : nullptr;  // its distances, where known
    const GridView grid = w.search.view();
    const std::size_t count = w.on_device ? w.host_merges.size() : n;
    constexpr std::size_t kBlock = 1024;
    const auto blocks = static_cast<std::ptrdiff_t>((count + kBlock - 1) / kBlock);
#pragma omp parallel if (count > 2000)
    {
      std::vector<int> found;
#pragma omp for schedule(dynamic, 1)
      for (std::ptrdiff_t b = 0; b < blocks; ++b)
        for (std::size_t at = b * kBlock; at < std::min(count, (b + 1) * kBlock); ++at) {
          const auto i = w.on_device ? w.host_merges[at] : static_cast<std::size_t>(grid.index[at]);
          if (i >= own || s[i] < threshold) continue;
          w.search.query(p.x[i], p.y[i], p.z[i], o.merge_distance * o.spacing, found);
          for (int j : found)
            if (static_cast<std::size_t>(j) != i && !(s[j] < threshold) && stronger(p, s, j, i) &&
                !detail::blocked(p, o, i, static_cast<std::size_t>(j), wall)) {
              merge[i] = candidate[i] = 1;
              break;
            }
        }
    }
  }
  if (parts) parts->copies_candidacy(candidate);
  std::vector<std::size_t>& order = w.order;
  order.clear();
  select_in_order(
      own, [&](std::size_t i) { return candidate[i] != 0; }, order);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return s[a] < s[b]; });
}

}  // namespace

struct ParticleControlWorkspace::Impl : ControlScratch {};

ParticleControlWorkspace::ParticleControlWorkspace() : impl_(std::make_unique<Impl>()) {}
ParticleControlWorkspace::~ParticleControlWorkspace() = default;
ParticleControlWorkspace::ParticleControlWorkspace(ParticleControlWorkspace&&) noexcept = default;
ParticleControlWorkspace& ParticleControlWorkspace::operator=(ParticleControlWorkspace&&) noexcept =
    default;

ParticleControlStats control_particles(ParticleSet& p, const ParticleControlOptions& o) {
  ParticleControlWorkspace workspace;
  return control_particles(p, o, workspace);
}

namespace {

// Each candidate's receivers and fractions (lists, per rank in w.order). Candidates give their
// strength only to particles that stay, so no candidate's strength changes and each one's
// receivers and fractions are found on its own, in parallel and in the grid's order (neighbouring
// candidates one after another read the same cells; blocks of them keep their lists, whichever
// thread took them).
void find_receivers(const ParticleSet& p, const ParticleControlOptions& o, ControlScratch& w,
                    ParticleControlStats& stats) {
  const std::vector<std::size_t>& order = w.order;
  const GridView grid = w.search.view();
  std::vector<std::size_t>& spatial = w.spatial;  // the candidates' places in the grid, in order
  std::vector<std::int32_t>& rank = w.rank;
  rank.resize(p.size());
  const auto n = static_cast<std::ptrdiff_t>(p.size());
#pragma omp parallel for schedule(static) if (n > 100000)
  for (std::ptrdiff_t i = 0; i < n; ++i) rank[i] = -1;  // not this call's (a split set's copies)
  for (std::size_t k = 0; k < order.size(); ++k) rank[order[k]] = static_cast<std::int32_t>(k);
  spatial.clear();
  select_in_order(
      grid.size, [&](std::size_t at) { return rank[grid.index[at]] >= 0; }, spatial);
  w.lists.resize(order.size());
  // The device's candidates first; the host takes the rest (positions in `spatial`).
  std::vector<std::size_t>& host = w.host_shares;
  if (w.on_device) detail::device_shares(o, w, host, stats);
  const std::size_t count = w.on_device ? host.size() : spatial.size();
  // Blocks small enough that the few thousand costly candidates the device leaves (each with tens
  // of wall tests or hundreds of receivers) spread over all threads.
  constexpr std::size_t kBlock = 32;
  const std::size_t blocks = (count + kBlock - 1) / kBlock;
  clear_blocks(w.receivers, blocks);
  clear_blocks(w.fractions, blocks);
  double seconds_wall = 0, seconds_crowded = 0, seconds_other = 0;
#pragma omp parallel if (count > 512) reduction(+ : seconds_wall, seconds_crowded, seconds_other)
  {
    detail::AbsorbScratch scratch;
    scratch.wall = w.on_device ? &w.wall : nullptr;  // the wall's distances, where known
    auto clock = std::chrono::steady_clock::now();
    const auto charge = [&](std::size_t q) {  // the candidate's time, by why the host took it
      const auto now = std::chrono::steady_clock::now();
      const double s = std::chrono::duration<double>(now - clock).count();
      clock = now;
      const int left =
          w.on_device ? static_cast<int>(w.left[q]) : static_cast<int>(control::kNotLeft);
      (left == control::kWall      ? seconds_wall
       : left == control::kCrowded ? seconds_crowded
                                   : seconds_other) += s;
    };
#pragma omp for schedule(dynamic, 1)
    for (std::ptrdiff_t b = 0; b < static_cast<std::ptrdiff_t>(blocks); ++b)
      for (std::size_t t = b * kBlock; t < std::min(count, (b + 1) * kBlock); ++t) {
        const std::size_t q = w.on_device ? host[t] : t;
        clock = std::chrono::steady_clock::now();
        const auto i = static_cast<std::size_t>(grid.index[spatial[q]]);
        const std::size_t k = rank[i], before = w.receivers[b].size();
        if (w.merge[i] && o.merge_into == MergeInto::Partner) {
          const int j =
              detail::merge_partner(p, i, w.candidate, w.search, o, scratch.wall, scratch.found);
          if (j >= 0) {
            w.receivers[b].push_back(j);
            w.fractions[b].push_back(1.0);
            w.lists[k] = {static_cast<std::size_t>(b), before, 1, false, true};
            charge(q);
            continue;
          }
        }
        detail::absorb(p, i, w.merge[i] != 0, w.candidate, w.search, o, scratch, w.receivers[b],
                       w.fractions[b]);
        w.lists[k] = {static_cast<std::size_t>(b), before, w.receivers[b].size() - before,
                      scratch.signed_shares};
        charge(q);
      }
  }
  stats.thread_seconds_host_wall = seconds_wall;
  stats.thread_seconds_host_crowded = seconds_crowded;
  stats.thread_seconds_host_other = seconds_other;
}

// The candidates that found receivers are removed (w.removed); their counts and shares.
void tally_removals(std::size_t n, ControlScratch& w, ParticleControlStats& stats) {
  std::vector<char>& removed = w.removed;
  removed.resize(n);
  std::fill(removed.begin(), removed.end(), 0);
  for (std::size_t k = 0; k < w.order.size(); ++k) {
    const std::size_t i = w.order[k];
    const ListSpan& l = w.lists[k];
    if (l.count == 0) {
      ++stats.kept;
      continue;
    }
    removed[i] = 1;
    stats.removed_strength += w.strength[i];
    stats.signed_shares += l.signed_shares;
    const double* f = w.fractions_of(l);
    for (std::size_t q = 0; q < l.count; ++q)
      stats.largest_share = std::max(stats.largest_share, std::abs(f[q]));
    stats.partner_merges += l.partner;
    if (w.merge[i])
      ++stats.merged;
    else
      ++stats.removed;
  }
}

// The hand-over: the receivers are split in ranges of indices, one per thread; each thread walks
// every candidate's list in the order of `order` and adds what lands in its range, so that each
// receiver sums in that order whatever the threads (receivers are never candidates: no thread
// reads a strength another one writes). A partner also sums the merged |Gamma| and positions.
void hand_over(ParticleSet& p, ControlScratch& w, bool partners) {
  const std::size_t n = p.size();
  w.moments.assign(partners ? n : 0, detail::MergeMoments{});
  const std::vector<std::size_t>& order = w.order;
  const int ranges = order.size() > 512 ? std::max(1, omp_get_max_threads()) : 1;
  const std::size_t width = (n + ranges - 1) / ranges;
#pragma omp parallel for schedule(static, 1) if (ranges > 1)
  for (int range = 0; range < ranges; ++range) {
    const auto lo = static_cast<int>(range * width), hi = static_cast<int>(std::min(n, lo + width));
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::size_t i = order[k];
      const ListSpan& l = w.lists[k];
      const int* to = w.receivers_of(l);
      const double* f = w.fractions_of(l);
      for (std::size_t q = 0; q < l.count; ++q) {
        const int j = to[q];
        if (j < lo || j >= hi) continue;
        p.gx[j] += f[q] * p.gx[i];
        p.gy[j] += f[q] * p.gy[i];
        p.gz[j] += f[q] * p.gz[i];
        if (l.partner) {
          const double s = w.strength[i];
          detail::MergeMoments& m = w.moments[j];
          m[0] += s;
          m[1] += s * (p.x[i] - p.x[j]);  // offsets from the partner: rounding of h, not of x
          m[2] += s * (p.y[i] - p.y[j]);
          m[3] += s * (p.z[i] - p.z[j]);
        }
      }
    }
  }
}

double seconds_since(std::chrono::steady_clock::time_point& start) {
  const auto now = std::chrono::steady_clock::now();
  const double s = std::chrono::duration<double>(now - start).count();
  start = now;
  return s;
}

// One call, on a whole set (parts null) or on one part of a split one.
ParticleControlStats run_control(ParticleSet& p, const ParticleControlOptions& o, ControlScratch& w,
                                 const detail::ControlParts* parts) {
  validate(o);
  ParticleControlStats stats;
  auto clock = std::chrono::steady_clock::now();
  const std::size_t n = p.size(), own = parts ? parts->own : n;
  if (n == 0 && !parts) return stats;
  std::vector<double>& s = w.strength;
  s.resize(n);
  double smax = 0;
  const auto count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for if (count > 20000) reduction(max : smax)
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    s[i] = p.strength(static_cast<std::size_t>(i));
    if (static_cast<std::size_t>(i) < own) smax = std::max(smax, s[i]);
  }
  if (parts) smax = parts->largest(smax);
  stats.threshold = parts ? parts->threshold(o.remove_threshold * smax, s.data(), own)
                          : removal_threshold(s, smax, o);
  // Cells of h: a merge query (radius merge_distance h < h) reads at most 27 cells, an absorb
  // query (1.5 h) at most 125.
  w.search.rebuild(p, o.spacing);
  detail::load_device(p, o, stats.threshold, parts, w, stats);
  stats.seconds_grid = seconds_since(clock);
  removal_order(p, stats.threshold, o, own, parts, w, stats);
  stats.seconds_candidates = seconds_since(clock);
  find_receivers(p, o, w, stats);
  tally_removals(n, w, stats);
  stats.seconds_receivers = seconds_since(clock);
  if (parts) {
    // The copies' strengths make way for what they receive, which then goes home; the copies go.
    for (std::size_t j = own; j < n; ++j) {
      p.gx[j] = p.gy[j] = p.gz[j] = 0;
      w.removed[j] = 1;
    }
  }
  // The strengths are handed over in the order of `order`, so that the sums do not depend on the
  // threads.
  const bool partners = o.merge_distance > 0 && o.merge_into == MergeInto::Partner;
  hand_over(p, w, partners);
  if (parts) parts->copies_home(p, w.moments);
  if (partners) detail::move_partners(p, w.strength, w.moments, own, o);
  stats.seconds_hand_over = seconds_since(clock);
  // The grid lists every particle of the call (its copies too: those go).
  const bool spatial = o.spatial_order && !parts;
  detail::compact(p, w.removed, spatial ? w.search.view().index : nullptr, w.compacted);
  stats.strongest_before = smax;
  double largest = 0;
  const auto kept = static_cast<std::ptrdiff_t>(p.size());
#pragma omp parallel for if (kept > 20000) reduction(max : largest)
  for (std::ptrdiff_t i = 0; i < kept; ++i) largest = std::max(largest, p.strength(i));
  stats.strongest_after = largest;
  stats.seconds_compact = seconds_since(clock);
  return stats;
}

}  // namespace

ParticleControlStats control_particles(ParticleSet& p, const ParticleControlOptions& o,
                                       ParticleControlWorkspace& workspace) {
  return run_control(p, o, *workspace.impl_, nullptr);
}

ParticleControlStats detail::control_particles_part(ParticleSet& p, const ParticleControlOptions& o,
                                                    ParticleControlWorkspace& workspace,
                                                    const ControlParts& parts) {
  return run_control(p, o, *workspace.impl_, &parts);
}

}  // namespace vortex
