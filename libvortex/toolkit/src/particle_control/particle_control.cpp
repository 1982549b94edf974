#include "vortex/particle_control.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <omp.h>

#include "particle_control/control_parts.hpp"
#include "vortex/grid_search.hpp"
#include "vortex/vrm.hpp"

namespace vortex {

namespace {

// Least-norm fractions with zeroth and first moments; false when the receivers do not span 3-D.
bool absorb_fractions(const std::vector<Eigen::Vector4d>& rows, const std::vector<double>& cost,
                      std::vector<double>& f) {
  Eigen::Matrix4d h = Eigen::Matrix4d::Zero();
  for (std::size_t q = 0; q < rows.size(); ++q)
    h.noalias() += rows[q] * rows[q].transpose() / cost[q];
  const Eigen::FullPivLU<Eigen::Matrix4d> lu(h);
  if (lu.rank() < 4) return false;
  const Eigen::Vector4d lambda = lu.solve(Eigen::Vector4d(1, 0, 0, 0));
  f.resize(rows.size());
  for (std::size_t q = 0; q < rows.size(); ++q) f[q] = rows[q].dot(lambda) / cost[q];
  return true;
}

}  // namespace

void validate(const ParticleControlOptions& o) {
  if (!(o.spacing > 0) || !std::isfinite(o.spacing))
    throw std::invalid_argument("particle control: spacing must be positive, got " +
                                std::to_string(o.spacing));
  if (!(o.remove_threshold >= 0) || o.remove_threshold >= 1)
    throw std::invalid_argument("particle control: remove_threshold must be in [0, 1)");
  if (!(o.merge_distance >= 0) || o.merge_distance >= 1)
    throw std::invalid_argument("particle control: merge_distance must be in [0, 1)");
  if (!(o.absorb_radius >= 1))
    throw std::invalid_argument("particle control: absorb_radius must be at least 1");
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

// Where a candidate's receivers and fractions lie: a block's lists, from `first`, `count` of them.
struct ListSpan {
  std::size_t block = 0, first = 0, count = 0;
  bool signed_shares = false;  // the fractions are signed (the candidate outside their hull)
};

// The scratch kept between calls.
struct Scratch {
  GridSearch search;
  std::vector<double> strength;
  std::vector<char> candidate, merge, removed;
  std::vector<std::size_t> order, spatial;
  std::vector<std::int32_t> rank;
  std::vector<std::vector<int>> receivers;  // per block of candidates in the grid's order
  std::vector<std::vector<double>> fractions;
  std::vector<ListSpan> lists;  // per candidate in `order`: where its receivers lie
};

// Keeps the first `count` inner vectors, emptied (their storage stays).
template <class T>
void clear_blocks(std::vector<std::vector<T>>& blocks, std::size_t count) {
  if (blocks.size() < count) blocks.resize(count);
  for (std::size_t b = 0; b < count; ++b) blocks[b].clear();
}

// Whether particle j ranks above particle i: stronger, or as strong and first by position (then by
// index), an order that does not depend on the particles' order but where they coincide.
bool stronger(const ParticleSet& p, const std::vector<double>& s, std::size_t j, std::size_t i) {
  if (s[j] != s[i]) return s[j] > s[i];
  if (p.x[j] != p.x[i]) return p.x[j] < p.x[i];
  if (p.y[j] != p.y[i]) return p.y[j] < p.y[i];
  if (p.z[j] != p.z[i]) return p.z[j] < p.z[i];
  return j < i;
}

// Whether the path from particle i to particle j leaves the fluid (the options' wall hook).
bool blocked(const ParticleSet& p, const ParticleControlOptions& o, std::size_t i, std::size_t j) {
  return o.blocked && o.blocked(i, {p.x[i], p.y[i], p.z[i]}, {p.x[j], p.y[j], p.z[j]});
}

// Candidates, weakest first (w.order, of the first `own` particles): weak ones, and every particle
// that has a stronger one within the merge distance, neither weak (flagged in w.merge); w.candidate
// flags them all (with parts, the copies' as their own parts decided). Each particle's merge is
// decided by its neighbours' strengths alone, not by the others' decisions, so it does not depend
// on the particles' order and is found in parallel.
void removal_order(const ParticleSet& p, double threshold, const ParticleControlOptions& o,
                   std::size_t own, const detail::ControlParts* parts, Scratch& w) {
  const std::size_t n = p.size();
  const std::vector<double>& s = w.strength;
  std::vector<char>& candidate = w.candidate;
  std::vector<char>& merge = w.merge;
  candidate.assign(n, 0);
  merge.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) candidate[i] = s[i] < threshold;
  if (o.merge_distance > 0) {
    // Per block of the grid's order (neighbouring particles one after another, so that their
    // queries read the same cells).
    const GridView grid = w.search.view();
    constexpr std::size_t kBlock = 1024;
    const auto blocks = static_cast<std::ptrdiff_t>((n + kBlock - 1) / kBlock);
#pragma omp parallel if (n > 2000)
    {
      std::vector<int> found;
#pragma omp for schedule(dynamic, 1)
      for (std::ptrdiff_t b = 0; b < blocks; ++b)
        for (std::size_t at = b * kBlock; at < std::min(n, (b + 1) * kBlock); ++at) {
          const auto i = static_cast<std::size_t>(grid.index[at]);
          if (i >= own || s[i] < threshold) continue;
          w.search.query(grid.x[at], grid.y[at], grid.z[at], o.merge_distance * o.spacing, found);
          for (int j : found)
            if (static_cast<std::size_t>(j) != i && !(s[j] < threshold) && stronger(p, s, j, i) &&
                !blocked(p, o, i, static_cast<std::size_t>(j))) {
              merge[i] = candidate[i] = 1;
              break;
            }
        }
    }
  }
  if (parts) parts->copies_candidacy(candidate);
  std::vector<std::size_t>& order = w.order;
  order.clear();
  for (std::size_t i = 0; i < own; ++i)
    if (candidate[i]) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return s[a] < s[b]; });
}

// One thread's scratch of absorb().
struct AbsorbScratch {
  std::vector<int> found;
  std::vector<Eigen::Vector4d> rows;
  std::vector<std::array<double, 3>> offsets;
  std::vector<double> cost, f;
  bool signed_shares = false;  // the last absorb's fractions are signed
};

// Signed shares whose magnitudes sum to more than this are refused: they come from receivers
// that nearly lie in a plane (or on a line) with the particle off it, and hand the receivers many
// times the particle's strength with both signs.
constexpr double kMaxSignedSum = 3;

double sum_abs(const std::vector<double>& f) {
  double s = 0;
  for (double v : f) s += std::abs(v);
  return s;
}

// The receivers of particle i's strength and their fractions, appended to `receivers` and
// `fractions`: its neighbours that are not candidates for removal and that no wall separates from
// it (within a radius doubled up to 8
// times the absorb radius), with fractions that keep the total and the
// first moment. A merge (`merging`: a particle that is not weak) takes non-negative fractions only,
// so that no receiver gains more than the particle had; a weak particle takes signed ones, bounded
// by kMaxSignedSum, where it lies outside its receivers' hull. False (and nothing appended) when
// none works.
bool absorb(const ParticleSet& p, std::size_t i, bool merging, const std::vector<char>& candidate,
            const GridSearch& search, const ParticleControlOptions& o, AbsorbScratch& w,
            std::vector<int>& receivers, std::vector<double>& fractions) {
  const double h = o.spacing;
  const std::size_t first = receivers.size();
  for (double r = o.absorb_radius * h; r <= 8 * o.absorb_radius * h; r *= 2) {
    search.query(p.x[i], p.y[i], p.z[i], r, w.found);
    receivers.resize(first);
    w.rows.clear();
    w.cost.clear();
    w.offsets.clear();
    for (int j : w.found) {
      if (candidate[j]) continue;  // i itself among them
      if (blocked(p, o, i, static_cast<std::size_t>(j))) continue;
      const double dx = (p.x[j] - p.x[i]) / h, dy = (p.y[j] - p.y[i]) / h,
                   dz = (p.z[j] - p.z[i]) / h;
      receivers.push_back(j);
      w.offsets.push_back({dx, dy, dz});
      w.rows.emplace_back(1, dx, dy, dz);
      w.cost.push_back(1 + dx * dx + dy * dy + dz * dz);
    }
    if (w.offsets.size() < 4) continue;
    // Non-negative shares where the particle lies inside its receivers' hull; otherwise (at the
    // edge of the vorticity) signed ones for a weak particle.
    w.signed_shares = !solve_first_moment_fractions(w.offsets, w.f);
    if (w.signed_shares &&
        (merging || !absorb_fractions(w.rows, w.cost, w.f) || sum_abs(w.f) > kMaxSignedSum))
      continue;
    fractions.insert(fractions.end(), w.f.begin(), w.f.end());
    return true;
  }
  receivers.resize(first);
  return false;
}

// Drops the removed particles, keeping the order of the survivors.
void compact(ParticleSet& p, const std::vector<char>& removed) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (removed[i]) continue;
    p.copy_particle(i, w++);
  }
  p.resize(w);
}

}  // namespace

struct ParticleControlWorkspace::Impl : Scratch {};

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
void find_receivers(const ParticleSet& p, const ParticleControlOptions& o, Scratch& w) {
  const std::vector<std::size_t>& order = w.order;
  const GridView grid = w.search.view();
  std::vector<std::size_t>& spatial = w.spatial;  // the candidates' ranks in `order`, grid order
  std::vector<std::int32_t>& rank = w.rank;
  rank.resize(p.size());
  for (std::size_t k = 0; k < order.size(); ++k) rank[order[k]] = static_cast<std::int32_t>(k);
  spatial.clear();
  for (std::size_t at = 0; at < grid.size; ++at)
    if (w.candidate[grid.index[at]]) spatial.push_back(rank[grid.index[at]]);
  constexpr std::size_t kBlock = 256;
  const std::size_t blocks = (spatial.size() + kBlock - 1) / kBlock;
  clear_blocks(w.receivers, blocks);
  clear_blocks(w.fractions, blocks);
  w.lists.resize(order.size());
#pragma omp parallel if (order.size() > 512)
  {
    AbsorbScratch scratch;
#pragma omp for schedule(dynamic, 1)
    for (std::ptrdiff_t b = 0; b < static_cast<std::ptrdiff_t>(blocks); ++b)
      for (std::size_t q = b * kBlock; q < std::min(spatial.size(), (b + 1) * kBlock); ++q) {
        const std::size_t k = spatial[q], before = w.receivers[b].size();
        absorb(p, order[k], w.merge[order[k]] != 0, w.candidate, w.search, o, scratch,
               w.receivers[b], w.fractions[b]);
        w.lists[k] = {static_cast<std::size_t>(b), before, w.receivers[b].size() - before,
                      scratch.signed_shares};
      }
  }
}

// The candidates that found receivers are removed (w.removed); their counts and shares.
void tally_removals(std::size_t n, Scratch& w, ParticleControlStats& stats) {
  std::vector<char>& removed = w.removed;
  removed.assign(n, 0);
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
    const double* f = w.fractions[l.block].data() + l.first;
    for (std::size_t q = 0; q < l.count; ++q)
      stats.largest_share = std::max(stats.largest_share, std::abs(f[q]));
    if (w.merge[i])
      ++stats.merged;
    else
      ++stats.removed;
  }
}

// The hand-over: the receivers are split in ranges of indices, one per thread; each thread walks
// every candidate's list in the order of `order` and adds what lands in its range, so that each
// receiver sums in that order whatever the threads (receivers are never candidates: no thread
// reads a strength another one writes).
void hand_over(ParticleSet& p, const Scratch& w) {
  const std::size_t n = p.size();
  const std::vector<std::size_t>& order = w.order;
  const int ranges = order.size() > 512 ? std::max(1, omp_get_max_threads()) : 1;
  const std::size_t width = (n + ranges - 1) / ranges;
#pragma omp parallel for schedule(static, 1) if (ranges > 1)
  for (int range = 0; range < ranges; ++range) {
    const auto lo = static_cast<int>(range * width), hi = static_cast<int>(std::min(n, lo + width));
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::size_t i = order[k];
      const ListSpan& l = w.lists[k];
      const int* to = w.receivers[l.block].data() + l.first;
      const double* f = w.fractions[l.block].data() + l.first;
      for (std::size_t q = 0; q < l.count; ++q) {
        const int j = to[q];
        if (j < lo || j >= hi) continue;
        p.gx[j] += f[q] * p.gx[i];
        p.gy[j] += f[q] * p.gy[i];
        p.gz[j] += f[q] * p.gz[i];
      }
    }
  }
}

// One call, on a whole set (parts null) or on one part of a split one.
ParticleControlStats control(ParticleSet& p, const ParticleControlOptions& o, Scratch& w,
                             const detail::ControlParts* parts) {
  validate(o);
  ParticleControlStats stats;
  const std::size_t n = p.size(), own = parts ? parts->own : n;
  if (n == 0 && !parts) return stats;
  std::vector<double>& s = w.strength;
  s.resize(n);
  double smax = 0;
  for (std::size_t i = 0; i < n; ++i) {
    s[i] = p.strength(i);
    if (i < own) smax = std::max(smax, s[i]);
  }
  if (parts) smax = parts->largest(smax);
  stats.threshold = parts ? parts->threshold(o.remove_threshold * smax, s.data(), own)
                          : removal_threshold(s, smax, o);
  // Cells of h: a merge query (radius merge_distance h < h) reads at most 27 cells, an absorb
  // query (1.5 h) at most 125.
  w.search.rebuild(p, o.spacing);
  removal_order(p, stats.threshold, o, own, parts, w);
  find_receivers(p, o, w);
  tally_removals(n, w, stats);
  if (parts) {
    // The copies' strengths make way for what they receive, which then goes home; the copies go.
    for (std::size_t j = own; j < n; ++j) {
      p.gx[j] = p.gy[j] = p.gz[j] = 0;
      w.removed[j] = 1;
    }
  }
  // The strengths are handed over in the order of `order`, so that the sums do not depend on the
  // threads.
  hand_over(p, w);
  if (parts) parts->copies_home(p);
  compact(p, w.removed);
  stats.strongest_before = smax;
  double largest = 0;
  const auto kept = static_cast<std::ptrdiff_t>(p.size());
#pragma omp parallel for if (kept > 20000) reduction(max : largest)
  for (std::ptrdiff_t i = 0; i < kept; ++i) largest = std::max(largest, p.strength(i));
  stats.strongest_after = largest;
  return stats;
}

}  // namespace

ParticleControlStats control_particles(ParticleSet& p, const ParticleControlOptions& o,
                                       ParticleControlWorkspace& workspace) {
  return control(p, o, *workspace.impl_, nullptr);
}

ParticleControlStats detail::control_particles_part(ParticleSet& p, const ParticleControlOptions& o,
                                                    ParticleControlWorkspace& workspace,
                                                    const ControlParts& parts) {
  return control(p, o, *workspace.impl_, &parts);
}

}  // namespace vortex
