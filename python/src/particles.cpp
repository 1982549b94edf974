// vortex._vortex.Particles: a particle set held by the library (structure of arrays), for the
// readers, generators and time-stepping toolkit. Properties return copies as numpy arrays and
// assign from arrays, so no Python array ever points into storage that a step may reallocate.

#include "bindings.hpp"

namespace vortex::python {

namespace {

py::array_t<double> column_array(const std::vector<double>& v) {
  return py::array_t<double>(py::ssize_t(v.size()), v.data());
}

// Assigns the columns of an (n, 3) array (or one (n,) array) to the set's vectors.
void assign(ParticleSet& p, const py::object& value, const char* name,
            std::vector<double>* columns[], bool vectors) {
  const py::array a = as_array(value);
  const py::ssize_t n = check_array(a, name, py::ssize_t(p.size()), vectors);
  for (int c = 0; c < (vectors ? 3 : 1); ++c) {
    columns[c]->resize(std::size_t(n));
    strided::read_column(std::size_t(n), column(a, c), columns[c]->data());
  }
}

using Member = std::vector<double> ParticleSet::*;

// An (n, 3) copy of three columns, and the assignment of an (n, 3) array to them.
template <Member X, Member Y, Member Z>
py::array_t<double> vector_getter(const ParticleSet& p) {
  return points_array((p.*X).data(), (p.*Y).data(), (p.*Z).data(), p.size());
}

template <Member X, Member Y, Member Z>
auto vector_setter(const char* name) {
  return [name](ParticleSet& p, const py::object& v) {
    std::vector<double>* c[] = {&(p.*X), &(p.*Y), &(p.*Z)};
    assign(p, v, name, c, true);
  };
}

ParticleSet from_arrays(const py::object& positions, const py::object& strengths,
                        const py::object& sigma) {
  ParticleSet p;
  const py::array x = as_array(positions);
  p.resize(std::size_t(check_array(x, "positions", -1, true)));
  std::vector<double>* pos[] = {&p.x, &p.y, &p.z};
  std::vector<double>* gam[] = {&p.gx, &p.gy, &p.gz};
  std::vector<double>* sig[] = {&p.sigma};
  assign(p, x, "positions", pos, true);
  assign(p, strengths, "strengths", gam, true);
  assign(p, sigma, "sigma", sig, false);
  return p;
}

}  // namespace

ParticleSet& particles_of(const py::object& particles) {
  try {
    return particles.cast<ParticleSet&>();
  } catch (const py::cast_error&) {
    throw py::type_error("expected a vortex.Particles, got " +
                         py::str(py::type::of(particles)).cast<std::string>());
  }
}

void bind_particles(py::module_& m) {
  py::class_<ParticleSet>(m, "Particles",
                          "Vortex particles: positions (N, 3), strengths (circulation, N, 3), "
                          "core radii sigma (N,)")
      .def(py::init<>())
      .def(py::init(&from_arrays), py::arg("positions"), py::arg("strengths"), py::arg("sigma"))
      .def("__len__", &ParticleSet::size)
      .def("copy", [](const ParticleSet& p) { return ParticleSet(p); })
      .def_property("positions", vector_getter<&ParticleSet::x, &ParticleSet::y, &ParticleSet::z>,
                    vector_setter<&ParticleSet::x, &ParticleSet::y, &ParticleSet::z>("positions"))
      .def_property(
          "strengths", vector_getter<&ParticleSet::gx, &ParticleSet::gy, &ParticleSet::gz>,
          vector_setter<&ParticleSet::gx, &ParticleSet::gy, &ParticleSet::gz>("strengths"))
      .def_property(
          "sigma", [](const ParticleSet& p) { return column_array(p.sigma); },
          [](ParticleSet& p, const py::object& v) {
            std::vector<double>* c[] = {&p.sigma};
            assign(p, v, "sigma", c, false);
          })
      .def("__repr__", [](const ParticleSet& p) {
        return "<vortex.Particles with " + std::to_string(p.size()) + " particles>";
      });
}

}  // namespace vortex::python
