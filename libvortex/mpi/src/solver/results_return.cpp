#include "solver/results_return.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "solver/field_out.hpp"

namespace vortex::mpi::detail {

namespace {

double* component(VelocityField& f, int c) {
  return c < 3 ? f.u[c].data() : f.du[c - 3].data();
}

}  // namespace

void write_results(const vortex::detail::ComponentView& v, const std::size_t*, std::size_t n,
                   bool gradient, vortex::detail::Units units, VelocityField& out) {
  vortex::detail::scatter(v, nullptr, n, gradient, units, out);
}

namespace {

// A target's index on its home rank and its N - 1 values.
template <int N>
struct Result {
  double v[N];
};

template <int N>
void send_home(const Comm& comm, const vortex::detail::ComponentView& view,
               const std::vector<Record>& records, std::size_t n, vortex::detail::Units units,
               VelocityField& out, ResultBuffers& buffers) {
  constexpr int nc = N - 1;
  const int ranks = comm.size();
  const std::size_t m = records.size();
  // Each result's place in the packed buffer, rank after rank, in this rank's order.
  std::vector<int> counts(ranks, 0);
  std::vector<std::size_t>& place = buffers.place;
  place.resize(m);
  for (std::size_t i = 0; i < m; ++i) ++counts[origin_rank(records[i].from)];
  std::vector<std::size_t> next(ranks, 0);
  for (int r = 1; r < ranks; ++r) next[r] = next[r - 1] + counts[r - 1];
  for (std::size_t i = 0; i < m; ++i) place[i] = next[origin_rank(records[i].from)]++;
  // The buffers are kept as doubles, viewed as results of N of them.
  buffers.packed.resize(m * N);
  Result<N>* packed = reinterpret_cast<Result<N>*>(buffers.packed.data());
  const std::ptrdiff_t mm = static_cast<std::ptrdiff_t>(m);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < mm; ++i) {
    Result<N>& r = packed[place[i]];
    r.v[0] = static_cast<double>(origin_index(records[i].from));
    for (int c = 0; c < nc; ++c) r.v[1 + c] = view.component[c][i];
  }
  std::vector<int> words(counts);
  for (int& w : words) {
    if (w > 2147483647 / N)
      throw std::length_error("vortex::mpi: more than 2^31 - 1 doubles of results for one rank");
    w *= N;  // the doubles of each rank's results
  }
  comm.alltoallv(buffers.packed.data(), words, buffers.back);
  const std::size_t received = buffers.back.size() / N;
  if (received != n)
    throw std::logic_error("vortex::mpi: rank " + std::to_string(comm.rank()) + " got " +
                           std::to_string(received) + " results for " + std::to_string(n) +
                           " targets");
  const Result<N>* back = reinterpret_cast<const Result<N>*>(buffers.back.data());
  vortex::detail::size_for_overwrite(out, n, nc == 12);
  // Two factors a component, applied one after the other: their product may be out of range.
  double f1[12], f2[12];
  for (int c = 0; c < nc; ++c) units.factors(c < 3 ? 0 : 1, f1[c], f2[c]);
  double* to[12];
  for (int c = 0; c < nc; ++c) to[c] = component(out, c);
  const std::ptrdiff_t nb = static_cast<std::ptrdiff_t>(received);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t k = 0; k < nb; ++k) {
    const std::size_t i = static_cast<std::size_t>(back[k].v[0]);
    for (int c = 0; c < nc; ++c) to[c][i] = back[k].v[1 + c] * f1[c] * f2[c];
  }
}

}  // namespace

void return_results(const Comm& comm, const vortex::detail::ComponentView& v,
                    const std::vector<Record>& records, std::size_t n, bool gradient,
                    vortex::detail::Units units, VelocityField& out, ResultBuffers& buffers) {
  if (gradient)
    send_home<13>(comm, v, records, n, units, out, buffers);
  else
    send_home<4>(comm, v, records, n, units, out, buffers);
}

bool all_finite(const VelocityField& f) {
  return vortex::detail::first_non_finite(f).component < 0;
}

void throw_if_not_finite(const VelocityField& f) {
  const vortex::detail::NonFinite bad = vortex::detail::first_non_finite(f);
  if (bad.component < 0) return;
  throw std::overflow_error(
      std::string("vortex::mpi: ") + vortex::detail::component_name(bad.component) + " at target " +
      std::to_string(bad.target) + " is not finite: the field there is beyond double's range");
}

}  // namespace vortex::mpi::detail
