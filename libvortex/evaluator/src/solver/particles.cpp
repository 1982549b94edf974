#include "vortex/particles.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "solver/text_excerpt.hpp"
#include "vortex/fixed_pieces.hpp"
#include "vortex/math/input_check.hpp"

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
  for (std::vector<double>* v : arrays()) (*v)[to] = (*v)[from];
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

// Null arrays (with `n` `items` to read) and non-finite values, named.
void check_finite(const double* v, std::size_t n, const char* set, const char* name,
                  const char* items) {
  if (n > 0 && !v) {
    throw std::invalid_argument(std::string(set) + ": " + name + " is a null pointer for " +
                                std::to_string(n) + " " + items);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(v[i])) {
      throw std::invalid_argument(std::string(set) + " " + name + "[" + std::to_string(i) +
                                  "] is not finite (" + detail::number_text(v[i]) + ")");
    }
  }
}

}  // namespace

namespace {

using input_check::kMaxLength;
using input_check::kMaxStrength;
using input_check::kMinLength;
using input_check::kMinStrength;

void check_coordinates(const double* v, std::size_t n, const char* set, const char* name) {
  for (std::size_t i = 0; i < n; ++i) {
    if (std::abs(v[i]) > kMaxLength) {
      throw std::invalid_argument(
          std::string(set) + " " + name + "[" + std::to_string(i) +
          "] = " + detail::number_text(v[i]) +
          " is beyond the supported range of lengths, |x| <= " + detail::number_text(kMaxLength));
    }
  }
}

void check_length_scales(SourcesView s) {
  const double* positions[] = {s.x, s.y, s.z};
  const char* position_names[] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k)
    check_coordinates(positions[k], s.size(), "sources", position_names[k]);
  const double* strengths[] = {s.gx, s.gy, s.gz};
  const char* strength_names[] = {"gx", "gy", "gz"};
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double sigma = s.sigma[i];
    if (sigma < kMinLength || sigma > kMaxLength) {
      throw std::invalid_argument(
          "sources sigma[" + std::to_string(i) + "] = " + detail::number_text(sigma) + " is " +
          (sigma < kMinLength ? "below " + detail::number_text(kMinLength)
                              : "above " + detail::number_text(kMaxLength)) +
          ", outside the supported range of lengths (rescale the problem)");
    }
    for (int k = 0; k < 3; ++k) {
      const double g = strengths[k][i];
      const double scaled = std::abs(g) / (sigma * sigma * sigma);
      if (g != 0 && !(scaled >= kMinStrength && scaled <= kMaxStrength)) {
        throw std::invalid_argument("sources " + std::string(strength_names[k]) + "[" +
                                    std::to_string(i) + "] = " + detail::number_text(g) +
                                    ": circulation / sigma^3 = " + detail::number_text(scaled) +
                                    " is outside the supported range " +
                                    detail::number_text(kMinStrength) + " to " +
                                    detail::number_text(kMaxStrength));
      }
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
  for (int k = 0; k < 7; ++k) check_finite(arrays[k], n, "sources", names[k], "particles");
  for (std::size_t i = 0; i < n; ++i) {
    if (!(s.sigma[i] > 0)) {
      throw std::invalid_argument("sources sigma[" + std::to_string(i) +
                                  "] must be positive, got " + detail::number_text(s.sigma[i]));
    }
  }
}

void validate_targets(PointsView t) {
  check_finite(t.x, t.n, "targets", "x", "points");
  check_finite(t.y, t.n, "targets", "y", "points");
  check_finite(t.z, t.n, "targets", "z", "points");
}

void validate_length_scales(SourcesView sources, PointsView targets) {
  check_length_scales(sources);
  const double* arrays[] = {targets.x, targets.y, targets.z};
  const char* names[] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) check_coordinates(arrays[k], targets.n, "targets", names[k]);
}

void validate_inputs(SourcesView sources, PointsView targets) {
  const double* arrays[] = {sources.x,  sources.y,     sources.z, sources.gx, sources.gy,
                            sources.gz, sources.sigma, targets.x, targets.y,  targets.z};
  bool bad = false;
  for (int k = 0; k < 10; ++k) bad |= (k < 7 ? sources.n : targets.n) > 0 && !arrays[k];
  if (!bad) {
    const std::ptrdiff_t ns = static_cast<std::ptrdiff_t>(sources.n);
    const std::ptrdiff_t nt = static_cast<std::ptrdiff_t>(targets.n);
#pragma omp parallel for schedule(static) reduction(|| : bad)
    for (std::ptrdiff_t i = 0; i < ns; ++i)
      bad = bad || !input_check::source_ok(sources.x[i], sources.y[i], sources.z[i], sources.gx[i],
                                           sources.gy[i], sources.gz[i], sources.sigma[i]);
#pragma omp parallel for schedule(static) reduction(|| : bad)
    for (std::ptrdiff_t i = 0; i < nt; ++i)
      bad = bad || !input_check::target_ok(targets.x[i], targets.y[i], targets.z[i]);
  }
  if (!bad) return;
  // Something is wrong: the serial checks find the first bad value and name it.
  validate_sources(sources);
  validate_targets(targets);
  validate_length_scales(sources, targets);
}

namespace {

// splitmix64's finalizer: a bijection of 64-bit words that spreads every bit over all of them.
std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

std::uint64_t digest(const ParticleSet& p) {
  const auto arrays = p.arrays();
  std::uint64_t total = mix(p.size());
  std::uint64_t salt = 0;
  for (const std::vector<double>* a : arrays) {
    const double* v = a->data();
    const auto n = static_cast<std::ptrdiff_t>(a->size());
    salt += 0x9e3779b97f4a7c15ull;
    // Each value mixed with its place: a sum of bijections of distinct terms, so one changed value
    // always changes the sum, and integer sums do not depend on the order of the threads.
    std::uint64_t sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static) if (n > 100000)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      std::uint64_t bits;
      std::memcpy(&bits, v + i, sizeof bits);
      sum += mix(bits ^ mix(static_cast<std::uint64_t>(i) + salt));
    }
    total = mix(total ^ sum) + static_cast<std::uint64_t>(n);
  }
  return total;
}

std::size_t strongest(const ParticleSet& p) {
  // Each piece searched alone, then the pieces in order (a strictly larger one wins: the first).
  const std::size_t n = p.size();
  std::array<double, kFixedPieces> largest;
  std::array<std::size_t, kFixedPieces> at;
#pragma omp parallel for schedule(static) if (n > 100000)
  for (int k = 0; k < kFixedPieces; ++k) {
    largest[k] = -1;
    at[k] = n;
    for (std::size_t i = piece_start(n, k); i < piece_start(n, k + 1); ++i) {
      const double s = p.strength(i);
      if (s > largest[k]) largest[k] = s, at[k] = i;
    }
  }
  double best = -1;
  std::size_t found = n;
  for (int k = 0; k < kFixedPieces; ++k)
    if (largest[k] > best) best = largest[k], found = at[k];
  return found;
}

}  // namespace vortex
