// The boundary-element solve's preconditioner against its definition assembled densely,
//   M^-1 v = P y + B (v - A P y),   y = (P^T A P)^-1 P^T v,
// with A the operator's dense matrix, P the coarse fields on the aggregates and B the block
// diagonal of the inverses of the clusters' exact near blocks; on the host, and on the GPU where
// the operator's near blocks live there.

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "bem/bem_preconditioner.hpp"
#include "vortex/bodies/bem_operator.hpp"
#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/solver.hpp"

namespace vortex::bodies {
namespace {

Eigen::VectorXd random_vector(Eigen::Index n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g;
  Eigen::VectorXd v(n);
  for (Eigen::Index k = 0; k < n; ++k) v(k) = g(rng);
  return v;
}

// M^-1 v from the dense operator and the preconditioner's partition of the panels.
Eigen::VectorXd defined(const BemOperator& op, const BemPreconditionerView& m,
                        const Eigen::VectorXd& v) {
  const Eigen::Index n = static_cast<Eigen::Index>(op.size());
  const Eigen::MatrixXd rows = op.dense_rows();
  Eigen::MatrixXd a(2 * n, 2 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    a.row(2 * i) = rows.row(3 * i);
    a.row(2 * i + 1) = rows.row(3 * i + 1);
  }
  // B: each cluster's exact tangential near block, inverted by a full-pivoting LU.
  Eigen::MatrixXd b = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  const NearField& nf = op.near_field();
  for (int c = 0; c < m.clusters; ++c) {
    const int begin = m.cluster_offsets[c], size = m.cluster_offsets[c + 1] - begin;
    Eigen::MatrixXd block = Eigen::MatrixXd::Zero(2 * size, 2 * size);
    for (int li = 0; li < size; ++li) {
      const int i = m.cluster_panels[begin + li];
      for (std::size_t k = nf.offsets[i]; k < nf.offsets[i + 1]; ++k)
        for (int lj = 0; lj < size; ++lj)
          if (m.cluster_panels[begin + lj] == nf.j[k])
            for (int r = 0; r < 2; ++r)
              for (int q = 0; q < 2; ++q)
                block(2 * li + r, 2 * lj + q) = nf.exact[6 * k + 2 * r + q];
    }
    const Eigen::MatrixXd inverse = block.fullPivLu().inverse();
    for (int li = 0; li < 2 * size; ++li)
      for (int lj = 0; lj < 2 * size; ++lj)
        b(2 * m.cluster_panels[begin + li / 2] + li % 2,
          2 * m.cluster_panels[begin + lj / 2] + lj % 2) = inverse(li, lj);
  }
  if (m.aggregates == 0) return b * v;
  Eigen::MatrixXd p = Eigen::MatrixXd::Zero(2 * n, m.coarse_size());
  for (Eigen::Index i = 0; i < n; ++i)
    for (int d = 0; d < kCoarseFields; ++d)
      for (int q = 0; q < 2; ++q)
        p(2 * i + q, kCoarseFields * m.aggregate_of[i] + d) =
            m.fields[12 * i + q * kCoarseFields + d];
  const Eigen::MatrixXd ap = a * p;
  const Eigen::VectorXd y = (p.transpose() * ap).fullPivLu().solve(p.transpose() * v);
  return p * y + b * (v - ap * y);
}

TEST(BemPreconditioner, EqualsItsDefinitionAssembledDensely) {
  // The thin ellipsoid: the coarse level's smooth fields matter there (docs/methods/bodies.md).
  const Surface s = make_surface(ellipsoid(6, 0.5, 0.5, 0.05));
  BemOptions o;
  o.solver.method = Method::Direct;  // the coarse level's A P to rounding
  const Eigen::VectorXd v = random_vector(2 * static_cast<Eigen::Index>(s.size()), 11);
  for (Backend backend : {Backend::Cpu, Backend::Cuda}) {
    if (backend == Backend::Cuda && !cuda_available()) {
      std::printf("no CUDA device: the GPU's preconditioner not tested\n");
      continue;
    }
    o.solver.backend = backend;
    BemOperator op(s, o);
    for (int aggregates : {0, 5}) {
      SCOPED_TRACE(std::to_string(aggregates) + " aggregates, backend " +
                   std::to_string(int(backend)));
      BemPreconditioner m(op, 16, aggregates);
      EXPECT_EQ(m.on_device(), backend == Backend::Cuda);
      EXPECT_EQ(m.view().aggregates, aggregates);  // the k-d tree's leaves
      Eigen::VectorXd out;
      m.apply(v, out);
      const Eigen::VectorXd expected = defined(op, m.view(), v);
      EXPECT_LT((out - expected).cwiseAbs().maxCoeff(), 1e-10 * expected.cwiseAbs().maxCoeff());
    }
  }
}

}  // namespace
}  // namespace vortex::bodies
