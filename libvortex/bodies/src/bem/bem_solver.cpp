#include "vortex/bodies/bem_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "vortex/bodies/sheet.hpp"
#include "vortex/kdtree.hpp"

namespace vortex::bodies {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// A group of nearby panels and the LU factors of their exact tangential near blocks.
struct BemSolver::Cluster {
  std::vector<int> panels;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
};

BemSolver::BemSolver(const Surface& surface, BemOptions options)
    : options_(options), op_(surface, options_) {
  gamma_.assign(2 * surface.size(), 0.0);
  normal_velocity_.assign(surface.size(), 0.0);
  if (options_.method == BemMethod::Dense) {
    const Eigen::MatrixXd rows = op_.dense_rows();
    Eigen::MatrixXd a(2 * surface.size(), 2 * surface.size());
    for (std::size_t i = 0; i < surface.size(); ++i) {
      a.row(2 * i) = rows.row(3 * i);
      a.row(2 * i + 1) = rows.row(3 * i + 1);
    }
    dense_lu_ = std::make_unique<Eigen::PartialPivLU<Eigen::MatrixXd>>(a);
  } else {
    build_preconditioner();
  }
}

BemSolver::~BemSolver() = default;

void BemSolver::build_preconditioner() {
  const Surface& s = op_.surface();
  const KdTree tree = build_kdtree(panel_centroids(s), nullptr, options_.cluster_size, 2);
  clusters_.resize(tree.leaves.size());
  const NearField& nf = op_.near_field();
#pragma omp parallel for schedule(dynamic, 4)
  for (std::ptrdiff_t c = 0; c < static_cast<std::ptrdiff_t>(clusters_.size()); ++c) {
    const KdNode& leaf = tree.nodes[tree.leaves[c]];
    Cluster& cl = clusters_[c];
    std::unordered_map<int, int> local;
    for (int k = leaf.begin; k < leaf.end; ++k) {
      local[static_cast<int>(tree.permutation[k])] = static_cast<int>(cl.panels.size());
      cl.panels.push_back(static_cast<int>(tree.permutation[k]));
    }
    const auto m = static_cast<Eigen::Index>(cl.panels.size());
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(2 * m, 2 * m);
    for (Eigen::Index li = 0; li < m; ++li) {
      const int i = cl.panels[li];
      for (std::size_t k = nf.offsets[i]; k < nf.offsets[i + 1]; ++k) {
        const auto it = local.find(nf.j[k]);
        if (it == local.end()) continue;
        for (int r = 0; r < 2; ++r)
          for (int b = 0; b < 2; ++b)
            a(2 * li + r, 2 * it->second + b) = nf.exact[6 * k + 2 * r + b];
      }
    }
    cl.lu.compute(a);
  }
  if (options_.coarse_aggregates > 0) build_coarse(options_.coarse_aggregates);
}

// The coarse level: on each of a few large k-d tree aggregates of panels, the uniform fields e_d
// and n x e_d (d = x, y, z) written in the panels' tangent bases (the sheet of a body in a
// uniform stream is n x (a uniform field), docs/methods/bodies.md section 1). A P comes from one
// operator product per field (6 per aggregate), A_c = P^T A P is small and dense. On a thin body
// the two faces' sheets cancel each other's tangential velocity at wavelengths longer than the
// thickness: those smooth modes have small eigenvalues that no cluster of the block Jacobi can see.
void BemSolver::build_coarse(int aggregates) {
  const Surface& s = op_.surface();
  const std::size_t n = s.size();
  const auto want = static_cast<std::size_t>(aggregates);
  const int bucket = static_cast<int>(std::max<std::size_t>(1, (n + want - 1) / want));
  const KdTree tree = build_kdtree(panel_centroids(s), nullptr, bucket, 2);
  constexpr int per = 6;
  const std::size_t count = tree.leaves.size();
  const auto nc = static_cast<Eigen::Index>(per * count);
  coarse_of_.assign(n, 0);
  coarse_panels_.assign(count, {});
  coarse_fields_.assign(12 * n, 0.0);
  std::vector<double> norm2(nc, 0.0);
  for (std::size_t c = 0; c < count; ++c) {
    const KdNode& leaf = tree.nodes[tree.leaves[c]];
    for (int k = leaf.begin; k < leaf.end; ++k) {
      const auto i = static_cast<std::size_t>(tree.permutation[k]);
      const Panel& p = s.panels[i];
      coarse_of_[i] = static_cast<int>(c);
      coarse_panels_[c].push_back(static_cast<int>(i));
      for (int d = 0; d < per; ++d) {
        Vec3 e{d % 3 == 0 ? 1.0 : 0.0, d % 3 == 1 ? 1.0 : 0.0, d % 3 == 2 ? 1.0 : 0.0};
        if (d >= 3) e = cross(p.normal, e);
        double* f = coarse_fields_.data() + 12 * i;
        f[d] = dot(e, p.t1);
        f[per + d] = dot(e, p.t2);
        norm2[per * c + d] += f[d] * f[d] + f[per + d] * f[per + d];
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < per; ++d) {
      const double scale = 1 / std::sqrt(norm2[per * coarse_of_[i] + d]);
      coarse_fields_[12 * i + d] *= scale;
      coarse_fields_[12 * i + per + d] *= scale;
    }
  // A P, one operator product per column; A_c = P^T A P.
  coarse_ap_.resize(2 * static_cast<Eigen::Index>(n), nc);
  Eigen::VectorXd column, out, y = Eigen::VectorXd::Zero(nc);
  for (Eigen::Index k = 0; k < nc; ++k) {
    y.setZero();
    y(k) = 1;
    column = Eigen::VectorXd::Zero(2 * static_cast<Eigen::Index>(n));
    coarse_prolong(y, column);
    op_.apply_tangential(column, out);
    coarse_ap_.col(k) = out;
  }
  Eigen::MatrixXd ac(nc, nc);
  for (Eigen::Index k = 0; k < nc; ++k) ac.col(k) = coarse_restrict(coarse_ap_.col(k));
  coarse_lu_ = std::make_unique<Eigen::PartialPivLU<Eigen::MatrixXd>>(ac);
}

Eigen::VectorXd BemSolver::coarse_restrict(const Eigen::VectorXd& v) const {
  constexpr int per = 6;
  const auto count = static_cast<std::ptrdiff_t>(coarse_panels_.size());
  Eigen::VectorXd z(per * count);
#pragma omp parallel for schedule(static) if (v.size() > 4096)
  for (std::ptrdiff_t c = 0; c < count; ++c) {
    double sum[per] = {};
    for (int i : coarse_panels_[c]) {
      const double* f = coarse_fields_.data() + 12 * i;
      for (int d = 0; d < per; ++d) sum[d] += f[d] * v(2 * i) + f[per + d] * v(2 * i + 1);
    }
    for (int d = 0; d < per; ++d) z(per * c + d) = sum[d];
  }
  return z;
}

void BemSolver::coarse_prolong(const Eigen::VectorXd& y, Eigen::VectorXd& out) const {
  constexpr int per = 6;
  const auto n = static_cast<std::ptrdiff_t>(coarse_of_.size());
#pragma omp parallel for schedule(static) if (n > 2048)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const double* f = coarse_fields_.data() + 12 * i;
    const double* yc = y.data() + per * coarse_of_[i];
    double t1 = 0, t2 = 0;
    for (int d = 0; d < per; ++d) {
      t1 += f[d] * yc[d];
      t2 += f[per + d] * yc[d];
    }
    out(2 * i) += t1;
    out(2 * i + 1) += t2;
  }
}

// M^-1 v = P y + B (v - A P y) with y = A_c^-1 P^T v: the coarse correction, then the block
// Jacobi B on what is left (A P is kept from the setup: no operator product here). A P's rows are
// summed over the threads (a matrix-vector product of 2N x 6 aggregates, read from memory once).
void BemSolver::precondition(const Eigen::VectorXd& in, Eigen::VectorXd& out) const {
  if (!coarse_lu_) {
    smooth(in, out);
    return;
  }
  const Eigen::VectorXd y = coarse_lu_->solve(coarse_restrict(in));
  Eigen::VectorXd rest(in.size());
  const auto rows = static_cast<std::ptrdiff_t>(in.size());
  const Eigen::Index nc = y.size();
#pragma omp parallel for schedule(static) if (rows > 4096)
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (Eigen::Index k = 0; k < nc; ++k) sum += coarse_ap_(r, k) * y(k);
    rest(r) = in(r)-sum;
  }
  smooth(rest, out);
  coarse_prolong(y, out);
}

void BemSolver::smooth(const Eigen::VectorXd& in, Eigen::VectorXd& out) const {
  out.resize(in.size());
#pragma omp parallel
  {
    Eigen::VectorXd local, y;  // a thread's, sized once for its largest cluster
#pragma omp for schedule(dynamic, 16)
    for (std::ptrdiff_t c = 0; c < static_cast<std::ptrdiff_t>(clusters_.size()); ++c) {
      const Cluster& cl = clusters_[c];
      const auto m = static_cast<Eigen::Index>(cl.panels.size());
      local.resize(2 * m);
      y.resize(2 * m);
      for (Eigen::Index k = 0; k < m; ++k)
        local.segment<2>(2 * k) = in.segment<2>(2 * cl.panels[k]);
      y.noalias() = cl.lu.solve(local);
      for (Eigen::Index k = 0; k < m; ++k) out.segment<2>(2 * cl.panels[k]) = y.segment<2>(2 * k);
    }
  }
}

void BemSolver::set_gamma(const std::vector<double>& gamma) {
  if (gamma.size() != gamma_.size())
    throw std::invalid_argument("BemSolver::set_gamma: expected " + std::to_string(gamma_.size()) +
                                " coefficients, got " + std::to_string(gamma.size()));
  gamma_ = gamma;
}

const BemStats& BemSolver::solve(const std::array<double, 3>& free_stream,
                                 const ParticleSet* particles, Solver* particle_solver,
                                 const std::vector<Vec3>* panel_velocity) {
  return solve_with(free_stream, particles ? SourcesView(*particles) : SourcesView(),
                    particle_solver, panel_velocity);
}

const BemStats& BemSolver::solve(const std::array<double, 3>& free_stream, SourcesView particles,
                                 Solver& particle_solver, const std::vector<Vec3>* panel_velocity) {
  return solve_with(free_stream, particles, &particle_solver, panel_velocity);
}

const BemStats& BemSolver::solve_with(const std::array<double, 3>& free_stream,
                                      SourcesView particles, Solver* particle_solver,
                                      const std::vector<Vec3>* panel_velocity) {
  const auto start = std::chrono::steady_clock::now();
  stats_ = BemStats{};
  op_.reset_totals();
  if (particles.size() > 0) {
    if (!particle_solver)
      throw std::invalid_argument("BemSolver::solve: particles given without a solver");
    particle_solver->evaluate(particles, op_.targets(), false, at_targets_);
  } else {
    at_targets_.resize(op_.targets().size(), false);
  }
  stats_.rhs_seconds = seconds_since(start);
  Eigen::VectorXd given = op_.average_rows(at_targets_, free_stream);
  if (panel_velocity) op_.add_rows(*panel_velocity, given);
  const std::size_t n = op_.size();
  Eigen::VectorXd b(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    b(2 * i) = -given(3 * i);
    b(2 * i + 1) = -given(3 * i + 1);
  }
  Eigen::VectorXd x = options_.warm_start
                          ? Eigen::Map<const Eigen::VectorXd>(gamma_.data(), gamma_.size()).eval()
                          : Eigen::VectorXd::Zero(2 * n);
  if (options_.method == BemMethod::Dense) {
    x = dense_lu_->solve(b);
    stats_.converged = true;
  } else {
    const GmresResult r = gmres(
        [&](const Eigen::VectorXd& in, Eigen::VectorXd& out) { op_.apply_tangential(in, out); },
        [&](const Eigen::VectorXd& in, Eigen::VectorXd& out) {
          const auto t = std::chrono::steady_clock::now();
          precondition(in, out);
          stats_.seconds_precondition += seconds_since(t);
        },
        b, x, {options_.tolerance, options_.restart, options_.max_iterations});
    stats_.iterations = r.iterations;
    stats_.converged = r.converged;
  }
  gamma_.assign(x.data(), x.data() + x.size());
  // Residual and outer normal velocity from one more product (u+ . n = u- . n).
  Eigen::VectorXd rows;
  op_.apply(x, rows);
  double res2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (int r = 0; r < 2; ++r) res2 += std::pow(rows(3 * i + r) - b(2 * i + r), 2);
    normal_velocity_[i] = rows(3 * i + 2) + given(3 * i + 2);
    stats_.max_normal_velocity =
        std::max(stats_.max_normal_velocity, std::abs(normal_velocity_[i]));
    stats_.mean_normal_velocity += std::abs(normal_velocity_[i]) / static_cast<double>(n);
  }
  stats_.residual = b.norm() > 0 ? std::sqrt(res2) / b.norm() : std::sqrt(res2);
  stats_.sheet_vorticity = sheet_total_vorticity(op_.surface(), gamma_);
  const BemOperator::Totals& t = op_.totals();
  stats_.products = t.products;
  stats_.repeated_products = t.repeated;
  stats_.seconds_far = t.seconds_far;
  stats_.seconds_near = t.seconds_near;
  stats_.treecode = t.treecode;
  stats_.seconds = seconds_since(start);
  return stats_;
}

}  // namespace vortex::bodies
