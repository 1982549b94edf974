#include "solver/results_return.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace vortex::mpi::detail {

namespace {

// One target's values on their way home.
struct Result {
  long long index;
  double value[12];
};

void size_field(VelocityField& f, std::size_t n, bool gradient) {
  for (auto& c : f.u) c.resize(n);
  for (auto& c : f.du) c.resize(gradient ? n : 0);
  f.has_gradient = gradient;
}

double* component(VelocityField& f, int c) {
  return c < 3 ? f.u[c].data() : f.du[c - 3].data();
}

const char* component_name(int c) {
  static const char* names[12] = {"u_x",     "u_y",     "u_z",     "du_x/dx", "du_x/dy", "du_x/dz",
                                  "du_y/dx", "du_y/dy", "du_y/dz", "du_z/dx", "du_z/dy", "du_z/dz"};
  return names[c];
}

}  // namespace

void write_results(const vortex::detail::ComponentView& v, const std::size_t*, std::size_t n,
                   bool gradient, vortex::detail::Units units, VelocityField& out) {
  size_field(out, n, gradient);
  const int nc = gradient ? 12 : 3;
  for (int c = 0; c < nc; ++c) {
    double f1, f2;
    units.factors(c < 3 ? 0 : 1, f1, f2);
    double* to = component(out, c);
    for (std::size_t i = 0; i < n; ++i) to[i] = v.component[c][i] * f1 * f2;
  }
}

void return_results(const Comm& comm, const vortex::detail::ComponentView& v,
                    const std::vector<Record>& records, std::size_t n, bool gradient,
                    vortex::detail::Units units, VelocityField& out) {
  const int nc = gradient ? 12 : 3;
  std::vector<std::vector<Result>> send(comm.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    Result r{origin_index(records[i].from), {}};
    for (int c = 0; c < nc; ++c) r.value[c] = v.component[c][i];
    send[origin_rank(records[i].from)].push_back(r);
  }
  const std::vector<Result> back = comm.alltoallv(send);
  if (back.size() != n)
    throw std::logic_error("vortex::mpi: rank " + std::to_string(comm.rank()) + " got " +
                           std::to_string(back.size()) + " results for " + std::to_string(n) +
                           " targets");
  size_field(out, n, gradient);
  double f1[12], f2[12];
  for (int c = 0; c < nc; ++c) units.factors(c < 3 ? 0 : 1, f1[c], f2[c]);
  for (const Result& r : back)
    for (int c = 0; c < nc; ++c) component(out, c)[r.index] = r.value[c] * f1[c] * f2[c];
}

bool all_finite(const VelocityField& f) {
  const int nc = f.has_gradient ? 12 : 3;
  for (int c = 0; c < nc; ++c) {
    const std::vector<double>& v = c < 3 ? f.u[c] : f.du[c - 3];
    for (const double x : v)
      if (!std::isfinite(x)) return false;
  }
  return true;
}

void throw_if_not_finite(const VelocityField& f) {
  const int nc = f.has_gradient ? 12 : 3;
  for (int c = 0; c < nc; ++c) {
    const std::vector<double>& v = c < 3 ? f.u[c] : f.du[c - 3];
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!std::isfinite(v[i]))
        throw std::overflow_error(std::string("vortex::mpi: ") + component_name(c) + " at target " +
                                  std::to_string(i) +
                                  " is not finite: the field there is beyond double's range");
  }
}

}  // namespace vortex::mpi::detail
