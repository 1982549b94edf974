#include "vortex/bodies/body_flow.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <omp.h>

#include "body_step/body_flow_stages.hpp"
#include "solver/text_excerpt.hpp"
#include "vortex/bodies/shedding.hpp"
#include "vortex/bodies/sheet.hpp"
#include "vortex/bodies/wall_nearby.hpp"
#include "vortex/fixed_pieces.hpp"

namespace vortex::bodies {

namespace detail {

Vec3 particle_vorticity(const ParticleSet& p, std::size_t from) {
  return sum_in_pieces<Vec3>(p.size() - from, [&](std::size_t begin, std::size_t end) {
    Vec3 sum;
    for (std::size_t i = from + begin; i < from + end; ++i) sum += Vec3{p.gx[i], p.gy[i], p.gz[i]};
    return sum;
  });
}

Vec3 particle_impulse(const ParticleSet& p) {
  return sum_in_pieces<Vec3>(p.size(), [&](std::size_t begin, std::size_t end) {
    Vec3 sum;
    for (std::size_t i = begin; i < end; ++i)
      sum += 0.5 * cross({p.x[i], p.y[i], p.z[i]}, {p.gx[i], p.gy[i], p.gz[i]});
    return sum;
  });
}

}  // namespace detail

using detail::Clock;
using detail::particle_impulse;
using detail::particle_vorticity;
using detail::since;

void validate(const BodyFlowOptions& o) {
  if (!(o.nu > 0) || !std::isfinite(o.nu))
    throw std::invalid_argument("body flow: viscosity nu must be positive (Re > 0)");
  if (!(o.spacing > 0) || !std::isfinite(o.spacing))
    throw std::invalid_argument("body flow: spacing h must be positive");
  for (double u : o.free_stream)
    if (!std::isfinite(u)) throw std::invalid_argument("body flow: free stream is not finite");
  if (!(o.min_wall_distance >= 0 && o.min_wall_distance < 1))
    throw std::invalid_argument("body flow: min_wall_distance must be in [0, 1) (units of h)");
  if (!(o.sheet_core >= 0) || !(o.wall_core >= 0))
    throw std::invalid_argument("body flow: sheet_core and wall_core must be >= 0");
  if (!(o.wall_exact_reach > 0) || !std::isfinite(o.wall_exact_reach))
    throw std::invalid_argument(
        "body flow: wall_exact_reach must be positive and finite (largest panel diameters)");
  if (!(o.outflow >= 0) || !std::isfinite(o.outflow))
    throw std::invalid_argument("body flow: outflow must be >= 0 and finite (0: none)");
  if (!(o.max_growth == 0 || o.max_growth > 1) || !std::isfinite(o.max_growth))
    throw std::invalid_argument("body flow: max_growth must be above 1 and finite (0: never)");
  if (o.outflow > 0 && norm(Vec3{o.free_stream[0], o.free_stream[1], o.free_stream[2]}) == 0)
    throw std::invalid_argument("body flow: an outflow needs a free stream (it lies downstream)");
}

Vec3 last_point_along(const Surface& surface, const Vec3& e) {
  Vec3 last{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  double reach = -HUGE_VAL;
  for (const auto& v : surface.mesh.vertices) {
    const Vec3 x{v[0], v[1], v[2]};
    if (dot(x, e) > reach) {
      reach = dot(x, e);
      last = x;
    }
  }
  return last;
}

double outflow_plane(const Surface& surface, const BodyFlowOptions& o) {
  if (o.outflow == 0) return HUGE_VAL;
  const Vec3 e = normalized(Vec3{o.free_stream[0], o.free_stream[1], o.free_stream[2]});
  // The body's size: the diagonal of its vertices' bounding box.
  Vec3 lo{HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi = -lo;
  for (const auto& v : surface.mesh.vertices) {
    lo = {std::min(lo.x, v[0]), std::min(lo.y, v[1]), std::min(lo.z, v[2])};
    hi = {std::max(hi.x, v[0]), std::max(hi.y, v[1]), std::max(hi.z, v[2])};
  }
  const double last = dot(last_point_along(surface, e), e);
  const double size = norm(hi - lo);
  if (o.outflow < size)
    throw std::invalid_argument("body flow: outflow " + vortex::detail::number_text(o.outflow) +
                                " lies closer than the body's size " +
                                vortex::detail::number_text(size) +
                                " (its bounding box's diagonal) behind it");
  return last + o.outflow;
}

BodyFlow::BodyFlow(const Surface& surface, const BemOptions& bem, Solver& particle_solver,
                   BodyFlowOptions options)
    : stages_(std::make_unique<Stages>(surface, bem, particle_solver.options().backend)),
      surface_(&surface),
      bem_(stages_->bem),
      solver_(&particle_solver),
      options_(std::move(options)),
      wall_(stages_->wall),
      near_wall_sums_(stages_->near_wall_sums),
      wall_points_(stages_->wall_points),
      near_wall_points_(stages_->near_wall_points),
      wall_near_(stages_->wall_near),
      integrator_(
          [this](const ParticleSet& stage, bool gradient, VelocityField& out) {
            solve_for(stage);
            particle_velocity(stage, gradient, out);
          },
          {options_.scheme, options_.stretching, options_.free_stream, options_.relaxation,
           options_.relaxation_rate}) {
  validate(options_);
  const double h = options_.spacing;
  if (options_.shedding.spacing == 0) options_.shedding.spacing = h;
  if (options_.vrm.spacing == 0) options_.vrm.spacing = h;
  if (options_.control.spacing == 0) options_.control.spacing = h;
  if (options_.sheet_core == 0) options_.sheet_core = h;
  if (options_.wall_core == 0) options_.wall_core = h / 2;
  // The owner's closest point, found at the start of the sub-step (prepare_wall), serves its
  // paths.
  options_.vrm.blocked = [this](std::size_t i, const std::array<double, 3>& p,
                                const std::array<double, 3>& q) {
    const WallPoint* known = wall_points_.find(i);
    return wall_.blocked({p[0], p[1], p[2]}, {q[0], q[1], q[2]},
                         known != nullptr && known->panel >= 0 ? known : nullptr);
  };
  // The closest points found at the start of the sub-step serve the particles of that start.
  options_.vrm.wall_distance = [this](std::size_t i, const std::array<double, 3>& p, double reach) {
    const Vec3 x{p[0], p[1], p[2]};
    // A found point's distance, or the bound of one found farther than 2 R (the VRM compares
    // distances with at most 2 R, so that the bound decides as the distance would).
    const WallPoint* known = wall_points_.find(i);
    if (known != nullptr && wall_.near(x, reach) && (known->panel >= 0 || known->distance > 0))
      return known->distance;
    return wall_.distance_bound(x, reach);
  };
  // The closest points are found once the VRM has its neighbour search, beside the device's
  // solves of the owners beyond their reach.
  options_.vrm.prepare_wall = [this](const ParticleSet& p, double dt) {
    find_wall_points(p, dt);
    if (options_.wall_diffusion) wall_images(dt);
  };
  // Particle control hands no strength through the body (the discoid's rim is thinner than the
  // radius its hand-overs may reach).
  options_.control.blocked = [this](std::size_t, const std::array<double, 3>& p,
                                    const std::array<double, 3>& q) {
    return wall_.blocked({p[0], p[1], p[2]}, {q[0], q[1], q[2]});
  };
  // Where the wall lies, for the control's decisions on the device (near_wall_points_ is free
  // between solves).
  options_.control.wall_nearby = [this](const ParticleSet& p, double reach, WallNearby& wall) {
    find_wall_nearby(wall_, p, reach, options_.control.backend, near_wall_points_, wall);
  };
  options_.vrm.wall_far = [this](const std::array<double, 3>& p, double dt) {
    return !wall_.near({p[0], p[1], p[2]}, wall_reach(dt));
  };
  if (options_.wall_diffusion)
    options_.vrm.moments = [this](std::size_t i, const std::array<double, 3>&, double,
                                  VrmMoments& m) {
      const std::int32_t k = wall_points_.place(i);
      if (k < 0 || !has_spread_[k]) return false;
      m = spread_[k];
      return true;
    };
  validate(options_.vrm);
  validate(options_.control);
  outflow_plane_ = outflow_plane(surface, options_);
  patches_ = shedding_patches(surface, options_.shedding.spacing);
  sheet_rule_ = bem_.op().rules().source;
  sheet_points_ = quadrature_points(surface, sheet_rule_);
}

BodyFlow::~BodyFlow() = default;

const std::vector<double>& BodyFlow::sheet() const {
  return bem_.gamma();
}

const BemStats& BodyFlow::sheet_stats() const {
  return bem_.stats();
}

void BodyFlow::record(const BemStats& s, BodyStepStats& stats) {
  ++stats.bem_solves;
  stats.bem_iterations += s.iterations;
  stats.bem_residual_max = std::max(stats.bem_residual_max, s.residual);
  stats.seconds_bem += s.seconds;
  stats.seconds_bem_rhs += s.rhs_seconds;
  stats.seconds_bem_products += s.seconds_far + s.seconds_near;
  stats.seconds_bem_preconditioner += s.seconds_precondition;
  stats.bem_products += s.products;
}

const BemStats& BodyFlow::solve_for(const ParticleSet& particles) {
  solved_known_ = false;
  const auto start = Clock::now();
  const SourcesView view = as_seen_by_wall(particles);
  const std::vector<Vec3>* near_wall = near_wall_velocity(view);
  const double wall_seconds = since(start);
  const BemStats& s = bem_.solve(options_.free_stream, view, *solver_, near_wall);
  if (current_) {
    record(s, *current_);
    current_->seconds_bem += wall_seconds;
    current_->seconds_bem_wall += wall_seconds;
  }
  return s;
}

const BemStats& BodyFlow::solve_sheet(const ParticleSet& particles) {
  const BemStats& s = solve_for(particles);
  solved_digest_ = digest(particles);
  solved_known_ = true;
  return s;
}

void BodyFlow::set_sheet(const std::vector<double>& gamma, const ParticleSet& particles) {
  bem_.set_gamma(gamma);
  solved_digest_ = digest(particles);
  solved_known_ = true;
}

bool BodyFlow::sheet_solved_for(const ParticleSet& particles) const {
  return solved_known_ && solved_digest_ == digest(particles);
}

void BodyFlow::diffuse(ParticleSet& particles, double dt, BodyStepStats& stats, bool sheet_solved) {
  if (!sheet_solved) solve_for(particles);
  const auto start = Clock::now();
  if (!options_.wall_diffusion) shed(particles, options_.shedding, stats);
  const auto vrm_start = Clock::now();
  wall_points_.clear();  // found by the VRM's prepare_wall hook
  const VrmStats v = vrm_diffuse(particles, options_.nu, dt, options_.vrm, vrm_workspace_);
  stats.seconds_vrm_wall += v.seconds_wall;
  stats.inserted += v.inserted;
  stats.vrm = v;
  stats.vrm_max_residual = std::max(stats.vrm_max_residual, v.max_residual);
  stats.seconds_vrm += since(vrm_start);
  if (options_.wall_diffusion) {
    // The slip of the sheet enters the fluid over dt as in Stokes's first problem; it is not
    // diffused again.
    SheddingOptions stokes = options_.shedding;
    stokes.diffusion_length = std::sqrt(2 * options_.nu * dt);
    shed(particles, stokes, stats);
  }
  keep_in_fluid(particles, stats, false);
  wall_points_.clear();  // the particles move from here on
  const Vec3 before = particle_impulse(particles);
  const auto control_start = Clock::now();
  const ParticleControlStats c = control_particles(particles, options_.control, control_workspace_);
  stats.seconds_control += since(control_start);
  stats.control = c;
  stats.removed += c.removed + c.merged;
  stats.control_threshold = c.threshold;
  if (v.strongest > 0)
    stats.vrm_growth = std::max(stats.vrm_growth, c.strongest_before / v.strongest);
  if (c.strongest_before > 0)
    stats.control_growth = std::max(stats.control_growth, c.strongest_after / c.strongest_before);
  stats.control_signed += c.signed_shares;
  stats.control_largest_share = std::max(stats.control_largest_share, c.largest_share);
  stats.strongest_after_diffuse = std::max(stats.strongest_after_diffuse, c.strongest_after);
  stats.correction_impulse += particle_impulse(particles) - before;
  stats.seconds_diffuse += since(start);
}

// Runs `work` with `current_` pointing at its statistics (for the stage hook), timed.
template <class Work>
BodyStepStats BodyFlow::recorded(double dt, Work&& work) {
  if (!(dt > 0) || !std::isfinite(dt))
    throw std::invalid_argument("body flow: time step must be positive");
  const auto start = Clock::now();
  BodyStepStats stats;
  current_ = &stats;
  try {
    work(stats);
  } catch (...) {
    current_ = nullptr;
    throw;
  }
  current_ = nullptr;
  stats.seconds_total = since(start);
  return stats;
}

BodyStepStats BodyFlow::step(ParticleSet& particles, double dt) {
  return recorded(dt, [&](BodyStepStats& stats) {
    stages_->shed.assign(surface_->size(), Vec3{});
    diffuse(particles, dt / 2, stats, sheet_solved_for(particles));
    const auto convect_start = Clock::now();
    const double bem_before = stats.seconds_bem;
    // The integrator moves the particles and changes their strengths in place: each keeps its
    // index through the stage.
    const auto n = static_cast<std::ptrdiff_t>(particles.size());
    strength_before_.resize(particles.size());
#pragma omp parallel for if (n > 20000)
    for (std::ptrdiff_t i = 0; i < n; ++i) strength_before_[i] = particles.strength(i);
    // The stage hook (integrator_) re-solves the BEM for each stage's particles.
    const Vec3 before = particle_vorticity(particles);
    integrator_.step(particles, dt);
    stats.vorticity_stretch = particle_vorticity(particles) - before;
    record_growth(particles, stats);
    keep_in_fluid(particles, stats, true);
    stats.seconds_convect += since(convect_start) - (stats.seconds_bem - bem_before);
    diffuse(particles, dt / 2, stats, false);
    if (options_.outflow > 0) leave_downstream(particles, stats);
    solve_sheet(particles);
    wall_pressure(dt, stats);
    wall_friction(particles, stats);
  });
}

void BodyFlow::record_growth(const ParticleSet& particles, BodyStepStats& stats) const {
  const std::size_t at = strongest(particles);
  if (at == particles.size()) return;
  const double largest = particles.strength(at);
  stats.strongest_after_convect = largest;
  const double before = strength_before_[at];
  stats.convect_growth = before > 0 ? largest / before : HUGE_VAL;
  stats.convect_growth_at = {particles.x[at], particles.y[at], particles.z[at]};
  if (options_.max_growth > 0 && stats.convect_growth > options_.max_growth) {
    const Vec3& x = stats.convect_growth_at;
    char text[400];
    std::snprintf(text, sizeof text,
                  "body flow: the convection grew the strongest particle's |Gamma| %.4g times in "
                  "one step (to %.4g at (%.4g, %.4g, %.4g); largest |grad u| %.4g), above "
                  "max_growth %.4g: the stretching has outrun the time step; take a smaller time "
                  "step, larger cores or finer panels",
                  stats.convect_growth, largest, x.x, x.y, x.z, stats.max_velocity_gradient,
                  options_.max_growth);
    throw std::runtime_error(text);
  }
}

BodyStepStats BodyFlow::diffusion_substep(ParticleSet& particles, double dt) {
  return recorded(dt, [&](BodyStepStats& stats) {
    diffuse(particles, dt, stats, sheet_solved_for(particles));
  });
}

Vec3 BodyFlow::impulse(const ParticleSet& particles) const {
  return particle_impulse(particles) + sheet_impulse(*surface_, bem_.gamma()) + outflow_impulse_;
}

Vec3 BodyFlow::total_vorticity(const ParticleSet& particles) const {
  return sheet_total_vorticity(*surface_, bem_.gamma()) + particle_vorticity(particles) +
         outflow_vorticity_;
}

void BodyFlow::set_outflow(const Vec3& impulse, const Vec3& vorticity) {
  for (double v : {impulse.x, impulse.y, impulse.z, vorticity.x, vorticity.y, vorticity.z})
    if (!std::isfinite(v))
      throw std::invalid_argument("body flow: the outflow's impulse and vorticity must be finite");
  outflow_impulse_ = impulse;
  outflow_vorticity_ = vorticity;
}

}  // namespace vortex::bodies
