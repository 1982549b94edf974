#include "halo/halo.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace vortex::mpi::detail {

namespace {

// What a copy carries: position, strength and core.
struct Copy {
  double x, y, z, gx, gy, gz, sigma, pad;
};

// A copy's sums on the way back to its rank, or its particle's strength on the way to it.
struct Sums {
  double g[3];
};

// Within a box by a margin of rounding: the neighbour searches compare squared distances, which
// may round a particle at distance w just inside.
constexpr double kMargin = 1 + 1e-9;

}  // namespace

void check_finite(const ParticleSet& p, const char* step) {
  for (std::size_t i = 0; i < p.size(); ++i)
    for (const double v : {p.x[i], p.y[i], p.z[i], p.gx[i], p.gy[i], p.gz[i], p.sigma[i]})
      if (!std::isfinite(v))
        throw std::invalid_argument(std::string(step) + ": particle " + std::to_string(i) +
                                    " has a value that is not finite");
}

Box bounding_box(const ParticleSet& p, std::size_t n) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  Box b{{inf, inf, inf}, {-inf, -inf, -inf}};
  const std::vector<double>* axes[3] = {&p.x, &p.y, &p.z};
  for (int a = 0; a < 3; ++a)
    for (std::size_t i = 0; i < n; ++i) {
      b.lo[a] = std::min(b.lo[a], (*axes[a])[i]);
      b.hi[a] = std::max(b.hi[a], (*axes[a])[i]);
    }
  return b;
}

bool near_box(const Box& box, double x, double y, double z, double width) {
  if (!(box.lo[0] <= box.hi[0])) return false;
  const double at[3] = {x, y, z};
  double d2 = 0;
  for (int a = 0; a < 3; ++a) {
    const double d = std::max({box.lo[a] - at[a], 0.0, at[a] - box.hi[a]});
    d2 += d * d;
  }
  const double w = width * kMargin;
  return d2 <= w * w;
}

void Halo::gather(const Comm& comm, ParticleSet& local, std::size_t n, double width,
                  bool strengths) {
  if (local.size() < n) throw std::logic_error("vortex::mpi: a halo of a set smaller than n");
  boxes_ = comm.allgather(bounding_box(local, n));
  const int ranks = comm.size();
  sent_.assign(ranks, {});
  std::vector<std::vector<Copy>> send(ranks);
  for (int r = 0; r < ranks; ++r) {
    if (r == comm.rank()) continue;
    for (std::size_t i = 0; i < n; ++i) {
      if (!near_box(boxes_[r], local.x[i], local.y[i], local.z[i], width)) continue;
      if (i > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("vortex::mpi: more than 2^32 particles on a rank");
      sent_[r].push_back(static_cast<std::uint32_t>(i));
      send[r].push_back({local.x[i], local.y[i], local.z[i], local.gx[i], local.gy[i], local.gz[i],
                         local.sigma[i], 0});
    }
  }
  const std::vector<Copy> copies = comm.alltoallv(send, &from_);
  local.resize(n + copies.size());
  for (std::size_t k = 0; k < copies.size(); ++k) {
    const Copy& c = copies[k];
    const std::size_t j = n + k;
    local.x[j] = c.x;
    local.y[j] = c.y;
    local.z[j] = c.z;
    local.gx[j] = strengths ? c.gx : 0.0;
    local.gy[j] = strengths ? c.gy : 0.0;
    local.gz[j] = strengths ? c.gz : 0.0;
    local.sigma[j] = c.sigma;
  }
}

template <class T, class Value, class Add>
void Halo::sum_home(const Comm& comm, std::size_t n, const Value& value, const Add& add) const {
  const int ranks = comm.size();
  std::vector<std::vector<T>> send(ranks);
  for (int r = 0; r < ranks; ++r)
    for (long long k = from_[r]; k < from_[r + 1]; ++k)
      send[r].push_back(value(n + static_cast<std::size_t>(k)));
  std::vector<long long> from;
  const std::vector<T> back = comm.alltoallv(send, &from);
  for (int r = 0; r < ranks; ++r) {
    if (static_cast<std::size_t>(from[r + 1] - from[r]) != sent_[r].size())
      throw std::logic_error("vortex::mpi: a halo's sums do not match its copies");
    for (std::size_t k = 0; k < sent_[r].size(); ++k) add(sent_[r][k], back[from[r] + k]);
  }
}

void Halo::return_strengths(const Comm& comm, ParticleSet& local, std::size_t n) const {
  sum_home<Sums>(
      comm, n,
      [&](std::size_t j) {
        return Sums{{local.gx[j], local.gy[j], local.gz[j]}};
      },
      [&](std::uint32_t i, const Sums& s) {
        local.gx[i] += s.g[0];
        local.gy[i] += s.g[1];
        local.gz[i] += s.g[2];
      });
}

void Halo::return_sums(const Comm& comm, std::vector<std::array<double, 4>>& sums,
                       std::size_t n) const {
  using Four = std::array<double, 4>;
  sum_home<Four>(
      comm, n, [&](std::size_t j) { return sums[j]; },
      [&](std::uint32_t i, const Four& s) {
        for (int c = 0; c < 4; ++c) sums[i][c] += s[c];
      });
}

void Halo::refresh_strengths(const Comm& comm, ParticleSet& local, std::size_t n) const {
  const int ranks = comm.size();
  std::vector<std::vector<Sums>> send(ranks);
  for (int r = 0; r < ranks; ++r)
    for (std::uint32_t i : sent_[r]) send[r].push_back({{local.gx[i], local.gy[i], local.gz[i]}});
  std::vector<long long> from;
  const std::vector<Sums> fresh = comm.alltoallv(send, &from);
  if (from != from_)
    throw std::logic_error("vortex::mpi: a halo's strengths do not match its copies");
  for (std::size_t k = 0; k < fresh.size(); ++k) {
    const std::size_t j = n + k;
    local.gx[j] = fresh[k].g[0];
    local.gy[j] = fresh[k].g[1];
    local.gz[j] = fresh[k].g[2];
  }
}

std::vector<char> Halo::send_flags(const Comm& comm, const std::vector<char>& own_flags) const {
  const int ranks = comm.size();
  std::vector<std::vector<char>> send(ranks);
  for (int r = 0; r < ranks; ++r)
    for (std::uint32_t i : sent_[r]) send[r].push_back(own_flags[i]);
  std::vector<long long> from;
  std::vector<char> flags = comm.alltoallv(send, &from);
  if (from != from_) throw std::logic_error("vortex::mpi: a halo's flags do not match its copies");
  return flags;
}

}  // namespace vortex::mpi::detail
