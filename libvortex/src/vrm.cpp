#include "vortex/vrm.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "vortex/neighbor_search.hpp"

namespace vortex {

namespace {

using Vec10 = Eigen::Matrix<double, 10, 1>;
using Mat10 = Eigen::Matrix<double, 10, 10>;

// Moment row of a neighbour at offset d: 1, d, and the six second-order products.
Vec10 moment_row(const std::array<double, 3>& d) {
  Vec10 a;
  a << 1, d[0], d[1], d[2], d[0] * d[0], d[1] * d[1], d[2] * d[2], d[0] * d[1], d[0] * d[2],
      d[1] * d[2];
  return a;
}

Vec10 moment_target(double s2) {
  Vec10 b;
  b << 1, 0, 0, 0, s2, s2, s2, 0, 0, 0;
  return b;
}

double weight(const std::array<double, 3>& d) {
  return 1.0 + d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

// Makes sum f = 1 hold to rounding by adjusting the particle's own share.
void close_sum(std::vector<double>& f, int self) {
  double others = 0;
  for (std::size_t q = 0; q < f.size(); ++q)
    if (static_cast<int>(q) != self) others += f[q];
  f[self] = 1.0 - others;
}

// Lattice node key; nodes are h * (i, j, k) with |i|, |j|, |k| < 2^20.
std::uint64_t node_key(long i, long j, long k) {
  const std::uint64_t off = 1u << 20;
  return ((static_cast<std::uint64_t>(i + off) & 0x1FFFFF) << 42) |
         ((static_cast<std::uint64_t>(j + off) & 0x1FFFFF) << 21) |
         (static_cast<std::uint64_t>(k + off) & 0x1FFFFF);
}

}  // namespace

void validate(const VrmOptions& o) {
  if (!(o.spacing > 0) || !std::isfinite(o.spacing))
    throw std::invalid_argument("VRM: spacing h must be positive, got " +
                                std::to_string(o.spacing));
  if (!(o.radius_factor > 0)) throw std::invalid_argument("VRM: radius_factor must be positive");
  if (!(o.min_radius >= 1.0))
    throw std::invalid_argument("VRM: min_radius must be at least 1 (reach lattice neighbours)");
  if (!(o.hole_distance > 0 && o.hole_distance < 1))
    throw std::invalid_argument("VRM: hole_distance must be in (0, 1)");
  if (!(o.insert_threshold >= 0)) throw std::invalid_argument("VRM: insert_threshold must be >= 0");
  if (!(o.core_radius >= 0)) throw std::invalid_argument("VRM: core_radius must be >= 0");
  if (o.max_rounds < 1) throw std::invalid_argument("VRM: max_rounds must be >= 1");
}

// Non-negative fractions of least weighted norm with K moment conditions sum_q f_q a_q = b (rows
// a_q, weights c_q), by the dual method described in vrm.hpp. Returns false when there is no
// non-negative solution.
template <int K>
static bool solve_nonnegative(const std::vector<Eigen::Matrix<double, K, 1>>& a,
                              const std::vector<double>& c, const Eigen::Matrix<double, K, 1>& b,
                              std::vector<double>& f, double* residual_out, int* iterations_out) {
  using Vec = Eigen::Matrix<double, K, 1>;
  using Mat = Eigen::Matrix<double, K, K>;
  const int m = static_cast<int>(a.size());
  f.assign(m, 0.0);
  if (m == 0) return false;
  // Converged residuals sit at 1e-16..1e-12 (rounding of the K x K solves); a stalled line
  // search below `loose` is rounding too, not infeasibility.
  const double size = std::max(1.0, b.cwiseAbs().maxCoeff());
  const double tol = 1e-12 * size;
  const double loose = 1e-9 * size;

  auto dual_value = [&](const Vec& lambda) {
    double v = b.dot(lambda);
    for (int q = 0; q < m; ++q) {
      const double t = std::max(0.0, a[q].dot(lambda));
      v -= 0.5 * t * t / c[q];
    }
    return v;
  };

  // Start from the multipliers of the problem without the sign constraints.
  Mat h_all = Mat::Zero();
  for (int q = 0; q < m; ++q) h_all.noalias() += a[q] * a[q].transpose() / c[q];
  const double scale = std::max(1.0, h_all.trace() / K);
  Vec lambda = (h_all + 1e-8 * scale * Mat::Identity()).ldlt().solve(b);

  // Each iteration works with the active neighbours (a_q . lambda > 0). Their rows need not span
  // all K moments (a lattice stencil has no xy products, say), so the generalized Hessian
  // H = sum_active a_q a_q^T / c_q may be singular: the residual's part in its null space is
  // handled by an exact step to the next breakpoint, the part in its range by Newton's method.
  // A Newton trial point is accepted when the dual rises enough (Armijo) or, near the solution
  // where that rise is below the rounding of the dual value, when the moment residual falls.
  auto residual_at = [&](const Vec& l) {
    Vec r = b;
    for (int q = 0; q < m; ++q) {
      const double t = a[q].dot(l);
      if (t > 0) r.noalias() -= (t / c[q]) * a[q];
    }
    return r.cwiseAbs().maxCoeff();
  };
  auto ascend = [&](const Vec& step, double slope, double d0, double r0) {
    if (!(slope > 0)) return false;
    for (double alpha = 1; alpha > 1e-4; alpha *= 0.5) {
      const Vec trial = lambda + alpha * step;
      if (dual_value(trial) >= d0 + 1e-4 * alpha * slope || residual_at(trial) < 0.5 * r0) {
        lambda = trial;
        return true;
      }
    }
    return false;
  };
  double residual = 0;
  int it = 0;
  bool ok = false;
  Eigen::SelfAdjointEigenSolver<Mat> eigen;
  for (; it < 80; ++it) {
    Vec r = b;
    Mat h = Mat::Zero();
    for (int q = 0; q < m; ++q) {
      const double t = a[q].dot(lambda);
      if (t > 0) {
        f[q] = t / c[q];
        r.noalias() -= f[q] * a[q];
        h.noalias() += a[q] * a[q].transpose() / c[q];
      } else {
        f[q] = 0;
      }
    }
    residual = r.cwiseAbs().maxCoeff();
    if (!std::isfinite(residual)) break;
    if (residual <= tol) {
      ok = true;
      break;
    }
    const double d0 = dual_value(lambda);
    eigen.compute(h);
    const Vec& mu = eigen.eigenvalues();
    const double cut = 1e-12 * std::max(mu.maxCoeff(), 1e-300);
    const Vec coef = eigen.eigenvectors().transpose() * r;
    Vec range_coef = Vec::Zero(), null_coef = Vec::Zero();
    for (int k = 0; k < K; ++k) (mu[k] > cut ? range_coef[k] : null_coef[k]) = coef[k];
    if (null_coef.norm() > 1e-13 * b.norm()) {
      // Moments the active neighbours cannot reach: along v, the residual's part outside the
      // active rows' range, the dual rises linearly until an inactive neighbour q with
      // a_q . v > 0 turns active. Step just past the first such point; if there is none, the dual
      // is unbounded and no non-negative solution exists.
      const Vec v = eigen.eigenvectors() * null_coef;
      double step = HUGE_VAL;
      for (int q = 0; q < m; ++q) {
        const double t = a[q].dot(lambda), rate = a[q].dot(v);
        if (t <= 0 && rate > 0) step = std::min(step, -t / rate);
      }
      if (step == HUGE_VAL) break;
      lambda += (step * (1 + 1e-9) + 1e-12 / v.norm()) * v;
      continue;
    }
    // Within the range: a Newton step with backtracking; damped steps if it does not ascend.
    for (int k = 0; k < K; ++k) range_coef[k] = mu[k] > cut ? range_coef[k] / mu[k] : 0.0;
    const Vec newton = eigen.eigenvectors() * range_coef;
    bool stepped = ascend(newton, r.dot(newton), d0, residual);
    for (double damping = 1e-6; !stepped && damping <= 1e6; damping *= 1e2) {
      const Vec step = (h + damping * scale * Mat::Identity()).ldlt().solve(r);
      stepped = ascend(step, r.dot(step), d0, residual);
    }
    if (!stepped) break;  // no ascent left: rounding level, or the dual is unbounded
  }
  if (residual_out) *residual_out = residual;
  if (iterations_out) *iterations_out = it;
  if (!ok && residual <= loose) ok = true;  // stalled at rounding level
  return ok;
}

bool solve_redistribution(const std::vector<std::array<double, 3>>& offsets, int self,
                          double second_moment, std::vector<double>& f, double* residual_out,
                          int* iterations_out) {
  const int m = static_cast<int>(offsets.size());
  f.assign(m, 0.0);
  if (m == 0 || self < 0 || self >= m) return false;
  std::vector<Vec10> a(m);
  std::vector<double> c(m);
  for (int q = 0; q < m; ++q) {
    a[q] = moment_row(offsets[q]);
    c[q] = weight(offsets[q]);
  }
  if (!solve_nonnegative<10>(a, c, moment_target(second_moment), f, residual_out, iterations_out))
    return false;
  close_sum(f, self);
  return f[self] >= -1e-12;
}

bool solve_first_moment_fractions(const std::vector<std::array<double, 3>>& offsets,
                                  std::vector<double>& f) {
  const int m = static_cast<int>(offsets.size());
  std::vector<Eigen::Vector4d> a(m);
  std::vector<double> c(m);
  for (int q = 0; q < m; ++q) {
    a[q] = Eigen::Vector4d(1, offsets[q][0], offsets[q][1], offsets[q][2]);
    c[q] = weight(offsets[q]);
  }
  if (!solve_nonnegative<4>(a, c, Eigen::Vector4d(1, 0, 0, 0), f, nullptr, nullptr)) return false;
  // sum f = 1 to rounding: the largest share absorbs the difference.
  const auto largest = std::max_element(f.begin(), f.end()) - f.begin();
  double others = 0;
  for (int q = 0; q < m; ++q)
    if (q != largest) others += f[q];
  f[largest] = 1.0 - others;
  return true;
}

bool solve_redistribution_signed(const std::vector<std::array<double, 3>>& offsets, int self,
                                 double second_moment, std::vector<double>& f) {
  const int m = static_cast<int>(offsets.size());
  f.assign(m, 0.0);
  if (m == 0 || self < 0 || self >= m) return false;
  std::vector<Vec10> a(m);
  Mat10 h = Mat10::Zero();
  for (int q = 0; q < m; ++q) {
    a[q] = moment_row(offsets[q]);
    h.noalias() += a[q] * a[q].transpose() / weight(offsets[q]);
  }
  const Vec10 b = moment_target(second_moment);
  const Eigen::FullPivLU<Mat10> lu(h);
  if (lu.rank() < 10) return false;
  const Vec10 lambda = lu.solve(b);
  for (int q = 0; q < m; ++q) f[q] = a[q].dot(lambda) / weight(offsets[q]);
  close_sum(f, self);
  return true;
}

VrmStats vrm_diffuse(ParticleSet& p, double nu, double dt, const VrmOptions& o) {
  validate(o);
  if (!(nu >= 0) || !(dt >= 0) || !std::isfinite(nu) || !std::isfinite(dt))
    throw std::invalid_argument("VRM: nu and dt must be finite and >= 0");
  const auto start = std::chrono::steady_clock::now();
  VrmStats stats;
  const double h = o.spacing;
  const double radius = std::max(o.radius_factor * std::sqrt(nu * dt), o.min_radius * h);
  stats.radius = radius;
  if (nu == 0 || dt == 0 || p.size() == 0) return stats;
  const double s2 = 2.0 * nu * dt / (h * h);

  const std::size_t n0 = p.size();  // particles that own strength this step
  double max_strength = 0;
  for (std::size_t i = 0; i < n0; ++i)
    max_strength = std::max(max_strength,
                            std::sqrt(p.gx[i] * p.gx[i] + p.gy[i] * p.gy[i] + p.gz[i] * p.gz[i]));
  const double weak = o.insert_threshold * max_strength;

  // Per owner: neighbour indices and fractions; state 0 = unsolved, 1 = solved, 2 = given up.
  std::vector<std::vector<int>> nbr(n0);
  std::vector<std::vector<double>> frac(n0);
  std::vector<char> state(n0, 0);
  std::vector<char> is_weak(n0, 0);
  for (std::size_t i = 0; i < n0; ++i) {
    const double s = std::sqrt(p.gx[i] * p.gx[i] + p.gy[i] * p.gy[i] + p.gz[i] * p.gz[i]);
    if (s == 0) state[i] = 2;  // nothing to redistribute
    is_weak[i] = s < weak;
  }
  std::unordered_set<std::uint64_t> occupied_nodes;
  double max_residual = 0, neighbor_total = 0;
  std::size_t solved_count = 0;

  for (int round = 0; round < o.max_rounds; ++round) {
    stats.rounds = round + 1;
    const NeighborSearch search(p);
    std::vector<std::vector<std::uint64_t>> proposals(n0);
    const bool last_round = round + 1 == o.max_rounds;
    double round_residual = 0, round_neighbors = 0;
    std::size_t round_solved = 0;
#pragma omp parallel if (n0 > 500) reduction(max : round_residual) reduction(+ : round_neighbors, round_solved)
    {
      std::vector<int> found, near_node;
      std::vector<std::array<double, 3>> offsets;
      std::vector<double> f;
      int self = -1;
      // Solves owner i on its neighbours within r (offsets and self then describe them); on
      // success records its fractions.
      auto solve_within = [&](std::ptrdiff_t i, double r) {
        search.query(p.x[i], p.y[i], p.z[i], r, found);
        if (o.blocked) {
          const std::array<double, 3> from{p.x[i], p.y[i], p.z[i]};
          found.erase(std::remove_if(found.begin(), found.end(),
                                     [&](int j) {
                                       return j != i && o.blocked(from, {p.x[j], p.y[j], p.z[j]});
                                     }),
                      found.end());
        }
        offsets.resize(found.size());
        self = -1;
        for (std::size_t k = 0; k < found.size(); ++k) {
          const int j = found[k];
          if (j == i) self = static_cast<int>(k);
          offsets[k] = {(p.x[j] - p.x[i]) / h, (p.y[j] - p.y[i]) / h, (p.z[j] - p.z[i]) / h};
        }
        double res = 0;
        if (!solve_redistribution(offsets, self, s2, f, &res)) return false;
        nbr[i] = found;
        frac[i] = f;
        state[i] = 1;
        round_residual = std::max(round_residual, res);
        round_neighbors += static_cast<double>(found.size());
        ++round_solved;
        return true;
      };
#pragma omp for schedule(dynamic, 64)
      for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n0); ++i) {
        if (state[i] != 0) continue;
        if (solve_within(i, radius)) continue;
        if (o.insert && !is_weak[i] && !last_round) {
          // Free lattice nodes within R of the particle.
          const long r_cells = static_cast<long>(std::ceil(radius / h));
          const long ci = std::lround(p.x[i] / h), cj = std::lround(p.y[i] / h),
                     ck = std::lround(p.z[i] / h);
          for (long di = -r_cells; di <= r_cells; ++di)
            for (long dj = -r_cells; dj <= r_cells; ++dj)
              for (long dk = -r_cells; dk <= r_cells; ++dk) {
                const double nx = (ci + di) * h, ny = (cj + dj) * h, nz = (ck + dk) * h;
                const double ex = nx - p.x[i], ey = ny - p.y[i], ez = nz - p.z[i];
                if (ex * ex + ey * ey + ez * ez > radius * radius * (1 - 1e-9)) continue;
                // Occupied only by a particle that is also a neighbour of this one: a particle
                // near the node but outside R would leave the gap open.
                search.query(nx, ny, nz, o.hole_distance * h, near_node);
                bool occupied = false;
                for (int j : near_node) {
                  const double fx = p.x[j] - p.x[i], fy = p.y[j] - p.y[i], fz = p.z[j] - p.z[i];
                  occupied |= fx * fx + fy * fy + fz * fz <= radius * radius;
                }
                if (!occupied && o.blocked && o.blocked({p.x[i], p.y[i], p.z[i]}, {nx, ny, nz}))
                  occupied = true;  // across the wall
                if (!occupied) proposals[i].push_back(node_key(ci + di, cj + dj, ck + dk));
              }
          continue;
        }
        // Out of rounds: a wider neighbourhood, without insertions.
        if (!is_weak[i] && solve_within(i, 2 * radius)) continue;
        // Weak, not inserting, or out of rounds: keep the strength, or use signed fractions.
        if (o.signed_fallback && solve_redistribution_signed(offsets, self, s2, f)) {
          nbr[i] = found;
          frac[i] = f;
          state[i] = 3;
        } else {
          state[i] = 4;
        }
      }
    }
    max_residual = std::max(max_residual, round_residual);
    neighbor_total += round_neighbors;
    solved_count += round_solved;

    // Insert the proposed nodes in particle order (deterministic), each once.
    std::size_t added = 0;
    for (std::size_t i = 0; i < n0; ++i) {
      for (std::uint64_t key : proposals[i]) {
        if (!occupied_nodes.insert(key).second) continue;
        const long ki = static_cast<long>((key >> 42) & 0x1FFFFF) - (1l << 20);
        const long kj = static_cast<long>((key >> 21) & 0x1FFFFF) - (1l << 20);
        const long kk = static_cast<long>(key & 0x1FFFFF) - (1l << 20);
        const double s = o.core_radius > 0 ? o.core_radius : p.sigma[i];
        p.push_back(ki * h, kj * h, kk * h, 0, 0, 0, s);
        ++added;
      }
    }
    stats.inserted += added;
    bool pending = false;
    for (std::size_t i = 0; i < n0; ++i) pending |= state[i] == 0;
    if (!pending) break;
    if (added == 0 && round + 2 < o.max_rounds) round = o.max_rounds - 2;  // go to the last round
  }

  // Scatter in particle order.
  std::vector<double> gx(p.size(), 0.0), gy(p.size(), 0.0), gz(p.size(), 0.0);
  for (std::size_t i = 0; i < n0; ++i) {
    if (state[i] == 1 || state[i] == 3) {
      const double sx = p.gx[i], sy = p.gy[i], sz = p.gz[i];
      for (std::size_t k = 0; k < nbr[i].size(); ++k) {
        const int j = nbr[i][k];
        const double w = frac[i][k];
        gx[j] += w * sx;
        gy[j] += w * sy;
        gz[j] += w * sz;
      }
      if (state[i] == 1)
        ++stats.diffused;
      else
        ++stats.signed_fallback;
    } else {
      gx[i] += p.gx[i];
      gy[i] += p.gy[i];
      gz[i] += p.gz[i];
      if (state[i] != 2) ++stats.kept;
      if (state[i] != 2 && !is_weak[i]) ++stats.unresolved;
    }
  }
  p.gx.swap(gx);
  p.gy.swap(gy);
  p.gz.swap(gz);
  // Inserted particles that no solution used stay empty: drop them again.
  std::size_t w = n0;
  for (std::size_t i = n0; i < p.size(); ++i) {
    if (p.gx[i] == 0 && p.gy[i] == 0 && p.gz[i] == 0) continue;
    p.copy_particle(i, w++);
  }
  stats.inserted = w - n0;
  p.resize(w);
  stats.max_residual = max_residual;
  stats.mean_neighbors = solved_count ? neighbor_total / static_cast<double>(solved_count) : 0;
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace vortex
