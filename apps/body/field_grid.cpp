#include "field_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "projections.hpp"
#include "vortex/bodies/bem_solver.hpp"
#include "vortex/bodies/wall.hpp"
#include "vortex/file_io.hpp"

namespace vortex::body_app {

namespace {

using bodies::Vec3;

// Legacy VTK binary data are big-endian 32-bit floats.
void append_big_endian(std::string& out, float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const char bytes[4] = {static_cast<char>(bits >> 24), static_cast<char>(bits >> 16),
                         static_cast<char>(bits >> 8), static_cast<char>(bits)};
  out.append(bytes, 4);
}

// A float that a reader takes as it is: values beyond float's range are clamped to it.
float as_float(double v) {
  constexpr double kMax = 3.0e38;
  return static_cast<float>(std::clamp(v, -kMax, kMax));
}

}  // namespace

bool write_field_grid(const ParticleSet& p, bodies::BodyFlow& flow, const Vec3& stream,
                      const std::string& dir, long step, double time, int cells) {
  const std::size_t n = p.size();
  if (n == 0 || cells < 2) return false;
  // The box: the particles' and the body's, padded by three of the largest cores.
  double lo[3], hi[3];
  particle_box(p, lo, hi);
  for (const auto& v : flow.bem().surface().mesh.vertices)
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], v[a]);
      hi[a] = std::max(hi[a], v[a]);
    }
  const double pad = 3 * *std::max_element(p.sigma.begin(), p.sigma.end());
  for (int a = 0; a < 3; ++a) {
    lo[a] -= pad;
    hi[a] += pad;
  }
  const double extent = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  const double d = extent / cells;
  int dims[3];
  for (int a = 0; a < 3; ++a)
    dims[a] = std::max(2, static_cast<int>(std::ceil((hi[a] - lo[a]) / d)) + 1);
  const std::size_t m = static_cast<std::size_t>(dims[0]) * dims[1] * dims[2];
  Points grid;
  grid.resize(m);
  for (std::size_t k = 0; k < m; ++k) {  // x fastest, as VTK reads them
    const std::size_t i = k % dims[0], j = (k / dims[0]) % dims[1], l = k / (dims[0] * dims[1]);
    grid.x[k] = lo[0] + i * d;
    grid.y[k] = lo[1] + j * d;
    grid.z[k] = lo[2] + l * d;
  }
  VelocityField f;
  flow.velocity_at(p, PointsView(grid), true, f);
  std::vector<float> q(m), w(m), wall(m);
  const double reach = 3 * d;
  const auto count = static_cast<std::ptrdiff_t>(m);
#pragma omp parallel for schedule(dynamic, 4096)
  for (std::ptrdiff_t k = 0; k < count; ++k) {
    // Q = -tr(J^2) / 2 and |omega| = |curl u|, J the velocity gradient.
    double tr = 0;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) tr += f.du[3 * r + c][k] * f.du[3 * c + r][k];
    const auto o = f.vorticity(static_cast<std::size_t>(k));
    q[k] = as_float(-0.5 * tr);
    w[k] = as_float(std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]));
    // The signed distance within `reach` of the wall, else +-reach: its zero is the body's
    // surface, drawn smooth by a contour.
    const Vec3 x{grid.x[k], grid.y[k], grid.z[k]};
    double r = flow.wall().distance_bound(x, reach);  // signed within reach
    if (!(std::abs(r) < reach)) r = flow.wall().inside(x) ? -reach : reach;
    wall[k] = static_cast<float>(r);
  }
  char head[512];
  std::snprintf(head, sizeof head,
                "# vtk DataFile Version 3.0\nvortex-body field, step %ld, t = %.9g\nBINARY\n"
                "DATASET STRUCTURED_POINTS\nDIMENSIONS %d %d %d\nORIGIN %.17g %.17g %.17g\n"
                "SPACING %.17g %.17g %.17g\nPOINT_DATA %zu\n",
                step, time, dims[0], dims[1], dims[2], lo[0], lo[1], lo[2], d, d, d, m);
  std::string out(head);
  out.reserve(out.size() + 6 * 4 * m + 256);
  const auto scalars = [&](const char* name, const std::vector<float>& v) {
    out += std::string("SCALARS ") + name + " float 1\nLOOKUP_TABLE default\n";
    for (const float x : v) append_big_endian(out, x);
    out += '\n';
  };
  scalars("Q", q);
  scalars("vorticity_magnitude", w);
  scalars("wall_distance", wall);
  out += "VECTORS velocity float\n";
  const double free[3] = {stream.x, stream.y, stream.z};
  for (std::size_t k = 0; k < m; ++k)
    for (int a = 0; a < 3; ++a) append_big_endian(out, as_float(f.u[a][k] + free[a]));
  out += '\n';
  char name[64];
  std::snprintf(name, sizeof name, "/field-%06ld.vtk", step);
  AtomicFile file(dir + name);
  file.write(out);
  file.commit();
  return true;
}

WakePlane wake_plane(const bodies::Surface& surface, const Vec3& stream) {
  WakePlane plane;
  if (!(norm(stream) > 0) || surface.mesh.vertices.empty()) return plane;
  plane.e = normalized(stream);
  plane.last = bodies::last_point_along(surface, plane.e);
  plane.defined = true;
  return plane;
}

WakeCentre wake_centre(const ParticleSet& p, const WakePlane& wake) {
  WakeCentre w;
  if (!wake.defined) return w;
  const Vec3& e = wake.e;
  const double plane = dot(wake.last, e);
  Vec3 moment;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3 x{p.x[i], p.y[i], p.z[i]};
    if (!(dot(x, e) > plane)) continue;
    const double s = p.strength(i);
    w.strength += s;
    moment += s * x;
  }
  w.centre = w.strength > 0 ? (1 / w.strength) * moment : wake.last;
  return w;
}

}  // namespace vortex::body_app
