// The particle files of a vortex-body run on a sphere, checked against an independent direct
// sum (tests/apps/scripts/body_particle_output.cmake runs it): the point arrays `velocity` and
// `vorticity` hold three finite components a particle; the velocity is the free stream plus the
// velocity of the particles and of the sheet (the checkpoint's sheet as point sources at the
// boundary elements' source points, cored with the sheet's core h) in double precision at every
// particle, and the vorticity is the curl of that sum's gradient, both within 1e-3. Without the
// sheet the same comparison must fail (its part is in the file's velocity).
//
//   particle_output_check PARTICLES.vtp CHECKPOINT.bin FREQUENCY RADIUS H UX,UY,UZ

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "vortex/bodies/bem_operator.hpp"
#include "vortex/bodies/checkpoint.hpp"
#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/quadrature.hpp"
#include "vortex/bodies/sheet.hpp"
#include "vortex/bodies/surface.hpp"
#include "vortex/solver.hpp"
#include "vortex/vtp.hpp"

namespace {

using namespace vortex;

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "FAILED: %s\n", what.c_str());
  ++failures;
}

// The file's array `name`: three finite components a particle.
const VtpPointArray* vector_array(const VtpData& data, const char* name, std::size_t n) {
  const VtpPointArray* a = data.find(name);
  expect(a != nullptr, std::string("the particle file has a point array '") + name + "'");
  if (!a) return nullptr;
  expect(a->components == 3,
         std::string(name) + " has 3 components, not " + std::to_string(a->components));
  expect(a->values.size() == 3 * n, std::string(name) + " has 3 values a particle");
  if (a->components != 3 || a->values.size() != 3 * n) return nullptr;
  const bool finite =
      std::all_of(a->values.begin(), a->values.end(), [](double v) { return std::isfinite(v); });
  expect(finite, std::string(name) + " is finite");
  return finite ? a : nullptr;
}

double norm(const std::array<double, 3>& v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

std::array<double, 3> difference(const VtpPointArray& a, std::size_t i,
                                 const std::array<double, 3>& b) {
  return {a.values[3 * i] - b[0], a.values[3 * i + 1] - b[1], a.values[3 * i + 2] - b[2]};
}

// The sheet of the checkpoint as the particles see it: at the source rule's points of every
// panel, the panel's sheet vector times its area and the point's weight, core h.
void add_sheet(const bodies::Surface& surface, const std::vector<double>& gamma, double h,
               ParticleSet& sources) {
  const bodies::TriangleRule rule = bodies::triangle_rule(bodies::BemOptions{}.source_points);
  const Points at = bodies::quadrature_points(surface, rule);
  const std::vector<bodies::Vec3> g = bodies::sheet_vectors(surface, gamma);
  for (std::size_t k = 0; k < at.size(); ++k) {
    const std::size_t panel = k / rule.size();
    const double weight = surface.panels[panel].area * rule.weight[k % rule.size()];
    sources.push_back(at.x[k], at.y[k], at.z[k], weight * g[panel].x, weight * g[panel].y,
                      weight * g[panel].z, h);
  }
}

VelocityField direct_sum(const ParticleSet& sources, const ParticleSet& targets) {
  SolverOptions o;
  o.method = Method::Direct;
  o.backend = Backend::Cpu;
  o.precision = Precision::Double;
  return Solver(o).evaluate(sources, PointsView(targets), true);
}

int check(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr,
                 "usage: particle_output_check PARTICLES.vtp CHECKPOINT.bin FREQUENCY RADIUS H "
                 "UX,UY,UZ\n");
    return 2;
  }
  const std::string path = argv[1];
  const double radius = std::atof(argv[4]), h = std::atof(argv[5]);
  std::array<double, 3> stream{};
  if (std::sscanf(argv[6], "%lf,%lf,%lf", &stream[0], &stream[1], &stream[2]) != 3) {
    std::fprintf(stderr, "particle_output_check: bad stream '%s'\n", argv[6]);
    return 2;
  }
  const VtpData data = read_vtp(path);
  const ParticleSet particles = read_particles_vtp(path);
  const std::size_t n = particles.size();
  std::printf("%s: %zu particles\n", path.c_str(), n);
  expect(n > 0, "the file holds particles");
  const VtpPointArray* velocity = vector_array(data, vtp_arrays::kVelocity, n);
  const VtpPointArray* vorticity = vector_array(data, vtp_arrays::kVorticity, n);
  const bodies::BodyCheckpoint ck = bodies::read_checkpoint(argv[2]);
  expect(
      ck.particles.size() == n && ck.particles.x == particles.x && ck.particles.gz == particles.gz,
      "the checkpoint of the same step holds the file's particles");
  if (!velocity || !vorticity || failures > 0) return 1;

  const bodies::Surface surface =
      bodies::make_surface(bodies::sphere(std::atoi(argv[3]), radius), "sphere");
  ParticleSet sources = particles;
  add_sheet(surface, ck.gamma, h, sources);
  const VelocityField reference = direct_sum(sources, particles);
  const VelocityField particles_alone = direct_sum(particles, particles);

  double worst_u = 0, worst_w = 0, largest_w = 0, worst_without_sheet = 0;
  std::size_t worst_at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::array<double, 3> u, u_alone;
    for (int c = 0; c < 3; ++c) {
      u[c] = stream[c] + reference.u[c][i];
      u_alone[c] = stream[c] + particles_alone.u[c][i];
    }
    const double e = norm(difference(*velocity, i, u)) / norm(u);
    if (e > worst_u) worst_u = e, worst_at = i;
    worst_without_sheet =
        std::max(worst_without_sheet, norm(difference(*velocity, i, u_alone)) / norm(u));
    // omega = curl u, du[3a + b] = du_a / dx_b.
    const auto& du = reference.du;
    const std::array<double, 3> w{du[7][i] - du[5][i], du[2][i] - du[6][i], du[3][i] - du[1][i]};
    largest_w = std::max(largest_w, norm(w));
    worst_w = std::max(worst_w, norm(difference(*vorticity, i, w)));
  }
  std::printf(
      "velocity: largest relative difference from the direct sum %.3g (particle %zu); %.3g "
      "without the sheet\n",
      worst_u, worst_at, worst_without_sheet);
  std::printf("vorticity: largest difference %.3g of the largest |omega| %.4g\n",
              largest_w > 0 ? worst_w / largest_w : worst_w, largest_w);
  expect(worst_u <= 1e-3,
         "the velocity is the free stream plus the particles' and the sheet's "
         "within 1e-3 at every particle");
  expect(largest_w > 0 && worst_w <= 1e-3 * largest_w,
         "the vorticity is the curl of the direct sum's gradient within 1e-3 of its largest");
  expect(worst_without_sheet > 1e-3, "the sheet's velocity is part of the file's");
  return failures > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return check(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "particle_output_check: %s\n", e.what());
    return 1;
  }
}
