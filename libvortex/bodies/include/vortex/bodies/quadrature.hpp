#pragma once
// Symmetric quadrature rules on a triangle (Dunavant 1985), in barycentric coordinates with
// weights that sum to one: a panel's integral is area * sum_q w_q f(y_q).

#include <array>
#include <vector>

namespace vortex::bodies {

struct TriangleRule {
  std::vector<std::array<double, 3>> bary;  // barycentric coordinates of each point
  std::vector<double> weight;               // sum to 1
  int degree = 0;                           // polynomials up to this degree are exact

  std::size_t size() const { return weight.size(); }
};

// Rules of 1 (centroid), 3, 6 and 7 points (degrees 1, 2, 4, 5). Throws std::invalid_argument for
// another count.
TriangleRule triangle_rule(int points);

// The rule applied to each of the four halved-edge subtriangles (4x the points, weights / 4): for
// integrands with a near-singularity close to the panel.
TriangleRule subdivided(const TriangleRule& rule);

}  // namespace vortex::bodies
