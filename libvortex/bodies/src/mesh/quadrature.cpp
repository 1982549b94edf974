#include "vortex/bodies/quadrature.hpp"

#include <stdexcept>
#include <string>

namespace vortex::bodies {

namespace {

// The three permutations of (a, b, b).
void add_orbit(TriangleRule& r, double a, double b, double w) {
  r.bary.push_back({a, b, b});
  r.bary.push_back({b, a, b});
  r.bary.push_back({b, b, a});
  for (int k = 0; k < 3; ++k) r.weight.push_back(w);
}

}  // namespace

TriangleRule triangle_rule(int points) {
  TriangleRule r;
  switch (points) {
    case 1:
      r.bary.push_back({1.0 / 3, 1.0 / 3, 1.0 / 3});
      r.weight.push_back(1.0);
      r.degree = 1;
      break;
    case 3:
      add_orbit(r, 2.0 / 3, 1.0 / 6, 1.0 / 3);
      r.degree = 2;
      break;
    case 6:
      add_orbit(r, 0.108103018168070, 0.445948490915965, 0.223381589678011);
      add_orbit(r, 0.816847572980459, 0.091576213509771, 0.109951743655322);
      r.degree = 4;
      break;
    case 7:
      r.bary.push_back({1.0 / 3, 1.0 / 3, 1.0 / 3});
      r.weight.push_back(0.225);
      add_orbit(r, 0.059715871789770, 0.470142064105115, 0.132394152788506);
      add_orbit(r, 0.797426985353087, 0.101286507323456, 0.125939180544827);
      r.degree = 5;
      break;
    default:
      throw std::invalid_argument("triangle quadrature: no rule with " + std::to_string(points) +
                                  " points (use 1, 3, 6 or 7)");
  }
  return r;
}

TriangleRule subdivided(const TriangleRule& rule) {
  // Corners of the four subtriangles in the barycentric coordinates of the parent; each keeps
  // the parent's orientation.
  const std::array<double, 3> v0{1, 0, 0}, v1{0, 1, 0}, v2{0, 0, 1};
  const std::array<double, 3> m01{0.5, 0.5, 0}, m12{0, 0.5, 0.5}, m20{0.5, 0, 0.5};
  const std::array<std::array<std::array<double, 3>, 3>, 4> sub{
      {{v0, m01, m20}, {m01, v1, m12}, {m20, m12, v2}, {m12, m20, m01}}};
  TriangleRule out;
  out.degree = rule.degree;
  for (const auto& t : sub)
    for (std::size_t q = 0; q < rule.size(); ++q) {
      std::array<double, 3> b{0, 0, 0};
      for (int c = 0; c < 3; ++c)
        for (int k = 0; k < 3; ++k) b[k] += rule.bary[q][c] * t[c][k];
      out.bary.push_back(b);
      out.weight.push_back(rule.weight[q] / 4);
    }
  return out;
}

}  // namespace vortex::bodies
