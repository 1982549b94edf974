#include "particle_control/control_device_pass.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "vortex/fixed_pieces.hpp"
#include "vortex/solver.hpp"

namespace vortex::detail {

namespace {

constexpr std::size_t kDeviceMinimum = 20000;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

void load_device(const ParticleSet& p, const ParticleControlOptions& o, double threshold,
                 const ControlParts* parts, ControlScratch& w, ParticleControlStats& stats) {
  const std::size_t n = p.size();
  w.on_device = false;
  if (parts != nullptr || resolve_backend(o.backend) != Backend::Cuda) return;
  if (n <= kDeviceMinimum || (o.blocked && !o.wall_nearby)) return;
  if (!w.device) w.device = ControlDevice::create();
  if (!w.device) return;
  const GridView g = w.search.view();
  const auto count = static_cast<std::ptrdiff_t>(n);
  w.sorted_strength.resize(n);
#pragma omp parallel for
  for (std::ptrdiff_t at = 0; at < count; ++at) w.sorted_strength[at] = w.strength[g.index[at]];
  const WallNearby* wall = nullptr;
  if (o.blocked) {
    // Far enough for the merges and the first two radii of the receivers' search.
    const double reach = std::max(o.merge_distance, 2 * o.absorb_radius) * o.spacing;
    const auto wall_start = std::chrono::steady_clock::now();
    WallNearby& a = w.wall;
    a.distance.clear();
    a.plane.clear();
    a.planes.clear();
    a.solid = false;
    o.wall_nearby(p, reach, a);
    stats.seconds_wall = seconds_since(wall_start);
    if (a.distance.size() != n || (!a.plane.empty() && a.plane.size() != n))
      throw std::invalid_argument("particle control: wall_nearby gave " +
                                  std::to_string(a.distance.size()) + " distances and " +
                                  std::to_string(a.plane.size()) + " planes for " +
                                  std::to_string(n) + " particles");
    WallNearby& b = w.sorted_wall;
    b.distance.resize(n);
    b.plane.resize(n);
    const bool planes = !a.plane.empty();
    const auto rows = static_cast<std::int32_t>(a.planes.size());
    bool bad_row = false;
#pragma omp parallel for reduction(|| : bad_row)
    for (std::ptrdiff_t at = 0; at < count; ++at) {
      const std::int32_t i = g.index[at];
      b.distance[at] = a.distance[i];
      b.plane[at] = planes ? a.plane[i] : -1;
      bad_row = bad_row || b.plane[at] >= rows;
    }
    if (bad_row)
      throw std::invalid_argument("particle control: wall_nearby named a plane it did not give");
    wall = &b;
    b.body_scale = a.body_scale;
    b.solid = a.solid;
    // The planes stay in the hook's rows.
    b.planes.swap(a.planes);
  }
  const auto start = std::chrono::steady_clock::now();
  w.device->load(g, w.sorted_strength.data(), threshold, o.spacing, wall);
  stats.seconds_device += seconds_since(start);
  w.on_device = true;
}

void device_merges(const ParticleSet& p, const ParticleControlOptions& o, ControlScratch& w,
                   ParticleControlStats& stats) {
  const std::size_t n = p.size();
  w.merge_flags.resize(n);
  const auto start = std::chrono::steady_clock::now();
  w.device->merge_flags(o.merge_distance * o.spacing, w.merge_flags.data());
  stats.seconds_device += seconds_since(start);
  const GridView g = w.search.view();
  const auto places = static_cast<std::ptrdiff_t>(n);
  std::size_t merges = 0;
#pragma omp parallel for schedule(static) if (places > 100000) reduction(+ : merges)
  for (std::ptrdiff_t at = 0; at < places; ++at) {
    if (w.merge_flags[at] != control::kMerge) continue;
    const auto i = static_cast<std::size_t>(g.index[at]);  // one place a particle: no two write i
    w.merge[i] = w.candidate[i] = 1;
    ++merges;
  }
  stats.device_merges += merges;
  std::vector<std::size_t>& host = w.host_merges;  // places first, then their particles
  host.clear();
  select_in_order(
      n, [&](std::size_t at) { return w.merge_flags[at] == control::kMergeOnHost; }, host);
  for (std::size_t& at : host) at = static_cast<std::size_t>(g.index[at]);
  stats.host_merges = host.size();
}

void device_shares(const ParticleControlOptions& o, ControlScratch& w,
                   std::vector<std::size_t>& host, ParticleControlStats& stats) {
  const GridView g = w.search.view();
  const std::size_t n = g.size;
  // The candidates by place, and the places of those the device takes (a merge into one partner
  // stays on the host).
  w.candidate_places.resize(n);
  const auto places = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t at = 0; at < places; ++at)
    w.candidate_places[at] = w.candidate[g.index[at]] != 0;
  const bool partners = o.merge_into == MergeInto::Partner;
  w.places.clear();
  w.merging.clear();
  host.clear();
  std::vector<std::size_t>& taken = w.device_taken;
  taken.clear();
  w.left.assign(w.spatial.size(), control::kNotLeft);
  for (std::size_t q = 0; q < w.spatial.size(); ++q) {
    const std::size_t at = w.spatial[q], i = static_cast<std::size_t>(g.index[at]);
    if (partners && w.merge[i]) {
      host.push_back(q);
      continue;
    }
    w.places.push_back(static_cast<std::int32_t>(at));
    w.merging.push_back(w.merge[i] != 0);
    taken.push_back(q);
  }
  w.shares.resize(w.places.size());
  const auto start = std::chrono::steady_clock::now();
  w.device->shares(w.places.data(), w.merging.data(), w.places.size(), w.candidate_places.data(),
                   o.absorb_radius * o.spacing, w.shares.data(), w.device_receivers,
                   w.device_fractions);
  stats.seconds_device += seconds_since(start);
  for (std::size_t k = 0; k < taken.size(); ++k) {
    const control::DeviceShares& s = w.shares[k];
    const std::size_t q = taken[k];
    if (s.count < 0) {
      host.push_back(q);
      w.left[q] = static_cast<std::int8_t>(s.left);
      stats.host_shares_wall += s.left == control::kWall;
      stats.host_shares_crowded += s.left == control::kCrowded;
      stats.host_shares_solve += s.left == control::kSolve;
      continue;
    }
    w.lists[w.rank[g.index[w.spatial[q]]]] = {kDeviceBlock, static_cast<std::size_t>(s.first),
                                              static_cast<std::size_t>(s.count),
                                              s.signed_shares != 0, false};
    ++stats.device_shares;
  }
  std::sort(host.begin(), host.end());
  stats.host_shares = host.size();
}

}  // namespace vortex::detail
