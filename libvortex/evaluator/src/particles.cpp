#include "vortex/particles.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace vortex {

void Points::resize(std::size_t n) {
  x.resize(n);
  y.resize(n);
  z.resize(n);
}

void Points::push_back(double px, double py, double pz) {
  x.push_back(px);
  y.push_back(py);
  z.push_back(pz);
}

void ParticleSet::resize(std::size_t n) {
  for (auto* v : {&x, &y, &z, &gx, &gy, &gz, &sigma}) v->resize(n);
}

void ParticleSet::reserve(std::size_t n) {
  for (auto* v : {&x, &y, &z, &gx, &gy, &gz, &sigma}) v->reserve(n);
}

void ParticleSet::push_back(double px, double py, double pz, double g_x, double g_y, double g_z,
                            double s) {
  x.push_back(px);
  y.push_back(py);
  z.push_back(pz);
  gx.push_back(g_x);
  gy.push_back(g_y);
  gz.push_back(g_z);
  sigma.push_back(s);
}

void ParticleSet::copy_particle(std::size_t from, std::size_t to) {
  for (auto* v : {&x, &y, &z, &gx, &gy, &gz, &sigma}) (*v)[to] = (*v)[from];
}

Points ParticleSet::positions() const {
  return Points{x, y, z};
}

SourcesView::SourcesView(const ParticleSet& s)
    : x(s.x.data()),
      y(s.y.data()),
      z(s.z.data()),
      gx(s.gx.data()),
      gy(s.gy.data()),
      gz(s.gz.data()),
      sigma(s.sigma.data()),
      n(s.x.size()) {
  const std::vector<double>* arrays[] = {&s.y, &s.z, &s.gx, &s.gy, &s.gz, &s.sigma};
  const char* names[] = {"y", "z", "gx", "gy", "gz", "sigma"};
  for (int k = 0; k < 6; ++k) {
    if (arrays[k]->size() != n) {
      throw std::invalid_argument("sources: array " + std::string(names[k]) + " has " +
                                  std::to_string(arrays[k]->size()) + " entries, x has " +
                                  std::to_string(n));
    }
  }
}

namespace {

void check_finite(const double* v, std::size_t n, const char* set, const char* name) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(v[i])) {
      throw std::invalid_argument(std::string(set) + " " + name + "[" + std::to_string(i) +
                                  "] is not finite (" + std::to_string(v[i]) + ")");
    }
  }
}

}  // namespace

void validate_sources(const ParticleSet& s) {
  validate_sources(SourcesView(s));
}

void validate_sources(SourcesView s) {
  const std::size_t n = s.n;
  const double* arrays[] = {s.x, s.y, s.z, s.gx, s.gy, s.gz, s.sigma};
  const char* names[] = {"x", "y", "z", "gx", "gy", "gz", "sigma"};
  for (int k = 0; k < 7; ++k) check_finite(arrays[k], n, "sources", names[k]);
  for (std::size_t i = 0; i < n; ++i) {
    if (!(s.sigma[i] > 0)) {
      throw std::invalid_argument("sources sigma[" + std::to_string(i) +
                                  "] must be positive, got " + std::to_string(s.sigma[i]));
    }
  }
}

void validate_targets(PointsView t) {
  check_finite(t.x, t.n, "targets", "x");
  check_finite(t.y, t.n, "targets", "y");
  check_finite(t.z, t.n, "targets", "z");
}

}  // namespace vortex
