#pragma once
// Structure-of-arrays containers for vortex particles and for target points.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vortex {

// Points where the velocity is evaluated.
struct Points {
  std::vector<double> x, y, z;

  std::size_t size() const { return x.size(); }
  void resize(std::size_t n);
  void push_back(double px, double py, double pz);
};

// Vortex particles: positions, vector strengths (circulation) Gamma and core radii sigma.
struct ParticleSet {
  std::vector<double> x, y, z;
  std::vector<double> gx, gy, gz;
  std::vector<double> sigma;

  std::size_t size() const { return x.size(); }
  void resize(std::size_t n);
  void reserve(std::size_t n);
  void push_back(double px, double py, double pz, double g_x, double g_y, double g_z, double s);
  // Copies particle `from` over particle `to` (for compacting a set in place).
  void copy_particle(std::size_t from, std::size_t to);
  // Every per-particle array, for code that treats them alike.
  std::array<std::vector<double>*, 7> arrays() { return {&x, &y, &z, &gx, &gy, &gz, &sigma}; }
  std::array<const std::vector<double>*, 7> arrays() const {
    return {&x, &y, &z, &gx, &gy, &gz, &sigma};
  }
  // |Gamma| of particle i.
  double strength(std::size_t i) const {
    return std::sqrt(gx[i] * gx[i] + gy[i] * gy[i] + gz[i] * gz[i]);
  }
  Points positions() const;
};

// A digest of every array of the set (positions, strengths, cores), in parallel and the same for
// any thread count: equal sets give equal digests; a set that differs in one value gives another,
// in several values another but for a chance of about 2^-64. For telling whether a set changed.
std::uint64_t digest(const ParticleSet& p);

// The first particle of the largest |Gamma| (p.size() for an empty set), searched in parallel: the
// same particle for any thread count.
std::size_t strongest(const ParticleSet& p);

// A read-only view of target coordinates, so that particle sets and point sets can both be targets
// without copies. Made from a set whose x, y and z differ in length, it throws
// std::invalid_argument.
struct PointsView {
  const double* x = nullptr;
  const double* y = nullptr;
  const double* z = nullptr;
  std::size_t n = 0;

  PointsView() = default;
  PointsView(const Points& p);
  PointsView(const ParticleSet& p);
  std::size_t size() const { return n; }
};

// A read-only view of source particles in the caller's arrays (n contiguous doubles each), so that
// code holding its particles in its own storage (another language's arrays) evaluates them without
// copies. Made from a ParticleSet, it throws std::invalid_argument when the arrays' lengths differ.
struct SourcesView {
  const double* x = nullptr;
  const double* y = nullptr;
  const double* z = nullptr;
  const double* gx = nullptr;
  const double* gy = nullptr;
  const double* gz = nullptr;
  const double* sigma = nullptr;
  std::size_t n = 0;

  SourcesView() = default;
  SourcesView(const ParticleSet& p);
  std::size_t size() const { return n; }
  // The sources' positions as targets.
  PointsView positions() const {
    PointsView p;
    p.x = x;
    p.y = y;
    p.z = z;
    p.n = n;
    return p;
  }
};

// Throws std::invalid_argument naming the first bad value (array, index) of a source set:
// mismatched array lengths, non-finite values, sigma <= 0. An empty set is valid here.
void validate_sources(const ParticleSet& sources);
void validate_sources(SourcesView sources);
// Throws std::invalid_argument for null arrays (with n > 0) and non-finite target coordinates.
void validate_targets(PointsView targets);
// Throws std::invalid_argument naming the limit when a length (sigma, |coordinate|) lies outside
// 1e-100 to 1e100 or a circulation/sigma^3 outside 1e-290 to 1e290, where the kernels would give
// NaN or 0 (after validate_sources and validate_targets).
void validate_length_scales(SourcesView sources, PointsView targets);
// All three checks above in one parallel pass over the arrays (what the Solver runs on every call);
// on bad input it throws what they throw.
void validate_inputs(SourcesView sources, PointsView targets);

}  // namespace vortex
