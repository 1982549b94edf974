#include "vortex/bodies/near_wall.hpp"

#include <algorithm>
#include <stdexcept>

#include "vortex/neighbor_search.hpp"
#include "vortex/solver.hpp"
#include "wall/near_wall_cuda.hpp"

namespace vortex::bodies {

void NearWallParticles::clear() {
  for (auto* v : {&x, &y, &z, &gx, &gy, &gz, &inv_sigma, &reach}) v->clear();
}

void NearWallParticles::push_back(const Vec3& at, const Vec3& strength, double inv_s, double r) {
  x.push_back(at.x);
  y.push_back(at.y);
  z.push_back(at.z);
  gx.push_back(strength.x);
  gy.push_back(strength.y);
  gz.push_back(strength.z);
  inv_sigma.push_back(inv_s);
  reach.push_back(r);
}

NearWallSums::NearWallSums(const Surface& surface, const TriangleRule& rule, Backend backend)
    : surface_(&surface), rule_(&rule) {
  for (const auto& b : rule.bary) bary_.insert(bary_.end(), b.begin(), b.end());
  if (resolve_backend(backend) != Backend::Cuda) return;
  device_ = detail::NearWallDevice::create(surface, rule_view());
  if (!device_)
    throw std::runtime_error(
        "near-wall sums: backend 'cuda' was requested but this build has no CUDA support");
}

RuleView NearWallSums::rule_view() const {
  return {reinterpret_cast<const double(*)[3]>(bary_.data()), rule_->weight.data(),
          static_cast<int>(rule_->size())};
}

NearWallSums::~NearWallSums() = default;
NearWallSums::NearWallSums(NearWallSums&&) noexcept = default;
NearWallSums& NearWallSums::operator=(NearWallSums&&) noexcept = default;

void NearWallSums::compute(Core core, const NearWallParticles& particles, std::vector<Vec3>& out) {
  out.assign(surface_->size(), Vec3{});
  if (particles.size() == 0) return;
  if (device_)
    device_->compute(core, particles, surface_->max_diameter, out);
  else
    compute_cpu(core, particles, out);
}

// Gathered panel by panel over the particles in ascending order: the sums do not depend on the
// threads, and no pair is stored.
void NearWallSums::compute_cpu(Core core, const NearWallParticles& p,
                               std::vector<Vec3>& out) const {
  const Surface& surface = *surface_;
  const RuleView rule = rule_view();
  PointsView at;
  at.x = p.x.data();
  at.y = p.y.data();
  at.z = p.z.data();
  at.n = p.size();
  const NeighborSearch search(at);
  const double widest = *std::max_element(p.reach.begin(), p.reach.end());
  const auto panels = static_cast<std::ptrdiff_t>(surface.size());
#pragma omp parallel
  {
    std::vector<int> found;
#pragma omp for schedule(dynamic, 16)
    for (std::ptrdiff_t i = 0; i < panels; ++i) {
      const Panel& panel = surface.panels[i];
      const Vec3& c = panel.centroid;
      search.query(c.x, c.y, c.z, widest + surface.max_diameter, found);  // ascending
      Vec3 sum;
      for (int k : found) {
        const Vec3 x{p.x[k], p.y[k], p.z[k]};
        if (!near_wall_pair(c, x, p.reach[k], surface.max_diameter)) continue;
        sum += near_wall_term(panel, rule, core, x, {p.gx[k], p.gy[k], p.gz[k]}, p.inv_sigma[k]);
      }
      out[i] = sum;
    }
  }
}

}  // namespace vortex::bodies
