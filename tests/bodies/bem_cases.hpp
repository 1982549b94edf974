#pragma once
// Shared set-up of the boundary-element tests: error of a solved sheet against the exact
// ellipsoid (or sphere) solution.

#include <cmath>
#include <vector>

#include "vortex/bodies/ellipsoid_flow.hpp"
#include "vortex/bodies/sheet.hpp"
#include "vortex/bodies/surface.hpp"

namespace vortex::bodies::testing {

struct SheetError {
  double mean_relative = 0;  // mean_i |gamma_i - exact_i| / max |exact|
  double max_relative = 0;
};

// Compares every panel's sheet with the exact one at its centroid projected on the ellipsoid.
inline SheetError sheet_error(const Surface& s, const std::vector<double>& gamma,
                              const EllipsoidFlow& exact, const Vec3& stream) {
  const std::vector<Vec3> g = sheet_vectors(s, gamma);
  std::vector<Vec3> ref(s.size());
  double scale = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    ref[i] = exact.sheet(exact.project(s.panels[i].centroid), stream);
    scale = std::max(scale, norm(ref[i]));
  }
  SheetError e;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double d = norm(g[i] - ref[i]) / scale;
    e.mean_relative += d / static_cast<double>(s.size());
    e.max_relative = std::max(e.max_relative, d);
  }
  return e;
}

}  // namespace vortex::bodies::testing
