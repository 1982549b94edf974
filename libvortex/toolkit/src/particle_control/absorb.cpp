#include "particle_control/absorb.hpp"

#include "vortex/math/control_shares.hpp"
#include "vrm/vrm_dual.hpp"

namespace vortex::detail {

// Receivers within a radius doubled while too few answer, found by the grid search in ascending
// index and kept where no wall lies between; their fractions by the shared control::find_shares.
bool absorb(const ParticleSet& p, std::size_t i, bool merging, const std::vector<char>& candidate,
            const GridSearch& search, const ParticleControlOptions& o, AbsorbScratch& w,
            std::vector<int>& receivers, std::vector<double>& fractions) {
  const double h = o.spacing;
  const std::size_t first = receivers.size();
  const auto collect = [&](double r, control::ShareArrays& a) {
    search.query(p.x[i], p.y[i], p.z[i], r, w.found);
    receivers.resize(first);
    w.offsets.clear();
    for (int j : w.found) {
      if (candidate[j]) continue;  // i itself among them
      if (blocked(p, o, i, static_cast<std::size_t>(j), w.wall)) continue;
      receivers.push_back(j);
      w.offsets.push_back((p.x[j] - p.x[i]) / h);
      w.offsets.push_back((p.y[j] - p.y[i]) / h);
      w.offsets.push_back((p.z[j] - p.z[i]) / h);
    }
    const std::size_t m = receivers.size() - first;
    for (std::vector<double>* v : {&w.f, &w.inv_c, &w.dots, &w.trial_dots}) v->resize(m);
    a = {w.offsets.data(), w.f.data(), w.inv_c.data(), w.dots.data(), w.trial_dots.data()};
    return static_cast<int>(m);
  };
  HostFallback<4> fallback;
  int m = 0;
  if (control::find_shares(o.absorb_radius * h, merging, collect, fallback, m, w.signed_shares) !=
      control::Shares::found) {
    receivers.resize(first);
    return false;
  }
  fractions.insert(fractions.end(), w.f.begin(), w.f.begin() + m);
  return true;
}

}  // namespace vortex::detail
