#pragma once
// Seeded particle sets for tests, benchmarks and demos. Every draw comes from std::mt19937_64 with
// the caller's seed and is turned into doubles without std::uniform_real_distribution, so a seed
// gives the same particles with every compiler and standard library.

#include <array>
#include <cstddef>
#include <cstdint>

#include "vortex/particles.hpp"

namespace vortex {

// The founding paper's benchmark case (section III.C): n particles uniform in the unit cube
// [0,1)^3, sigma = n^(-1/3) for all, Gamma in a uniformly random direction with |Gamma| uniform in
// [0, 1.5 sigma^2].
ParticleSet random_cube(std::size_t n, std::uint64_t seed);

// A vortex ring of radius R and core radius a, centered at `center`, around the unit `axis`.
//
// Discretization: the ring is cut into `stations` equally spaced cross-sections. Each
// cross-section is the disk of radius a, split into one central disk and `layers` annuli of width
// h = a / (layers + 1/2): particle layer k sits at distance k h from the core's center line, with
// 6k particles equally spaced in angle (one particle for k = 0), and stands for the annulus
// [(k - 1/2) h, (k + 1/2) h]. The vorticity over the cross-section is Gaussian,
// omega ~ exp(-(r/delta)^2) with delta = gaussian_width * a, truncated at a and normalized so that
// each cross-section carries exactly `circulation`; a layer's share is split evenly among its
// particles. A particle's vector strength is its share of the circulation times the arc length it
// stands for, 2 pi (its distance from the axis) / stations, along the azimuthal direction
// axis x e_r: the vorticity turns counter-clockwise seen from +axis, so the ring moves toward
// +axis (its impulse (1/2) sum x x Gamma points along +axis). All particles have
// sigma = overlap * h. stations = 0 picks round(2 pi R / h), an azimuthal spacing close to h.
struct RingOptions {
  double radius = 1.0;       // R
  double core_radius = 0.1;  // a
  double circulation = 1.0;  // circulation of each cross-section
  std::array<double, 3> center{0, 0, 0};
  std::array<double, 3> axis{0, 0, 1};  // need not be normalized
  int layers = 2;                       // annuli around the central particle (0 = a filament)
  int stations = 0;                     // cross-sections; 0 = round(2 pi R / h), at least 3
  double gaussian_width = 0.5;          // delta / a
  double overlap = 1.5;                 // sigma / h
};

ParticleSet vortex_ring(const RingOptions& options);
// Particles that vortex_ring(options) makes: stations * (1 + 3 layers (layers + 1)).
std::size_t ring_particle_count(const RingOptions& options);
// The options (layers and stations, the rest from `base`) for a ring of about n particles
// (within half a cross-section), with an azimuthal spacing as close to the radial one as n allows.
RingOptions ring_options_for_count(std::size_t n, RingOptions base = {});

// A clustered set: n particles drawn from a Plummer sphere of scale radius a, density
// rho(r) ~ (1 + r^2/a^2)^(-5/2), cumulative mass M(r) = r^3 / (r^2 + a^2)^(3/2), with radii beyond
// max_radius * a redrawn (the sample follows the truncated distribution). Core radii are either
// fixed (sigma > 0) or overlap times the local mean spacing n(r)^(-1/3), where n(r) is the
// expected number density at the particle's radius. Gamma is drawn as in random_cube, with
// |Gamma| uniform in [0, 1.5 sigma^2] for each particle's own sigma.
struct PlummerOptions {
  double scale_radius = 1.0;  // a
  double max_radius = 20.0;   // truncation radius, in units of a
  double sigma = 0;           // fixed core radius; 0 = from the local spacing
  double overlap = 1.0;       // sigma / local spacing
  std::array<double, 3> center{0, 0, 0};
};

ParticleSet plummer_sphere(std::size_t n, std::uint64_t seed, const PlummerOptions& options = {});
// The radius holding half the particles of the truncated distribution.
double plummer_half_mass_radius(const PlummerOptions& options);

// A thin vortex sheet: n particles uniform in a disc of radius R in the z = 0 plane, thickened
// to |z| <= thickness / 2, sigma = overlap times the in-plane spacing sqrt(pi R^2 / n). The
// vorticity lies in the plane, along +y turned by a random angle within +-spread (radians), with
// |Gamma| uniform in [0, 1.5 sigma^2]: a shear layer whose velocity jumps across the sheet, the
// flat, strongly anisotropic distribution the treecode's boxes fit worst.
struct SheetOptions {
  double radius = 1.0;      // R
  double thickness = 0.01;  // full thickness of the sheet
  double overlap = 1.0;     // sigma / in-plane spacing
  double spread = 0.5;      // largest angle of Gamma away from +y, in the plane
};

ParticleSet thin_sheet(std::size_t n, std::uint64_t seed, const SheetOptions& options = {});

// Two scales in one cloud: particles with even indices (ceil(n/2) of them) uniform in the unit
// cube [0,1)^3 with sigma = (n/2)^(-1/3), the odd ones (floor(n/2)) uniform in the cube
// [offset, offset + 1/ratio)^3 inside it with sigma = (n/2)^(-1/3) / ratio: each half's core
// radius follows its own spacing, so the small cube is ratio^3 times denser and its cores ratio
// times smaller. Gamma is drawn as in random_cube, with |Gamma| uniform in [0, 1.5 sigma^2] for
// each particle's own sigma. The draws are made in index order, so a prefix of a larger set is the
// smaller set apart from sigma.
struct TwoScaleOptions {
  double ratio = 10.0;  // size of the unit cube over that of the small one; >= 1
  double offset = 0.3;  // lower corner of the small cube, in [0, 1 - 1/ratio]
};

ParticleSet two_scale_cube(std::size_t n, std::uint64_t seed, const TwoScaleOptions& options = {});

// A closed sheet: n particles on the surface x^2/a^2 + y^2/b^2 + z^2/c^2 = 1 of an ellipsoid
// centered at the origin (by default a 10:10:1 oblate one, like the wake sheet wrapped around a
// disc-shaped body). The area density is uniform: a point u drawn uniformly on the unit sphere is
// mapped to (a u_x, b u_y, c u_z) and kept with probability g(u) / max g, where
// g(u) = sqrt(u_x^2/a^2 + u_y^2/b^2 + u_z^2/c^2) is proportional to the map's area stretch (at
// least half the draws are kept for any axes). sigma = overlap times the spacing
// sqrt(area / n), with the area from ellipsoid_area. Gamma is tangent to the surface, along the
// direction of increasing azimuth phi of the parametrization (a sin t cos phi, b sin t sin phi,
// c cos t), i.e. (-a sin phi, b cos phi, 0) normalized (the azimuthal direction about z when
// a = b), with |Gamma| uniform in [0, 1.5 sigma^2].
struct EllipsoidSheetOptions {
  std::array<double, 3> axes{1.0, 1.0, 0.1};  // semi-axes (a, b, c) along x, y, z
  double overlap = 1.5;                       // sigma / spacing
};

ParticleSet ellipsoid_sheet(std::size_t n, std::uint64_t seed,
                            const EllipsoidSheetOptions& options = {});
// Surface area of the ellipsoid with semi-axes (a, b, c) by Knud Thomsen's formula,
// 4 pi ((a^p b^p + a^p c^p + b^p c^p) / 3)^(1/p) with p = 1.6075: within 1.1% for any axes, exact
// for a sphere.
double ellipsoid_area(const std::array<double, 3>& axes);

}  // namespace vortex
