#include "strided.hpp"

#include <cstring>

namespace vortex::strided {

namespace {

template <class From>
void gather(std::size_t n, const Column& c, double* out) {
  const auto* base = static_cast<const unsigned char*>(c.data);
  for (std::size_t i = 0; i < n; ++i) {
    From v;
    std::memcpy(&v, base + std::ptrdiff_t(i) * c.stride, sizeof v);
    out[i] = static_cast<double>(v);
  }
}

template <class To>
void scatter(const std::vector<double>& values, const OutColumn& c) {
  auto* base = static_cast<unsigned char*>(c.data);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const To v = static_cast<To>(values[i]);
    std::memcpy(base + std::ptrdiff_t(i) * c.stride, &v, sizeof v);
  }
}

}  // namespace

std::size_t scalar_bytes(Scalar type) {
  return type == Scalar::Float64 ? sizeof(double) : sizeof(float);
}

void read_column(std::size_t n, const Column& c, double* out) {
  if (c.type == Scalar::Float64) {
    gather<double>(n, c, out);
  } else {
    gather<float>(n, c, out);
  }
}

const double* Staging::column(std::size_t n, const Column& c, std::vector<double>& storage) {
  if (c.contiguous_double()) return static_cast<const double*>(c.data);
  ++copied_;
  storage.resize(n);
  read_column(n, c, storage.data());
  return storage.data();
}

SourcesView Staging::sources(std::size_t n, const SourceColumns& c) {
  SourcesView v;
  v.n = n;
  const double** fields[] = {&v.x, &v.y, &v.z, &v.gx, &v.gy, &v.gz, &v.sigma};
  for (int k = 0; k < 7; ++k) *fields[k] = column(n, c[k], storage_[k]);
  return v;
}

PointsView Staging::targets(std::size_t n, const PointColumns& c) {
  PointsView v;
  v.n = n;
  v.x = column(n, c[0], storage_[7]);
  v.y = column(n, c[1], storage_[8]);
  v.z = column(n, c[2], storage_[9]);
  return v;
}

void write_column(const std::vector<double>& values, const OutColumn& c) {
  if (c.type == Scalar::Float64 && c.stride == std::ptrdiff_t(sizeof(double))) {
    std::memcpy(c.data, values.data(), values.size() * sizeof(double));
  } else if (c.type == Scalar::Float64) {
    scatter<double>(values, c);
  } else {
    scatter<float>(values, c);
  }
}

void write_field(const VelocityField& field, const std::array<OutColumn, 3>& u,
                 const std::array<OutColumn, 9>* du) {
  for (int a = 0; a < 3; ++a) write_column(field.u[a], u[a]);
  if (du && field.has_gradient)
    for (int k = 0; k < 9; ++k) write_column(field.du[k], (*du)[k]);
}

}  // namespace vortex::strided
