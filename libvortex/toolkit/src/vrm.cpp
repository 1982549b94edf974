// The vorticity redistribution method: one diffusion step of a particle set, with particles
// inserted at free lattice nodes where a neighbourhood has no non-negative solution.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "vortex/neighbor_search.hpp"
#include "vortex/vrm.hpp"

namespace vortex {

namespace {

// Lattice node key; nodes are h * (i, j, k) with |i|, |j|, |k| < 2^20.
std::uint64_t node_key(long i, long j, long k) {
  const std::uint64_t off = 1u << 20;
  return ((static_cast<std::uint64_t>(i + off) & 0x1FFFFF) << 42) |
         ((static_cast<std::uint64_t>(j + off) & 0x1FFFFF) << 21) |
         (static_cast<std::uint64_t>(k + off) & 0x1FFFFF);
}

// Solution state of a particle that owns strength this step.
enum State : char { kUnsolved, kSolved, kEmpty, kSigned, kKept };

double strength(const ParticleSet& p, std::size_t i) {
  return std::sqrt(p.gx[i] * p.gx[i] + p.gy[i] * p.gy[i] + p.gz[i] * p.gz[i]);
}

// One call of vrm_diffuse: rounds of solving every owner's neighbourhood (inserting particles at
// free nodes between rounds), then the redistribution of the strengths.
class VrmStep {
 public:
  VrmStep(ParticleSet& p, const VrmOptions& o, double radius, double s2)
      : p_(p),
        o_(o),
        h_(o.spacing),
        radius_(radius),
        free_(free_space_moments(s2)),
        n0_(p.size()),
        nbr_(n0_),
        frac_(n0_),
        state_(n0_, kUnsolved),
        is_weak_(n0_, 0) {
    if (o.moments) set_targets(s2 * h_ * h_);
    double max_strength = 0;
    for (std::size_t i = 0; i < n0_; ++i) max_strength = std::max(max_strength, strength(p, i));
    const double weak = o.insert_threshold * max_strength;
    for (std::size_t i = 0; i < n0_; ++i) {
      const double s = strength(p, i);
      if (s == 0) state_[i] = kEmpty;  // nothing to redistribute
      is_weak_[i] = s < weak;
    }
  }

  // The hook's moments per owner, in units of h (owners it leaves alone use free_).
  void set_targets(double two_nu_dt) {
    target_.assign(n0_, free_);
    const double h2 = h_ * h_;
#pragma omp parallel for if (n0_ > 500) schedule(dynamic, 256)
    for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n0_); ++i) {
      VrmMoments m;
      if (!o_.moments(static_cast<std::size_t>(i), {p_.x[i], p_.y[i], p_.z[i]}, two_nu_dt, m))
        continue;
      for (int k = 0; k < 3; ++k) m.first[k] /= h_;
      for (int k = 0; k < 6; ++k) m.second[k] /= h2;
      target_[i] = m;
    }
  }

  const VrmMoments& target(std::ptrdiff_t i) const {
    return target_.empty() ? free_ : target_[i];
  }

  void run(VrmStats& stats) {
    for (int round = 0; round < o_.max_rounds; ++round) {
      stats.rounds = round + 1;
      solve_round(round + 1 == o_.max_rounds);
      const std::size_t added = insert_proposed();
      stats.inserted += added;
      if (std::none_of(state_.begin(), state_.end(), [](char s) { return s == kUnsolved; })) break;
      if (added == 0 && round + 2 < o_.max_rounds) round = o_.max_rounds - 2;  // to the last round
    }
    redistribute(stats);
    drop_unused_insertions(stats);
    stats.max_residual = max_residual_;
    stats.mean_neighbors = solved_ ? neighbor_total_ / static_cast<double>(solved_) : 0;
  }

 private:
  // Per-thread scratch of the solves.
  struct Scratch {
    std::vector<int> found, near_node;
    std::vector<std::array<double, 3>> offsets;
    std::vector<double> f;
    int self = -1;
    double residual = 0, neighbors = 0;
    std::size_t solved = 0;
  };

  void solve_round(bool last_round) {
    const NeighborSearch search(p_);
    proposals_.assign(n0_, {});
    double round_residual = 0, round_neighbors = 0;
    std::size_t round_solved = 0;
#pragma omp parallel if (n0_ > 500) reduction(max : round_residual) \
    reduction(+ : round_neighbors, round_solved)
    {
      Scratch w;
#pragma omp for schedule(dynamic, 64)
      for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n0_); ++i)
        if (state_[i] == kUnsolved) solve_owner(search, i, last_round, w);
      round_residual = w.residual;
      round_neighbors = w.neighbors;
      round_solved = w.solved;
    }
    max_residual_ = std::max(max_residual_, round_residual);
    neighbor_total_ += round_neighbors;
    solved_ += round_solved;
  }

  void solve_owner(const NeighborSearch& search, std::ptrdiff_t i, bool last_round, Scratch& w) {
    if (solve_within(search, i, radius_, w)) return;
    if (o_.insert && !is_weak_[i] && !last_round) {
      propose_free_nodes(search, i, w);
      return;
    }
    // Out of rounds: a wider neighbourhood, without insertions.
    if (!is_weak_[i] && solve_within(search, i, 2 * radius_, w)) return;
    // Weak, not inserting, or out of rounds: keep the strength, or use signed fractions.
    if (o_.signed_fallback && solve_redistribution_signed(w.offsets, w.self, target(i), w.f)) {
      nbr_[i] = w.found;
      frac_[i] = w.f;
      state_[i] = kSigned;
    } else {
      state_[i] = kKept;
    }
  }

  // Solves owner i on its neighbours within r (w.offsets and w.self then describe them); on
  // success records its fractions.
  bool solve_within(const NeighborSearch& search, std::ptrdiff_t i, double r, Scratch& w) {
    search.query(p_.x[i], p_.y[i], p_.z[i], r, w.found);
    if (o_.blocked) {
      const std::array<double, 3> from{p_.x[i], p_.y[i], p_.z[i]};
      w.found.erase(std::remove_if(w.found.begin(), w.found.end(),
                                   [&](int j) {
                                     return j != i && o_.blocked(from, {p_.x[j], p_.y[j], p_.z[j]});
                                   }),
                    w.found.end());
    }
    w.offsets.resize(w.found.size());
    w.self = -1;
    for (std::size_t k = 0; k < w.found.size(); ++k) {
      const int j = w.found[k];
      if (j == i) w.self = static_cast<int>(k);
      w.offsets[k] = {(p_.x[j] - p_.x[i]) / h_, (p_.y[j] - p_.y[i]) / h_, (p_.z[j] - p_.z[i]) / h_};
    }
    double res = 0;
    if (!solve_redistribution(w.offsets, w.self, target(i), w.f, &res)) return false;
    nbr_[i] = w.found;
    frac_[i] = w.f;
    state_[i] = kSolved;
    w.residual = std::max(w.residual, res);
    w.neighbors += static_cast<double>(w.found.size());
    ++w.solved;
    return true;
  }

  // Free lattice nodes within R of particle i, as insertion proposals.
  void propose_free_nodes(const NeighborSearch& search, std::ptrdiff_t i, Scratch& w) {
    const long r_cells = static_cast<long>(std::ceil(radius_ / h_));
    const long ci = std::lround(p_.x[i] / h_), cj = std::lround(p_.y[i] / h_),
               ck = std::lround(p_.z[i] / h_);
    for (long di = -r_cells; di <= r_cells; ++di)
      for (long dj = -r_cells; dj <= r_cells; ++dj)
        for (long dk = -r_cells; dk <= r_cells; ++dk) {
          const double nx = (ci + di) * h_, ny = (cj + dj) * h_, nz = (ck + dk) * h_;
          const double ex = nx - p_.x[i], ey = ny - p_.y[i], ez = nz - p_.z[i];
          if (ex * ex + ey * ey + ez * ez > radius_ * radius_ * (1 - 1e-9)) continue;
          if (!node_is_free(search, i, nx, ny, nz, w)) continue;
          proposals_[i].push_back(node_key(ci + di, cj + dj, ck + dk));
        }
  }

  // Occupied only by a particle that is also a neighbour of i (a particle near the node but outside
  // R would leave the gap open), or across the wall.
  bool node_is_free(const NeighborSearch& search, std::ptrdiff_t i, double nx, double ny, double nz,
                    Scratch& w) const {
    search.query(nx, ny, nz, o_.hole_distance * h_, w.near_node);
    for (int j : w.near_node) {
      const double fx = p_.x[j] - p_.x[i], fy = p_.y[j] - p_.y[i], fz = p_.z[j] - p_.z[i];
      if (fx * fx + fy * fy + fz * fz <= radius_ * radius_) return false;
    }
    return !(o_.blocked && o_.blocked({p_.x[i], p_.y[i], p_.z[i]}, {nx, ny, nz}));
  }

  // Inserts the proposed nodes in particle order (deterministic), each once.
  std::size_t insert_proposed() {
    std::size_t added = 0;
    for (std::size_t i = 0; i < n0_; ++i) {
      for (std::uint64_t key : proposals_[i]) {
        if (!occupied_nodes_.insert(key).second) continue;
        const long ki = static_cast<long>((key >> 42) & 0x1FFFFF) - (1l << 20);
        const long kj = static_cast<long>((key >> 21) & 0x1FFFFF) - (1l << 20);
        const long kk = static_cast<long>(key & 0x1FFFFF) - (1l << 20);
        const double s = o_.core_radius > 0 ? o_.core_radius : p_.sigma[i];
        p_.push_back(ki * h_, kj * h_, kk * h_, 0, 0, 0, s);
        ++added;
      }
    }
    return added;
  }

  // Each owner's strength to its neighbours by its fractions (or kept), in particle order.
  void redistribute(VrmStats& stats) {
    std::vector<double> gx(p_.size(), 0.0), gy(p_.size(), 0.0), gz(p_.size(), 0.0);
    for (std::size_t i = 0; i < n0_; ++i) {
      if (state_[i] == kSolved || state_[i] == kSigned) {
        const double sx = p_.gx[i], sy = p_.gy[i], sz = p_.gz[i];
        for (std::size_t k = 0; k < nbr_[i].size(); ++k) {
          const int j = nbr_[i][k];
          const double f = frac_[i][k];
          gx[j] += f * sx;
          gy[j] += f * sy;
          gz[j] += f * sz;
        }
        if (state_[i] == kSolved)
          ++stats.diffused;
        else
          ++stats.signed_fallback;
      } else if (state_[i] == kKept && !target_.empty() && drifts(target_[i])) {
        // Its strength to a new particle at the drifted position (appended below).
        moved_.push_back(i);
        ++stats.kept;
        ++stats.moved;
        if (!is_weak_[i]) ++stats.unresolved;
      } else {
        gx[i] += p_.gx[i];
        gy[i] += p_.gy[i];
        gz[i] += p_.gz[i];
        if (state_[i] != kEmpty) ++stats.kept;
        if (state_[i] != kEmpty && !is_weak_[i]) ++stats.unresolved;
      }
    }
    std::vector<double> mx(moved_.size()), my(moved_.size()), mz(moved_.size());
    for (std::size_t k = 0; k < moved_.size(); ++k) {
      const std::size_t i = moved_[k];
      mx[k] = p_.gx[i];
      my[k] = p_.gy[i];
      mz[k] = p_.gz[i];
    }
    p_.gx.swap(gx);
    p_.gy.swap(gy);
    p_.gz.swap(gz);
    for (std::size_t k = 0; k < moved_.size(); ++k) {
      const std::size_t i = moved_[k];
      const VrmMoments& m = target_[i];
      p_.push_back(p_.x[i] + m.first[0] * h_, p_.y[i] + m.first[1] * h_, p_.z[i] + m.first[2] * h_,
                   mx[k], my[k], mz[k], p_.sigma[i]);
    }
  }

  static bool drifts(const VrmMoments& m) {
    return m.first[0] != 0 || m.first[1] != 0 || m.first[2] != 0;
  }

  // Inserted particles that no solution used stay empty: drop them again.
  void drop_unused_insertions(VrmStats& stats) {
    std::size_t w = n0_;
    for (std::size_t i = n0_; i < p_.size(); ++i) {
      if (p_.gx[i] == 0 && p_.gy[i] == 0 && p_.gz[i] == 0) continue;
      p_.copy_particle(i, w++);
    }
    stats.inserted = w - n0_ - stats.moved;
    p_.resize(w);
  }

  ParticleSet& p_;
  const VrmOptions& o_;
  const double h_, radius_;
  const VrmMoments free_;           // the free-space moments, in units of h
  const std::size_t n0_;            // particles that own strength this step
  std::vector<VrmMoments> target_;  // per owner, when the options have a moments hook
  std::vector<std::size_t> moved_;  // kept owners whose strength moves by the first moment
  std::vector<std::vector<int>> nbr_;
  std::vector<std::vector<double>> frac_;
  std::vector<char> state_, is_weak_;
  std::vector<std::vector<std::uint64_t>> proposals_;
  std::unordered_set<std::uint64_t> occupied_nodes_;
  double max_residual_ = 0, neighbor_total_ = 0;
  std::size_t solved_ = 0;
};

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
  VrmStep(p, o, radius, 2.0 * nu * dt / (h * h)).run(stats);
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

}  // namespace vortex
