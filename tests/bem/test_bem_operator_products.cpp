// The boundary-element operator's product (the far field by the direct sum, so that only rounding
// separates the backends) against the dense matrix of the same operator, on the CPU and with the
// near corrections on the GPU; a product asked again for the same sheet is the last one, not a new
// one; the far field in float where GMRES's tolerance allows.

#include <gtest/gtest.h>

#include <random>

#include "vortex/bodies/bem_operator.hpp"
#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/solver.hpp"

namespace vortex::bodies {
namespace {

Eigen::VectorXd random_sheet(std::size_t panels, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g;
  Eigen::VectorXd gamma(2 * static_cast<Eigen::Index>(panels));
  for (Eigen::Index k = 0; k < gamma.size(); ++k) gamma(k) = g(rng);
  return gamma;
}

double largest_difference(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

TEST(BemOperatorProducts, EqualTheDenseRowsOnEveryBackend) {
  // The thin ellipsoid: panels of both faces lie in each other's near field at the rim.
  const Surface s = make_surface(ellipsoid(6, 0.5, 0.5, 0.05));
  BemOptions o;
  o.solver.method = Method::Direct;
  const Eigen::VectorXd gamma = random_sheet(s.size(), 5), other = random_sheet(s.size(), 6);
  for (Backend backend : {Backend::Cpu, Backend::Cuda}) {
    if (backend == Backend::Cuda && !cuda_available()) {
      std::printf("no CUDA device: the GPU's near corrections not tested\n");
      continue;
    }
    o.solver.backend = backend;
    BemOperator op(s, o);
    const Eigen::MatrixXd dense = op.dense_rows();
    Eigen::VectorXd rows, again, tangential;
    op.apply(gamma, rows);
    EXPECT_LT(largest_difference(rows, dense * gamma), 1e-13) << int(backend);
    // The same sheet again: the same rows, from the last product.
    op.apply(gamma, again);
    EXPECT_EQ(op.totals().products, 1);
    EXPECT_EQ(op.totals().repeated, 1);
    EXPECT_EQ(again, rows);
    // Another sheet: a new product, whose tangential rows are those of the dense matrix.
    op.apply_tangential(other, tangential);
    EXPECT_EQ(op.totals().products, 2);
    const Eigen::VectorXd expected = dense * other;
    Eigen::VectorXd expected_tangential(tangential.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
      expected_tangential(2 * i) = expected(3 * i);
      expected_tangential(2 * i + 1) = expected(3 * i + 1);
    }
    EXPECT_LT(largest_difference(tangential, expected_tangential), 1e-13) << int(backend);
    // The near corrections are a large part of the rows: an error in them shows above.
    const NearField& nf = op.near_field();
    Eigen::VectorXd corrections = Eigen::VectorXd::Zero(rows.size());
    for (std::size_t i = 0; i < s.size(); ++i)
      for (std::size_t k = nf.offsets[i]; k < nf.offsets[i + 1]; ++k)
        for (int b = 0; b < 2; ++b) {
          const double g = gamma(2 * nf.j[k] + b);
          corrections(3 * i) += nf.tangential[4 * k + b] * g;
          corrections(3 * i + 1) += nf.tangential[4 * k + 2 + b] * g;
          corrections(3 * i + 2) += nf.normal[2 * k + b] * g;
        }
    EXPECT_GT(corrections.cwiseAbs().maxCoeff(), 0.1 * rows.cwiseAbs().maxCoeff());
  }
}

// With the treecode, products at the sheet's fixed points: each within the treecode's error of the
// dense rows, also for a sheet 1e8 times larger; where the trees are built on the device, the later
// products build no trees or lists (the operator's treecode stage times stay the first product's).
TEST(BemOperatorProducts, TreecodeProductsStayTheDenseRowsAndKeepTheirTrees) {
  const Surface s = make_surface(ellipsoid(8, 0.5, 0.5, 0.05));
  for (Backend backend : {Backend::Cpu, Backend::Cuda}) {
    if (backend == Backend::Cuda && !cuda_available()) {
      std::printf("no CUDA device: the device's reused trees not tested\n");
      continue;
    }
    BemOptions o;
    o.solver.backend = backend;
    BemOperator op(s, o);
    const Eigen::MatrixXd dense = op.dense_rows();
    Eigen::VectorXd rows;
    double first_setup = 0;
    for (unsigned seed : {7u, 8u, 9u}) {
      const Eigen::VectorXd gamma = random_sheet(s.size(), seed) * (seed == 9 ? 1e8 : 1.0);
      op.apply(gamma, rows);
      const Eigen::VectorXd expected = dense * gamma;
      EXPECT_LT((rows - expected).norm(), 1e-4 * expected.norm()) << int(backend) << " " << seed;
      if (seed == 7) first_setup = op.totals().treecode.tree + op.totals().treecode.lists;
    }
    EXPECT_EQ(op.totals().products, 3);
    if (backend == Backend::Cuda)
      EXPECT_EQ(op.totals().treecode.tree + op.totals().treecode.lists, first_setup);
  }
}

// The far field's precision follows GMRES's tolerance (Auto): float terms with double sums from
// kFloatProductTolerance on, whose rows stay within 1e-6 of the double product's (in the L2
// norm, the far field by the direct sum so that only rounding separates them), double below.
TEST(BemOperatorProducts, FloatTermsWhereTheToleranceAllows) {
  const Surface s = make_surface(ellipsoid(6, 0.5, 0.5, 0.05));
  const Eigen::VectorXd gamma = random_sheet(s.size(), 10);
  for (Backend backend : {Backend::Cpu, Backend::Cuda}) {
    if (backend == Backend::Cuda && !cuda_available()) {
      std::printf("no CUDA device: the device's float products not tested\n");
      continue;
    }
    BemOptions o;
    o.solver.method = Method::Direct;
    o.solver.backend = backend;
    o.tolerance = kFloatProductTolerance;
    BemOperator in_float(s, o);
    o.tolerance = 1e-8;
    BemOperator in_double(s, o);
    const Eigen::MatrixXd dense = in_double.dense_rows();
    Eigen::VectorXd a, b;
    in_float.apply(gamma, a);
    in_double.apply(gamma, b);
    const Eigen::VectorXd expected = dense * gamma;
    const double float_error = (a - expected).norm() / expected.norm();
    const double double_error = (b - expected).norm() / expected.norm();
    EXPECT_LT(float_error, 1e-6) << int(backend);
    EXPECT_GT(float_error, 1e-12) << int(backend);  // float arithmetic, not double's
    EXPECT_LT(double_error, 1e-13) << int(backend);
    std::printf("backend %d: products' relative L2 error, float %.2e, double %.2e\n", int(backend),
                float_error, double_error);
  }
}

}  // namespace
}  // namespace vortex::bodies
