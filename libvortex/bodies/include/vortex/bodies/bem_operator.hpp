#pragma once
// The boundary-element operator of a closed body (docs/methods/bodies.md section 1): the tangential
// velocity on the inner side of the sheet, averaged over each panel, as a linear map of the sheet's
// two tangential components per panel. Its product is the library's treecode (the sheet as point
// sources at the source rule's points, the panels' target-rule points as targets, singular
// kernel) plus the sparse exact near-field corrections; the normal rows (the outer normal
// velocity, continuous across the sheet) come with it for the diagnostics.

#include <Eigen/Dense>
#include <memory>
#include <vector>

#include "vortex/bodies/bem_near_field.hpp"
#include "vortex/bodies/body_options.hpp"
#include "vortex/bodies/surface.hpp"
#include "vortex/solver.hpp"

namespace vortex::bodies {

namespace detail {
class BemNearBlocksDevice;
}

class BemOperator {
 public:
  // The near corrections run on the GPU where the treecode's backend resolves to CUDA.
  BemOperator(const Surface& surface, const BemOptions& options);
  ~BemOperator();
  BemOperator(const BemOperator&) = delete;
  BemOperator& operator=(const BemOperator&) = delete;

  const Surface& surface() const { return *surface_; }
  const BemRules& rules() const { return rules_; }
  const NearField& near_field() const { return near_; }
  std::size_t size() const { return surface_->size(); }
  // The far-field targets: target-rule points of every panel, panel-major.
  const Points& targets() const { return targets_; }
  // The wall time of the construction (the near blocks, exact and corrected, and their upload).
  double setup_seconds() const { return setup_seconds_; }
  // Whether the near corrections run on the GPU (the treecode's backend resolves to CUDA).
  bool on_device() const { return near_device_ != nullptr; }
  // The far field's arithmetic (BemOptions::solver, its Auto resolved): Float or Double.
  Precision far_precision() const { return solver_.options().precision; }

  // rows(3 i + r) for the coefficients gamma(2 j + b) (see bem_near_field.hpp for the rows). A
  // product asked again for the last product's sheet is answered from it.
  void apply(const Eigen::VectorXd& gamma, Eigen::VectorXd& rows);
  // The tangential rows only: the operator of the linear system.
  void apply_tangential(const Eigen::VectorXd& gamma, Eigen::VectorXd& out);
  // The same operator as a dense matrix (3N x 2N), point form for all pairs plus the corrections;
  // for small meshes only.
  Eigen::MatrixXd dense_rows() const;
  // Panel averages of row_r . u for a velocity given at the targets (3 values per panel).
  Eigen::VectorXd average_rows(const VelocityField& at_targets,
                               const std::array<double, 3>& uniform) const;
  // Adds row_r . v_i of a velocity v_i per panel to `rows`.
  void add_rows(const std::vector<Vec3>& per_panel, Eigen::VectorXd& rows) const;
  // Running totals over this operator's products: their count (and of those asked again for the
  // last product's sheet, answered from it), the wall time of the far field (the treecode with its
  // packing and averages) and of the near corrections, and the treecode's own stages summed over
  // its calls.
  struct Totals {
    long products = 0, repeated = 0;
    double seconds_far = 0, seconds_near = 0;
    StageTimes treecode;
  };
  const Totals& totals() const { return totals_; }
  void reset_totals() { totals_ = {}; }

 private:
  void far_rows(const Eigen::VectorXd& gamma, Eigen::VectorXd& rows);
  void add_near(const Eigen::VectorXd& gamma, Eigen::VectorXd& rows);

  const Surface* surface_;
  BemRules rules_;
  NearField near_;
  Points targets_;
  ParticleSet sources_;
  Solver solver_;
  VelocityField field_;
  // The last product's sheet and its three rows per panel.
  const Eigen::VectorXd& rows_of(const Eigen::VectorXd& gamma);
  Eigen::VectorXd rows_gamma_, rows_;
  std::unique_ptr<detail::BemNearBlocksDevice> near_device_;
  std::vector<double> near_rows_;  // the device's corrections, 3 per panel
  Totals totals_;
  double setup_seconds_ = 0;
};

}  // namespace vortex::bodies
