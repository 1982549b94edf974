// Readers and writers: particle and field files (CSV, .vtp) and .pvd time series.

#include "bindings.hpp"
#include "vortex/csv.hpp"
#include "vortex/pvd.hpp"
#include "vortex/vtp.hpp"

namespace vortex::python {

namespace {

Points points_from(const py::object& value) {
  const py::array a = as_array(value);
  const py::ssize_t n = check_array(a, "points", -1, true);
  Points p;
  p.resize(std::size_t(n));
  strided::read_column(std::size_t(n), column(a, 0), p.x.data());
  strided::read_column(std::size_t(n), column(a, 1), p.y.data());
  strided::read_column(std::size_t(n), column(a, 2), p.z.data());
  return p;
}

py::array_t<double> points_to_array(const Points& p) {
  return points_array(p.x.data(), p.y.data(), p.z.data(), p.size());
}

}  // namespace

void bind_io(py::module_& m) {
  py::register_exception<FileError>(m, "FileError", PyExc_OSError);

  m.def("read_particles_csv", &read_particles_csv, py::arg("path"));
  m.def("read_particles_vtp", &read_particles_vtp, py::arg("path"));
  m.def("write_particles_csv", &write_particles_csv, py::arg("path"), py::arg("particles"));
  m.def(
      "read_points_csv",
      [](const std::string& path) { return points_to_array(read_points_csv(path)); },
      py::arg("path"));
  m.def(
      "read_points_vtp",
      [](const std::string& path) { return points_to_array(read_points_vtp(path)); },
      py::arg("path"));
  m.def(
      "write_field_csv",
      [](const std::string& path, const py::object& points, const py::object& velocity,
         const py::object& gradient) {
        const Points p = points_from(points);
        const VelocityField f = field_from_arrays(velocity, gradient);
        if (f.size() != p.size()) throw py::value_error("velocity must have one row per point");
        write_field_csv(path, PointsView(p), f);
      },
      py::arg("path"), py::arg("points"), py::arg("velocity"), py::arg("gradient") = py::none());
  m.def(
      "write_particles_vtp",
      [](const std::string& path, const ParticleSet& particles, const py::object& velocity,
         const py::object& gradient) {
        if (velocity.is_none()) return write_vtp(path, particles, nullptr);
        const VelocityField f = field_from_arrays(velocity, gradient);
        if (f.size() != particles.size())
          throw py::value_error("velocity must have one row per particle");
        write_vtp(path, particles, &f);
      },
      py::arg("path"), py::arg("particles"), py::arg("velocity") = py::none(),
      py::arg("gradient") = py::none());
  m.def(
      "write_points_vtp",
      [](const std::string& path, const py::object& points, const py::object& velocity,
         const py::object& gradient) {
        const Points p = points_from(points);
        if (velocity.is_none()) return write_vtp(path, PointsView(p), nullptr);
        const VelocityField f = field_from_arrays(velocity, gradient);
        if (f.size() != p.size()) throw py::value_error("velocity must have one row per point");
        write_vtp(path, PointsView(p), &f);
      },
      py::arg("path"), py::arg("points"), py::arg("velocity") = py::none(),
      py::arg("gradient") = py::none());
  m.def(
      "read_field_vtp",
      [](const std::string& path) {
        const VelocityField f = read_field_vtp(path);
        return py::make_tuple(velocity_array(f), gradient_array(f));
      },
      py::arg("path"), "(velocity (N, 3), gradient (N, 3, 3) or None) of a .vtp file");

  py::class_<PvdWriter>(m, "PvdWriter", "A ParaView .pvd time series of .vtp files")
      .def(py::init<std::string>(), py::arg("path"))
      .def("add", &PvdWriter::add, py::arg("time"), py::arg("file"))
      .def_property_readonly("path", &PvdWriter::path)
      .def_property_readonly("entries", [](const PvdWriter& w) {
        py::list out;
        for (const PvdEntry& e : w.entries()) out.append(py::make_tuple(e.time, e.file));
        return out;
      });
  m.def(
      "read_pvd",
      [](const std::string& path) {
        py::list out;
        for (const PvdEntry& e : read_pvd(path)) out.append(py::make_tuple(e.time, e.file));
        return out;
      },
      py::arg("path"), "[(time, file)] of a .pvd collection");
}

}  // namespace vortex::python
