#pragma once
// Caller arrays of any layout (separate arrays, interleaved xyz, float or double) turned into the
// library's structure-of-arrays views. Shared by the C interface and the Python module.
//
// A column is one component of one quantity for every particle: x of the positions, Gamma_y, sigma.
// A column of contiguous doubles is used where it lies; any other column (a stride, float) is
// converted into storage that the Staging keeps for the next call, so a time loop allocates once.

#include <array>
#include <cstddef>
#include <vector>

#include "vortex/field.hpp"
#include "vortex/particles.hpp"

namespace vortex::strided {

enum class Scalar { Float64, Float32 };

struct Column {
  const void* data = nullptr;
  std::ptrdiff_t stride = 0;  // bytes from one particle to the next
  Scalar type = Scalar::Float64;

  bool contiguous_double() const {
    return type == Scalar::Float64 && stride == std::ptrdiff_t(sizeof(double));
  }
};

struct OutColumn {
  void* data = nullptr;
  std::ptrdiff_t stride = 0;  // bytes
  Scalar type = Scalar::Float64;
};

std::size_t scalar_bytes(Scalar type);

// Converts n values of a column into doubles at `out`.
void read_column(std::size_t n, const Column& c, double* out);

// Columns of sources: x, y, z, Gamma_x, Gamma_y, Gamma_z, sigma.
using SourceColumns = std::array<Column, 7>;
using PointColumns = std::array<Column, 3>;

class Staging {
 public:
  SourcesView sources(std::size_t n, const SourceColumns& columns);
  PointsView targets(std::size_t n, const PointColumns& columns);
  // Columns converted by the calls since the last reset (0 when every input was used in place).
  int copied_columns() const { return copied_; }
  void reset() { copied_ = 0; }

 private:
  const double* column(std::size_t n, const Column& c, std::vector<double>& storage);

  std::array<std::vector<double>, 10> storage_;
  int copied_ = 0;
};

// Writes `values` into one caller column.
void write_column(const std::vector<double>& values, const OutColumn& out);
// Writes a field (velocity, and the gradient where `du` columns are given and the field has it)
// into the caller's columns. du[3a+b] receives d u_a / d x_b.
void write_field(const VelocityField& field, const std::array<OutColumn, 3>& u,
                 const std::array<OutColumn, 9>* du);

}  // namespace vortex::strided
