// numpy arrays <-> library containers: checks with errors that name the array, and columns that
// point into the caller's memory.

#include <sstream>

#include "bindings.hpp"

namespace vortex::python {

namespace {

std::string shape_of(const py::array& a) {
  std::ostringstream s;
  s << "(";
  for (py::ssize_t d = 0; d < a.ndim(); ++d) s << (d ? ", " : "") << a.shape(d);
  s << (a.ndim() == 1 ? ",)" : ")");
  return s.str();
}

bool is_double(const py::array& a) {
  return a.dtype().is(py::dtype::of<double>());
}
bool is_float(const py::array& a) {
  return a.dtype().is(py::dtype::of<float>());
}

void write_columns(const std::vector<double>* columns, int count, py::array_t<double>& out) {
  auto* base = reinterpret_cast<unsigned char*>(out.mutable_data());
  const std::ptrdiff_t row = std::ptrdiff_t(count * sizeof(double));
  for (int k = 0; k < count; ++k)
    strided::write_column(columns[k], {base + k * sizeof(double), row, strided::Scalar::Float64});
}

}  // namespace

py::array as_array(const py::object& object) {
  if (py::isinstance<py::array>(object)) return py::reinterpret_borrow<py::array>(object);
  return py::module_::import("numpy").attr("asarray")(object);
}

py::ssize_t check_array(const py::array& a, const char* name, py::ssize_t n, bool vectors) {
  if (!is_double(a) && !is_float(a)) {
    throw py::type_error(std::string(name) + " must be a float64 or float32 array, got dtype " +
                         py::str(a.dtype()).cast<std::string>());
  }
  const std::string expected = vectors ? "(N, 3)" : "(N,)";
  const bool shaped = vectors ? a.ndim() == 2 && a.shape(1) == 3 : a.ndim() == 1;
  if (!shaped) {
    throw py::value_error(std::string(name) + " must have shape " + expected + ", got " +
                          shape_of(a));
  }
  if (n >= 0 && a.shape(0) != n) {
    throw py::value_error(std::string(name) + " has " + std::to_string(a.shape(0)) +
                          " rows, expected " + std::to_string(n) + " (one per particle)");
  }
  return a.shape(0);
}

strided::Column column(const py::array& a, int component) {
  const auto* base = static_cast<const unsigned char*>(a.data());
  const std::ptrdiff_t offset = a.ndim() == 2 ? component * a.strides(1) : 0;
  return {base + offset, a.strides(0),
          is_double(a) ? strided::Scalar::Float64 : strided::Scalar::Float32};
}

bool read_in_place(const py::array& a, bool vectors) {
  for (int c = 0; c < (vectors ? 3 : 1); ++c)
    if (!column(a, c).contiguous_double()) return false;
  return true;
}

py::array_t<double> velocity_array(const VelocityField& f) {
  py::array_t<double> out({py::ssize_t(f.size()), py::ssize_t(3)});
  write_columns(f.u.data(), 3, out);
  return out;
}

py::object gradient_array(const VelocityField& f) {
  if (!f.has_gradient) return py::none();
  py::array_t<double> out({py::ssize_t(f.size()), py::ssize_t(3), py::ssize_t(3)});
  write_columns(f.du.data(), 9, out);
  return std::move(out);
}

py::array_t<double> points_array(const double* x, const double* y, const double* z, std::size_t n) {
  py::array_t<double> out({py::ssize_t(n), py::ssize_t(3)});
  auto v = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < n; ++i) v(i, 0) = x[i], v(i, 1) = y[i], v(i, 2) = z[i];
  return out;
}

VelocityField field_from_arrays(const py::object& velocity, const py::object& gradient) {
  const py::array u = as_array(velocity);
  const py::ssize_t n = check_array(u, "velocity", -1, true);
  VelocityField f;
  const bool has_gradient = !gradient.is_none();
  f.resize(std::size_t(n), has_gradient);
  const auto uv = py::array_t<double>::ensure(u).unchecked<2>();
  for (py::ssize_t i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) f.u[a][i] = uv(i, a);
  if (has_gradient) {
    const auto du = py::array_t<double>::ensure(as_array(gradient));
    if (!du || du.ndim() != 3 || du.shape(0) != n || du.shape(1) != 3 || du.shape(2) != 3)
      throw py::value_error("gradient must have shape (N, 3, 3) with N = len(velocity)");
    const auto dv = du.unchecked<3>();
    for (py::ssize_t i = 0; i < n; ++i)
      for (int k = 0; k < 9; ++k) f.du[k][i] = dv(i, k / 3, k % 3);
  }
  return f;
}

}  // namespace vortex::python
