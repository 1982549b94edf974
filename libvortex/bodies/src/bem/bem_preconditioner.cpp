#include "bem/bem_preconditioner.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "bem/bem_preconditioner_cuda.hpp"
#include "vortex/kdtree.hpp"

namespace vortex::bodies {

namespace {

// The pseudo-inverse of A_c: directions whose pivots lie below 1e-12 of the largest (zero columns
// of P, nearly dependent fields) are left out rather than inverted.
Eigen::MatrixXd pseudo_inverse(const Eigen::MatrixXd& a) {
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  cod.setThreshold(1e-12);
  cod.compute(a);
  return cod.pseudoInverse();
}

}  // namespace

BemPreconditioner::BemPreconditioner(BemOperator& op, int cluster_size, int aggregates)
    : panels_(static_cast<int>(op.size())) {
  build_clusters(op, cluster_size);
  if (aggregates > 0) build_coarse(op, aggregates);
  if (op.on_device()) device_ = detail::BemPreconditionerDevice::create(view());
}

BemPreconditioner::~BemPreconditioner() = default;

BemPreconditionerView BemPreconditioner::view() const {
  BemPreconditionerView m;
  m.panels = panels_;
  m.clusters = static_cast<int>(cluster_offsets_.size()) - 1;
  m.cluster_offsets = cluster_offsets_.data();
  m.cluster_panels = cluster_panels_.data();
  m.inverse_offsets = inverse_offsets_.data();
  m.inverses = inverses_.data();
  m.aggregates = aggregate_offsets_.empty() ? 0 : static_cast<int>(aggregate_offsets_.size()) - 1;
  m.aggregate_offsets = aggregate_offsets_.data();
  m.aggregate_panels = aggregate_panels_.data();
  m.aggregate_of = aggregate_of_.data();
  m.fields = fields_.data();
  m.coarse_inverse = coarse_inverse_.data();
  m.ap = ap_.data();
  return m;
}

// The clusters are the leaves of a k-d tree of the panels' centroids; each keeps the inverse of
// its exact tangential near block (inverse_offsets_ in the order of the leaves).
void BemPreconditioner::build_clusters(const BemOperator& op, int cluster_size) {
  const Surface& s = op.surface();
  const KdTree tree = build_kdtree(panel_centroids(s), nullptr, cluster_size, 2);
  const auto count = static_cast<std::ptrdiff_t>(tree.leaves.size());
  cluster_offsets_.assign(1, 0);
  inverse_offsets_.assign(1, 0);
  for (std::ptrdiff_t c = 0; c < count; ++c) {
    const KdNode& leaf = tree.nodes[tree.leaves[c]];
    const int m = leaf.end - leaf.begin;
    for (int k = leaf.begin; k < leaf.end; ++k)
      cluster_panels_.push_back(static_cast<int>(tree.permutation[k]));
    cluster_offsets_.push_back(cluster_offsets_.back() + m);
    inverse_offsets_.push_back(inverse_offsets_.back() + 4 * static_cast<std::size_t>(m) * m);
  }
  inverses_.assign(inverse_offsets_.back(), 0.0);
  const NearField& nf = op.near_field();
#pragma omp parallel for schedule(dynamic, 4)
  for (std::ptrdiff_t c = 0; c < count; ++c) {
    const int begin = cluster_offsets_[c], m = cluster_offsets_[c + 1] - begin;
    std::unordered_map<int, int> local;
    for (int k = 0; k < m; ++k) local[cluster_panels_[begin + k]] = k;
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(2 * m, 2 * m);
    for (int li = 0; li < m; ++li) {
      const int i = cluster_panels_[begin + li];
      for (std::size_t k = nf.offsets[i]; k < nf.offsets[i + 1]; ++k) {
        const auto it = local.find(nf.j[k]);
        if (it == local.end()) continue;
        for (int r = 0; r < 2; ++r)
          for (int b = 0; b < 2; ++b)
            a(2 * li + r, 2 * it->second + b) = nf.exact[6 * k + 2 * r + b];
      }
    }
    Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        inverses_.data() + inverse_offsets_[c], 2 * m, 2 * m) = a.partialPivLu().inverse();
  }
}

// The coarse level: on each of a few large k-d tree aggregates of panels, the uniform fields e_d
// and n x e_d (d = x, y, z) written in the panels' tangent bases (the sheet of a body in a
// uniform stream is n x (a uniform field), docs/methods/bodies.md section 1), each column of P
// normalized. A P comes from one operator product per column, A_c = P^T A P is small and dense. On
// a thin body the two faces' sheets cancel each other's tangential velocity at wavelengths longer
// than the thickness: those smooth modes have small eigenvalues that no cluster of the block
// Jacobi can see. An aggregate holds at least kLeastAggregatePanels panels (fewer aggregates than
// asked on a small mesh: 6 fields on a few panels span most of their unknowns, and A_c becomes
// singular). A field that vanishes on an aggregate (n x e_d and e_d's tangential part where the
// normal is e_d throughout, on a flat patch) is left out as a zero column, and A_c is inverted as
// a pseudo-inverse, so that nearly dependent fields cannot make it blow up.
void BemPreconditioner::build_coarse(BemOperator& op, int aggregates) {
  constexpr std::size_t kLeastAggregatePanels = 32;
  const Surface& s = op.surface();
  const std::size_t n = s.size();
  const auto want = std::min(static_cast<std::size_t>(aggregates),
                             std::max<std::size_t>(1, n / kLeastAggregatePanels));
  const int bucket = static_cast<int>(std::max<std::size_t>(1, (n + want - 1) / want));
  const KdTree tree = build_kdtree(panel_centroids(s), nullptr, bucket, 2);
  constexpr int per = kCoarseFields;
  const std::size_t count = tree.leaves.size();
  const auto nc = static_cast<Eigen::Index>(per * count);
  aggregate_of_.assign(n, 0);
  aggregate_offsets_.assign(1, 0);
  aggregate_panels_.clear();
  fields_.assign(12 * n, 0.0);
  std::vector<double> norm2(nc, 0.0);
  for (std::size_t c = 0; c < count; ++c) {
    const KdNode& leaf = tree.nodes[tree.leaves[c]];
    for (int k = leaf.begin; k < leaf.end; ++k) {
      const auto i = static_cast<std::size_t>(tree.permutation[k]);
      const Panel& p = s.panels[i];
      aggregate_of_[i] = static_cast<int>(c);
      aggregate_panels_.push_back(static_cast<int>(i));
      for (int d = 0; d < per; ++d) {
        Vec3 e{d % 3 == 0 ? 1.0 : 0.0, d % 3 == 1 ? 1.0 : 0.0, d % 3 == 2 ? 1.0 : 0.0};
        if (d >= 3) e = cross(p.normal, e);
        double* f = fields_.data() + 12 * i;
        f[d] = dot(e, p.t1);
        f[per + d] = dot(e, p.t2);
        norm2[per * c + d] += f[d] * f[d] + f[per + d] * f[per + d];
      }
    }
    aggregate_offsets_.push_back(static_cast<int>(aggregate_panels_.size()));
  }
  // Each column normalized; one far below its aggregate's largest is a vanishing field: zero.
  std::vector<double> scale(nc, 0.0);
  for (std::size_t c = 0; c < count; ++c) {
    const double largest =
        *std::max_element(norm2.begin() + per * c, norm2.begin() + per * (c + 1));
    for (int d = 0; d < per; ++d) {
      const double q = norm2[per * c + d];
      scale[per * c + d] = q > 1e-20 * largest && q > 0 ? 1 / std::sqrt(q) : 0.0;
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < per; ++d) {
      const double scale_d = scale[per * aggregate_of_[i] + d];
      fields_[12 * i + d] *= scale_d;
      fields_[12 * i + per + d] *= scale_d;
    }
  // A P, one operator product per column (P's column: field d on aggregate c, zero elsewhere);
  // A_c = P^T A P.
  const auto rows = static_cast<Eigen::Index>(2 * n);
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> ap(rows, nc);
  Eigen::VectorXd column(rows), out;
  for (Eigen::Index k = 0; k < nc; ++k) {
    const int c = static_cast<int>(k / per), d = static_cast<int>(k % per);
    column.setZero();
    for (int q = aggregate_offsets_[c]; q < aggregate_offsets_[c + 1]; ++q) {
      const int i = aggregate_panels_[q];
      column(2 * i) = fields_[12 * i + d];
      column(2 * i + 1) = fields_[12 * i + per + d];
    }
    op.apply_tangential(column, out);
    ap.col(k) = out;
  }
  ap_.assign(ap.data(), ap.data() + ap.size());
  const BemPreconditionerView m = view();
  Eigen::MatrixXd ac(nc, nc);
  for (Eigen::Index k = 0; k < nc; ++k) {
    const Eigen::VectorXd col = ap.col(k);
    for (Eigen::Index r = 0; r < nc; ++r)
      ac(r, k) = bem_coarse_restrict(m, static_cast<int>(r / per), static_cast<int>(r % per), 0, 1,
                                     col.data());
  }
  coarse_inverse_.resize(static_cast<std::size_t>(nc * nc));
  Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      coarse_inverse_.data(), nc, nc) = pseudo_inverse(ac);
}

void BemPreconditioner::apply(const Eigen::VectorXd& in, Eigen::VectorXd& out) {
  out.resize(in.size());
  if (device_)
    device_->apply(in.data(), out.data());
  else
    apply_on_host(in.data(), out.data());
}

// B v: each cluster's unknowns times its block's inverse.
void BemPreconditioner::smooth(const double* in, double* out) const {
  const BemPreconditionerView m = view();
#pragma omp parallel for schedule(dynamic, 16)
  for (int c = 0; c < m.clusters; ++c) {
    const int begin = m.cluster_offsets[c], size = 2 * (m.cluster_offsets[c + 1] - begin);
    for (int r = 0; r < size; ++r)
      out[2 * m.cluster_panels[begin + r / 2] + r % 2] = bem_cluster_solve(m, c, r, 0, 1, in);
  }
}

// M^-1 v = P y + B (v - A P y), y = A_c^-1 P^T v.
void BemPreconditioner::apply_on_host(const double* in, double* out) {
  const BemPreconditionerView m = view();
  if (m.aggregates == 0) {
    smooth(in, out);
    return;
  }
  const int nc = m.coarse_size();
  const std::ptrdiff_t rows = 2 * static_cast<std::ptrdiff_t>(panels_);
  z_.resize(nc);
  y_.resize(nc);
  rest_.resize(rows);
#pragma omp parallel for schedule(static)
  for (int k = 0; k < nc; ++k)
    z_[k] = bem_coarse_restrict(m, k / kCoarseFields, k % kCoarseFields, 0, 1, in);
#pragma omp parallel for schedule(static)
  for (int r = 0; r < nc; ++r) y_[r] = bem_coarse_solve(m, r, 0, 1, z_.data());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t r = 0; r < rows; ++r)
    rest_[r] = in[r] - bem_coarse_product(m, static_cast<std::size_t>(r), 0, 1, y_.data());
  smooth(rest_.data(), out);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < panels_; ++i)
    for (int b = 0; b < 2; ++b) out[2 * i + b] += bem_coarse_prolong(m, i, b, y_.data());
}

}  // namespace vortex::bodies
