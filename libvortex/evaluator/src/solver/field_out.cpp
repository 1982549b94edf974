#include "solver/field_out.hpp"

#include <cmath>
#include <cstring>
#include <vector>

namespace vortex::detail {

void size_for_overwrite(VelocityField& f, std::size_t n, bool gradient) {
  for (auto& c : f.u) c.resize(n);
  for (auto& c : f.du) c.resize(gradient ? n : 0);
  f.has_gradient = gradient;
}

void scatter(const ComponentView& v, const std::size_t* perm, std::size_t n, bool gradient,
             Units units, VelocityField& out) {
  size_for_overwrite(out, n, gradient);
  const int nc = gradient ? 12 : 3;
  auto dst = [&](int c) { return c < 3 ? out.u[c].data() : out.du[c - 3].data(); };
  // Two factors a component (Units::factors), applied as the values are copied: times 1 is exact.
  double f1[12], f2[12];
  for (int c = 0; c < nc; ++c) units.factors(c < 3 ? 0 : 1, f1[c], f2[c]);
  const bool scaled = units.length != 0 || units.strength != 0;
  if (!perm) {
#pragma omp parallel for schedule(static) collapse(2)
    for (int c = 0; c < nc; ++c)
      for (int part = 0; part < 16; ++part) {
        const std::size_t lo = n * part / 16, hi = n * (part + 1) / 16;
        double* to = dst(c);
        const double* from = v.component[c];
        if (!scaled)
          std::memcpy(to + lo, from + lo, (hi - lo) * sizeof(double));
        else
          for (std::size_t i = lo; i < hi; ++i) to[i] = from[i] * f1[c] * f2[c];
      }
    return;
  }
  double* d[12];
  for (int c = 0; c < nc; ++c) d[c] = dst(c);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = perm[i];
    for (int c = 0; c < nc; ++c) d[c][j] = v.component[c][i] * f1[c] * f2[c];
  }
}

NonFinite first_non_finite(const VelocityField& f) {
  const int nc = f.has_gradient ? 12 : 3;
  auto values = [&](int c) -> const std::vector<double>& { return c < 3 ? f.u[c] : f.du[c - 3]; };
  // One parallel pass over every component; the serial search only when something is wrong.
  bool bad = false;
#pragma omp parallel for schedule(static) collapse(2) reduction(|| : bad)
  for (int c = 0; c < nc; ++c)
    for (int part = 0; part < 16; ++part) {
      const std::vector<double>& v = values(c);
      const std::size_t lo = v.size() * part / 16, hi = v.size() * (part + 1) / 16;
      for (std::size_t i = lo; i < hi; ++i) bad = bad || !std::isfinite(v[i]);
    }
  if (!bad) return {};
  for (int c = 0; c < nc; ++c)
    for (std::size_t i = 0; i < values(c).size(); ++i)
      if (!std::isfinite(values(c)[i])) return {c, i};
  return {};
}

const char* component_name(int c) {
  static const char* names[12] = {"u_x",     "u_y",     "u_z",     "du_x/dx", "du_x/dy", "du_x/dz",
                                  "du_y/dx", "du_y/dy", "du_y/dz", "du_z/dx", "du_z/dy", "du_z/dz"};
  return names[c];
}

}  // namespace vortex::detail
