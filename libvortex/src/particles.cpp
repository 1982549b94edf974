#include "vortex/particles.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "text_excerpt.hpp"

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

namespace {

void require_same_lengths(const std::vector<double>& x, const std::vector<double>& y,
                          const std::vector<double>& z, const char* set) {
  if (y.size() != x.size() || z.size() != x.size()) {
    throw std::invalid_argument(std::string(set) + ": x, y and z have " + std::to_string(x.size()) +
                                ", " + std::to_string(y.size()) + " and " +
                                std::to_string(z.size()) + " entries");
  }
}

}  // namespace

PointsView::PointsView(const Points& p) : x(p.x.data()), y(p.y.data()), z(p.z.data()), n(p.size()) {
  require_same_lengths(p.x, p.y, p.z, "points");
}

PointsView::PointsView(const ParticleSet& p)
    : x(p.x.data()), y(p.y.data()), z(p.z.data()), n(p.size()) {
  require_same_lengths(p.x, p.y, p.z, "particles");
}

namespace {

void check_finite(const std::vector<double>& v, const char* set, const char* name) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      throw std::invalid_argument(std::string(set) + " " + name + "[" + std::to_string(i) +
                                  "] is not finite (" + detail::number_text(v[i]) + ")");
    }
  }
}

}  // namespace

void validate_sources(const ParticleSet& s) {
  const std::size_t n = s.x.size();
  const std::vector<double>* arrays[] = {&s.y, &s.z, &s.gx, &s.gy, &s.gz, &s.sigma};
  const char* names[] = {"y", "z", "gx", "gy", "gz", "sigma"};
  for (int k = 0; k < 6; ++k) {
    if (arrays[k]->size() != n) {
      throw std::invalid_argument("sources: array " + std::string(names[k]) + " has " +
                                  std::to_string(arrays[k]->size()) + " entries, x has " +
                                  std::to_string(n));
    }
  }
  check_finite(s.x, "sources", "x");
  check_finite(s.y, "sources", "y");
  check_finite(s.z, "sources", "z");
  check_finite(s.gx, "sources", "gx");
  check_finite(s.gy, "sources", "gy");
  check_finite(s.gz, "sources", "gz");
  check_finite(s.sigma, "sources", "sigma");
  for (std::size_t i = 0; i < n; ++i) {
    if (!(s.sigma[i] > 0)) {
      throw std::invalid_argument("sources sigma[" + std::to_string(i) +
                                  "] must be positive, got " + detail::number_text(s.sigma[i]));
    }
  }
}

void validate_targets(PointsView t) {
  const double* arrays[] = {t.x, t.y, t.z};
  const char* names[] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    if (t.n > 0 && !arrays[k]) {
      throw std::invalid_argument("targets: " + std::string(names[k]) + " is a null pointer for " +
                                  std::to_string(t.n) + " points");
    }
  }
  for (int k = 0; k < 3; ++k) {
    for (std::size_t i = 0; i < t.n; ++i) {
      if (!std::isfinite(arrays[k][i])) {
        throw std::invalid_argument("targets " + std::string(names[k]) + "[" + std::to_string(i) +
                                    "] is not finite (" + detail::number_text(arrays[k][i]) + ")");
      }
    }
  }
}

}  // namespace vortex
