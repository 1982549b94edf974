#include "particle_control/absorb.hpp"

#include <cmath>

#include "vortex/vrm.hpp"

namespace vortex::detail {

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

// Signed shares whose magnitudes sum to more than this are refused: they come from receivers
// that nearly lie in a plane (or on a line) with the particle off it, and hand the receivers many
// times the particle's strength with both signs.
constexpr double kMaxSignedSum = 3;

double sum_abs(const std::vector<double>& f) {
  double s = 0;
  for (double v : f) s += std::abs(v);
  return s;
}

}  // namespace

// Receivers within a radius doubled while too few answer; non-negative shares where the particle
// lies inside their hull, else signed ones for a weak particle (bounded by kMaxSignedSum).
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

}  // namespace vortex::detail
