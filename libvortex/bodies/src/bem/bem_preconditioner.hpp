#pragma once
// The boundary-element solve's preconditioner (vortex/math/bem_preconditioner.hpp): block Jacobi
// on the exact near blocks of clusters of nearby panels, after a coarse correction on a few large
// aggregates (docs/methods/bodies.md section 2). Built from the operator (its near blocks, and one
// product per coarse field); applied on the GPU where the operator's near blocks live there, else
// on the host's threads, by the same sums.

#include <Eigen/Dense>
#include <cstddef>
#include <memory>
#include <vector>

#include "vortex/bodies/bem_operator.hpp"
#include "vortex/math/bem_preconditioner.hpp"

namespace vortex::bodies {

namespace detail {
class BemPreconditionerDevice;
}

class BemPreconditioner {
 public:
  // Clusters of at most `cluster_size` panels; `aggregates` coarse aggregates (0: none), whose
  // setup takes kCoarseFields operator products each.
  BemPreconditioner(BemOperator& op, int cluster_size, int aggregates);
  ~BemPreconditioner();
  BemPreconditioner(const BemPreconditioner&) = delete;
  BemPreconditioner& operator=(const BemPreconditioner&) = delete;

  // out = M^-1 in (2 unknowns per panel).
  void apply(const Eigen::VectorXd& in, Eigen::VectorXd& out);
  bool on_device() const { return device_ != nullptr; }
  BemPreconditionerView view() const;

 private:
  void build_clusters(const BemOperator& op, int cluster_size);
  void build_coarse(BemOperator& op, int aggregates);
  void apply_on_host(const double* in, double* out);
  void smooth(const double* in, double* out) const;

  int panels_ = 0;
  std::vector<int> cluster_offsets_, cluster_panels_;
  std::vector<std::size_t> inverse_offsets_;
  std::vector<double> inverses_;
  std::vector<int> aggregate_offsets_, aggregate_panels_, aggregate_of_;
  std::vector<double> fields_, coarse_inverse_, ap_;
  std::vector<double> z_, y_, rest_;  // the host's coarse vectors and v - A P y
  std::unique_ptr<detail::BemPreconditionerDevice> device_;
};

}  // namespace vortex::bodies
