// Seeded particle sets: the paper's random cube, vortex rings, Plummer spheres, the two-scale cube
// and the ellipsoidal sheet.

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "vortex/generators.hpp"

namespace vortex::python {

void bind_generators(py::module_& m) {
  m.def("random_cube", &random_cube, py::arg("n"), py::arg("seed") = 1,
        "n particles uniform in the unit cube, sigma = n^(-1/3), |Gamma| <= 1.5 sigma^2");
  m.def(
      "vortex_ring",
      [](double radius, double core_radius, double circulation, std::array<double, 3> center,
         std::array<double, 3> axis, int layers, int stations, double gaussian_width,
         double overlap) {
        RingOptions o;
        o.radius = radius;
        o.core_radius = core_radius;
        o.circulation = circulation;
        o.center = center;
        o.axis = axis;
        o.layers = layers;
        o.stations = stations;
        o.gaussian_width = gaussian_width;
        o.overlap = overlap;
        return vortex_ring(o);
      },
      py::kw_only(), py::arg("radius") = 1.0, py::arg("core_radius") = 0.1,
      py::arg("circulation") = 1.0, py::arg("center") = std::array<double, 3>{0, 0, 0},
      py::arg("axis") = std::array<double, 3>{0, 0, 1}, py::arg("layers") = 2,
      py::arg("stations") = 0, py::arg("gaussian_width") = 0.5, py::arg("overlap") = 1.5,
      "A vortex ring with a Gaussian core moving toward +axis (see generators.hpp)");
  m.def(
      "plummer_sphere",
      [](std::size_t n, std::uint64_t seed, double scale_radius, double max_radius, double sigma,
         double overlap, std::array<double, 3> center) {
        PlummerOptions o;
        o.scale_radius = scale_radius;
        o.max_radius = max_radius;
        o.sigma = sigma;
        o.overlap = overlap;
        o.center = center;
        return plummer_sphere(n, seed, o);
      },
      py::arg("n"), py::arg("seed") = 1, py::kw_only(), py::arg("scale_radius") = 1.0,
      py::arg("max_radius") = 20.0, py::arg("sigma") = 0.0, py::arg("overlap") = 1.0,
      py::arg("center") = std::array<double, 3>{0, 0, 0},
      "n particles clustered as a Plummer sphere");
  m.def(
      "two_scale_cube",
      [](std::size_t n, std::uint64_t seed, double ratio, double offset) {
        TwoScaleOptions o;
        o.ratio = ratio;
        o.offset = offset;
        return two_scale_cube(n, seed, o);
      },
      py::arg("n"), py::arg("seed") = 1, py::kw_only(), py::arg("ratio") = 10.0,
      py::arg("offset") = 0.3,
      "Even indices uniform in the unit cube with sigma = (n/2)^(-1/3), odd ones in the cube "
      "[offset, offset + 1/ratio)^3 with sigma ratio times smaller; |Gamma| <= 1.5 sigma^2");
  m.def(
      "ellipsoid_sheet",
      [](std::size_t n, std::uint64_t seed, std::array<double, 3> axes, double overlap) {
        EllipsoidSheetOptions o;
        o.axes = axes;
        o.overlap = overlap;
        return ellipsoid_sheet(n, seed, o);
      },
      py::arg("n"), py::arg("seed") = 1, py::kw_only(),
      py::arg("axes") = std::array<double, 3>{1.0, 1.0, 0.1}, py::arg("overlap") = 1.5,
      "n particles uniform in area on the ellipsoid with semi-axes `axes`, sigma = overlap times "
      "the spacing sqrt(area / n), Gamma tangent to the surface with |Gamma| <= 1.5 sigma^2");
}

}  // namespace vortex::python
