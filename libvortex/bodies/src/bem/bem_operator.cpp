#include "vortex/bodies/bem_operator.hpp"

#include "bem/bem_near_blocks_cuda.hpp"
#include "vortex/math/bem_near_rows.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

namespace vortex::bodies {

namespace {

// The far-field product: singular kernel; for an Auto precision, float terms with double sums
// where their rounding (4.5e-7 of the rows on a thin ellipsoid) lies within GMRES's tolerance, else
// double.
SolverOptions singular(const BemOptions& bem) {
  SolverOptions o = bem.solver;
  o.core = Core::Singular;
  if (o.precision == Precision::Auto)
    o.precision = bem.tolerance >= kFloatProductTolerance ? Precision::Float : Precision::Double;
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Vec3 row_vector(const Panel& p, int r) {
  return r == 0 ? p.t1 : (r == 1 ? p.t2 : p.normal);
}

}  // namespace

void validate(const BemOptions& o) {
  for (int n : {o.target_points, o.source_points, o.near_points})
    if (n != 1 && n != 3 && n != 6 && n != 7)
      throw std::invalid_argument("BEM: quadrature rules have 1, 3, 6 or 7 points, got " +
                                  std::to_string(n));
  if (!(o.near_factor >= 1)) throw std::invalid_argument("BEM: near_factor must be >= 1");
  if (!(o.tolerance > 0 && o.tolerance < 1))
    throw std::invalid_argument("BEM: tolerance must be in (0, 1)");
  if (o.restart < 1 || o.max_iterations < 1 || o.cluster_size < 1)
    throw std::invalid_argument("BEM: restart, max_iterations and cluster_size must be >= 1");
  if (o.coarse_aggregates < kAutoAggregates)
    throw std::invalid_argument("BEM: coarse_aggregates must be >= 0, or kAutoAggregates");
  validate_options(o.solver);
}

BemOperator::BemOperator(const Surface& surface, const BemOptions& o)
    : surface_(&surface), solver_(singular(o)) {
  const auto start = std::chrono::steady_clock::now();
  validate(o);
  rules_ = {triangle_rule(o.target_points), triangle_rule(o.source_points),
            triangle_rule(o.near_points)};
  near_ = build_near_field(surface, rules_, o.near_factor * surface.max_diameter);
  targets_ = quadrature_points(surface, rules_.target);
  const Points src = quadrature_points(surface, rules_.source);
  sources_.resize(src.size());
  sources_.x = src.x;
  sources_.y = src.y;
  sources_.z = src.z;
  std::fill(sources_.sigma.begin(), sources_.sigma.end(), 1.0);  // read as 1 by the singular core
  if (resolve_backend(solver_.options().backend) == Backend::Cuda)
    near_device_ = detail::BemNearBlocksDevice::create(near_);
  setup_seconds_ = seconds_since(start);
}

BemOperator::~BemOperator() = default;

// The far-field product (the treecode over the source rule's points) as rows, 3 per panel.
void BemOperator::far_rows(const Eigen::VectorXd& gamma, Eigen::VectorXd& rows) {
  const auto start = std::chrono::steady_clock::now();
  const auto n = static_cast<std::ptrdiff_t>(size());
  const std::size_t ns = rules_.source.size();
#pragma omp parallel for schedule(static) if (n > 4096)
  for (std::ptrdiff_t j = 0; j < n; ++j) {
    const Panel& p = surface_->panels[j];
    const Vec3 g = gamma(2 * j) * p.t1 + gamma(2 * j + 1) * p.t2;
    for (std::size_t q = 0; q < ns; ++q) {
      const double w = p.area * rules_.source.weight[q];
      sources_.gx[j * ns + q] = w * g.x;
      sources_.gy[j * ns + q] = w * g.y;
      sources_.gz[j * ns + q] = w * g.z;
    }
  }
  // The points never move: the treecode's trees, lists and plan of the first product serve every
  // product after it (on the device-built path; elsewhere each product is a full evaluation).
  solver_.evaluate_same_points(SourcesView(sources_), PointsView(targets_), false, field_);
  rows = average_rows(field_, {0, 0, 0});
  ++totals_.products;
  totals_.seconds_far += seconds_since(start);
  totals_.treecode += field_.stats.times;
}

// The near corrections added to the rows.
void BemOperator::add_near(const Eigen::VectorXd& gamma, Eigen::VectorXd& rows) {
  const auto start = std::chrono::steady_clock::now();
  const auto n = static_cast<std::ptrdiff_t>(size());
  if (near_device_) {
    near_rows_.resize(3 * size());
    near_device_->corrections(gamma.data(), near_rows_.data());
#pragma omp parallel for schedule(static) if (n > 4096)
    for (std::ptrdiff_t k = 0; k < 3 * n; ++k) rows(k) += near_rows_[k];
  } else {
    const NearField& nf = near_;
    const BemNearBlocksView blocks{nf.offsets.data(), nf.j.data(), nf.tangential.data(),
                                   nf.normal.data()};
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      double r[3] = {rows(3 * i), rows(3 * i + 1), rows(3 * i + 2)};
      add_bem_near_rows(blocks, nf.offsets[i], nf.offsets[i + 1], 1, gamma.data(), r);
      for (int c = 0; c < 3; ++c) rows(3 * i + c) = r[c];
    }
  }
  totals_.seconds_near += seconds_since(start);
}

// A product for the sheet of the last one is that product again: GMRES's first product from a
// warm start is the last product of the solve before, and its residual's product the solve's own.
const Eigen::VectorXd& BemOperator::rows_of(const Eigen::VectorXd& gamma) {
  if (rows_gamma_.size() == gamma.size() && rows_gamma_ == gamma) {
    ++totals_.repeated;
    return rows_;
  }
  far_rows(gamma, rows_);
  add_near(gamma, rows_);
  rows_gamma_ = gamma;
  return rows_;
}

void BemOperator::apply(const Eigen::VectorXd& gamma, Eigen::VectorXd& rows) {
  rows = rows_of(gamma);
}

void BemOperator::apply_tangential(const Eigen::VectorXd& gamma, Eigen::VectorXd& out) {
  const Eigen::VectorXd& rows = rows_of(gamma);
  out.resize(2 * static_cast<Eigen::Index>(size()));
  for (std::size_t i = 0; i < size(); ++i) {
    out(2 * i) = rows(3 * i);
    out(2 * i + 1) = rows(3 * i + 1);
  }
}

Eigen::VectorXd BemOperator::average_rows(const VelocityField& f,
                                          const std::array<double, 3>& uniform) const {
  const auto n = static_cast<std::ptrdiff_t>(size());
  const std::size_t nt = rules_.target.size();
  Eigen::VectorXd rows = Eigen::VectorXd::Zero(3 * static_cast<Eigen::Index>(n));
#pragma omp parallel for schedule(static) if (n > 4096)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    Vec3 mean{uniform[0], uniform[1], uniform[2]};
    for (std::size_t t = 0; t < nt; ++t) {
      const std::size_t k = i * nt + t;
      mean += rules_.target.weight[t] * Vec3{f.u[0][k], f.u[1][k], f.u[2][k]};
    }
    for (int r = 0; r < 3; ++r) rows(3 * i + r) = dot(row_vector(surface_->panels[i], r), mean);
  }
  return rows;
}

void BemOperator::add_rows(const std::vector<Vec3>& v, Eigen::VectorXd& rows) const {
  if (v.size() != size())
    throw std::invalid_argument("BemOperator::add_rows: expected one velocity per panel");
  for (std::size_t i = 0; i < size(); ++i)
    for (int r = 0; r < 3; ++r) rows(3 * i + r) += dot(row_vector(surface_->panels[i], r), v[i]);
}

Eigen::MatrixXd BemOperator::dense_rows() const {
  const auto n = static_cast<std::ptrdiff_t>(size());
  Eigen::MatrixXd a(3 * n, 2 * n);
#pragma omp parallel for schedule(dynamic, 8)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    double blk[3][2];
    for (std::ptrdiff_t j = 0; j < n; ++j) {
      point_block(*surface_, rules_, static_cast<int>(i), static_cast<int>(j), blk);
      for (int r = 0; r < 3; ++r)
        for (int b = 0; b < 2; ++b) a(3 * i + r, 2 * j + b) = blk[r][b];
    }
    for (std::size_t k = near_.offsets[i]; k < near_.offsets[i + 1]; ++k)
      for (int b = 0; b < 2; ++b) {
        a(3 * i, 2 * near_.j[k] + b) += near_.tangential[4 * k + b];
        a(3 * i + 1, 2 * near_.j[k] + b) += near_.tangential[4 * k + 2 + b];
        a(3 * i + 2, 2 * near_.j[k] + b) += near_.normal[2 * k + b];
      }
  }
  return a;
}

}  // namespace vortex::bodies
