#pragma once
// Vortex particles around a body at rest in a free stream: one time step as in Stock & Gharakhani
// 2008 section IV.C (docs/methods/bodies.md section 4), by Strang splitting:
//   diffuse dt/2  ->  convect dt (2-stage Runge-Kutta; at each stage the BEM is re-solved and the
//   particles move with the free stream plus the particles' and the sheet's velocity, with
//   stretching)  ->  diffuse dt/2.
// A diffusion sub-step of length t solves the BEM; diffuses the particles with the VRM
// (neighbours and inserted particles never across the body), next to the wall with the moments of
// the no-flux half-space heat kernel (the mirror image's drift away from the wall); sheds the
// sheet as the vorticity that its slip puts into the fluid over t (Stokes's first problem: layers
// of the half-space heat-kernel profile, shedding.hpp); reflects particles that entered the body,
// pushes particles out to a minimum distance from the wall and merges or removes particles.
// With wall_diffusion off, the sheet is shed as one particle per patch at shedding.offset h
// before the VRM and the VRM uses the free-space moments everywhere.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "vortex/bodies/body_options.hpp"
#include "vortex/bodies/quadrature.hpp"
#include "vortex/bodies/surface.hpp"
#include "vortex/particle_control.hpp"
#include "vortex/time_integration.hpp"
#include "vortex/vrm.hpp"

namespace vortex::bodies {

// The stages' own state, declared in the library's sources (bem_solver.hpp, wall.hpp,
// near_wall.hpp): a program that only steps the flow needs none of their headers.
class BemSolver;
class WallQueries;
class NearWallSums;
struct KnownWallPoints;
struct NearWallParticles;

struct BodyFlowOptions {
  double nu = 0;  // kinematic viscosity (> 0)
  std::array<double, 3> free_stream{1, 0, 0};
  double spacing = 0;  // h (> 0): shed patches, VRM lattice, merge distance
  TimeScheme scheme = TimeScheme::Heun;
  // Classical by default next to a body. The transpose scheme's antisymmetric pairs conserve the
  // particles' total vorticity whatever the wall does, while in the continuum the fluid's vortex
  // lines end on the wall and its total changes by the flux (omega . n) u through it. On the
  // 10:10:1 discoid at 60 degrees (docs/VALIDATION.md, D1) the transpose scheme lets the
  // total vorticity of particles and sheet drift until the run breaks down near t = 1; the
  // classical one keeps it bounded. On the sphere (closed vortex rings) both give the same drag.
  Stretching stretching = Stretching::Classical;
  double relaxation = 0;           // TimeIntegratorOptions::relaxation
  double relaxation_rate = 0;      // TimeIntegratorOptions::relaxation_rate
  double min_wall_distance = 0.2;  // particles are kept at least this * h from the wall
  double sheet_core = 0;           // sigma of the sheet's points as sources for the particles
                                   // (0: h)
  // Largest core radius of the particles as the wall sees them in the BEM right-hand side
  // (0: h / 2). Cores that reach through the wall weaken the particles' field at the wall below
  // what their far field is, and the sheet then makes up the difference with vorticity of its own
  // (a spurious impulse, seen as a drag several times too large in the first steps).
  double wall_core = 0;
  // Next to the wall the BEM right-hand side takes each particle as a point vortex, with the exact
  // average of its velocity over every panel within the near radius (panel_influence.hpp, by
  // reciprocity with the panel's source field), in place of the cored particle at the panels'
  // quadrature points. Within a core radius or a panel size of the wall, the cored particle
  // reaches through the wall (hiding part of its vorticity from the sheet, which then sheds it
  // again) and the few quadrature points of a panel cannot resolve its field. Off: cores only.
  bool wall_exact = true;
  // The reach of those exact averages, in largest panel diameters (or 2.5 of the particle's core,
  // where larger): a particle adds them to every panel whose centroid lies within its reach plus
  // a panel diameter. Beyond, the cored particle's quadrature is the exact average to a few 1e-5
  // of the sheet (test SheetTotals.ExactNearWallAveragesBeyondTheirReachChangeNothing); 2.5 (the
  // near blocks' radius) gives the discoid's rehearsal the same forces to 3-4 digits with 2.4
  // times the near-wall sums' work.
  double wall_exact_reach = 1.5;
  // The wall's diffusion: the half-space heat kernel for what is shed and for the particles next
  // to the wall (true), or one particle per patch at shedding.offset and free-space VRM moments.
  bool wall_diffusion = true;
  // The wake's outflow (0: none): at the end of each step the particles farther downstream than
  // this from the body's last point along the free stream leave the flow. Their impulse and
  // vorticity are kept as the wake's that left (impulse(), total_vorticity()), so that the force
  // from the impulse sees no jump: far downstream the wake's impulse no longer changes. It bounds
  // the particles' count of long runs; at least the body's size (its bounding box's diagonal).
  double outflow = 0;
  // A step whose convection grows the strongest particle's |Gamma| more than this many times
  // throws std::runtime_error (0: never): the stretching has outrun the time step (the runs kept
  // in docs/data grow it at most 3.7 times a step; the one blow-up recorded, 24 and then 1681
  // times), and the forces and strengths after it would be numbers of no flow.
  double max_growth = 100;
  SheddingOptions shedding;  // spacing filled from `spacing` when 0
  VrmOptions vrm;            // spacing filled from `spacing` when 0; wall added
  // Spacing filled from `spacing` when 0. The survivors of each control in its grid's order
  // (ParticleControlOptions::spatial_order): the step's passes over neighbours then read less
  // scattered memory; the particles' indices change every step anyway (shedding, VRM, control).
  ParticleControlOptions control = [] {
    ParticleControlOptions c;
    c.spatial_order = true;
    return c;
  }();
};

// Throws std::invalid_argument naming the bad option.
void validate(const BodyFlowOptions& options);
// The body's last point along the unit vector e: the vertex of the largest x . e (the first of
// equals); infinities for a mesh without vertices.
Vec3 last_point_along(const Surface& surface, const Vec3& e);
// Where the outflow of options that validate() accepts lies along the free stream's direction
// (x . e beyond it leaves): `outflow` behind the body's last point, or infinity without one.
// Throws std::invalid_argument for an outflow closer than the body's size.
double outflow_plane(const Surface& surface, const BodyFlowOptions& options);

// What one step did and cost.
struct BodyStepStats {
  int bem_solves = 0;
  int bem_iterations = 0;
  double bem_residual_max = 0;
  std::size_t shed = 0, reflected = 0, pushed = 0, inserted = 0, removed = 0;
  std::size_t outflow = 0;  // particles that left through the outflow (BodyFlowOptions::outflow)
  Vec3 correction_impulse;  // impulse change from reflections, push-outs and merges
  // The particles' total vorticity (sum of their strengths) changes only by the sheet shed into
  // them and by the stretching; the VRM, the particle control and the wall's push-out keep it.
  // The step's two parts: what the shedding added, what the convection changed.
  Vec3 vorticity_shed, vorticity_stretch;
  // The stages, apart: the BEM solves (with their right-hand sides), the convection without its
  // BEM solves (velocity evaluations, moves, wall), the diffusion sub-steps without theirs.
  double seconds_bem = 0, seconds_convect = 0, seconds_diffuse = 0, seconds_total = 0;
  double seconds_bem_wall = 0;  // of seconds_bem: the exact near-wall part of the right-hand sides
  // Of seconds_bem, apart from the near-wall part: the particles' field at the panels (the rest of
  // the right-hand sides), GMRES's operator products (far field and near blocks) and its
  // preconditioner; and the number of products computed.
  double seconds_bem_rhs = 0, seconds_bem_products = 0, seconds_bem_preconditioner = 0;
  long bem_products = 0;
  // Of seconds_convect: the velocity evaluations (the field and gradient of the particles and of
  // the sheet's quadrature points at the particles, one per stage of the integrator).
  double seconds_velocity = 0;
  // Of seconds_diffuse: the VRM (with the wall's image moments) and the particle control.
  double seconds_vrm = 0, seconds_control = 0;
  // Of seconds_diffuse: the shedding of the sheet into particles; of seconds_diffuse and
  // seconds_convect: the reflection and push-out of particles from the wall (keep_in_fluid).
  double seconds_shed = 0, seconds_keep_in_fluid = 0;
  double seconds_vrm_wall = 0;   // of seconds_vrm: the wall (VrmStats::seconds_wall)
  VrmStats vrm;                  // the last diffusion sub-step's VRM (counts, phase times)
  ParticleControlStats control;  // the last diffusion sub-step's particle control (phase times)
  // The last particle control's strength threshold of removal (its relative threshold times the
  // largest strength, or higher to keep within max_particles).
  double control_threshold = 0;
  double vrm_max_residual = 0;  // largest moment residual of the VRM's fractions (units of h)
  // GPU memory the library's buffers held after the step's last velocity evaluation (0 on the
  // CPU backend).
  std::uint64_t device_bytes = 0;
  // Where strengths grow: the largest |Gamma| after the convection stage, the ratio of that
  // particle's |Gamma| after the stage to before it (its stretching) and its place; and the largest
  // |Gamma| after either diffusion sub-step (the VRM's redistribution, shedding, control).
  double convect_growth = 0;
  Vec3 convect_growth_at;
  double strongest_after_convect = 0, strongest_after_diffuse = 0;
  // Of the diffusion sub-steps, the largest ratio of the largest |Gamma| after to before: of the
  // VRM with the shedding and the wall's push-out, and of the particle control; and the control's
  // hand-overs with signed fractions and its largest |share|.
  double vrm_growth = 0, control_growth = 0;
  std::size_t control_signed = 0;
  double control_largest_share = 0;
  double max_velocity_gradient = 0;  // largest |grad u| (Frobenius) at a particle over the stages
  // The pressure force -integral p n dS (per unit density) of the step, p from the vorticity
  // shed in it (surface_pressure.hpp): a route to the force apart from the impulse's.
  Vec3 pressure_force;
  // The skin friction's, nu integral omega x n dS (per unit density) at the step's end, omega the
  // particles' regularized vorticity at the panels' centroids.
  Vec3 friction_force;
};

class BodyFlow {
 public:
  // `surface` and `particle_solver` must outlive the BodyFlow.
  BodyFlow(const Surface& surface, const BemOptions& bem, Solver& particle_solver,
           BodyFlowOptions options);
  ~BodyFlow();
  BodyFlow(const BodyFlow&) = delete;  // the VRM's wall test refers to this object
  BodyFlow& operator=(const BodyFlow&) = delete;

  // Solves the BEM for the particles as they are (at t = 0+ with none: the potential flow).
  const BemStats& solve_sheet(const ParticleSet& particles);
  // Takes `gamma` as the sheet solved for `particles` (a checkpoint's), without solving.
  void set_sheet(const std::vector<double>& gamma, const ParticleSet& particles);
  // Advances the particles by dt and leaves the sheet solved for the new positions. A step that
  // starts from the particles the sheet was last solved for (by the last step, solve_sheet or
  // set_sheet: the same digest) starts from that sheet rather than solving it again, which
  // would give the same sheet (GMRES stops at once at a warm start that meets its tolerance).
  BodyStepStats step(ParticleSet& particles, double dt);
  // One diffusion sub-step of length dt alone, as step() takes two of them (the BEM solved for the
  // particles first): for timing the diffusion by itself.
  BodyStepStats diffusion_substep(ParticleSet& particles, double dt);

  // Velocity (and gradient) at the particles from the particles and the current sheet.
  VelocityField particle_velocity(const ParticleSet& particles, bool gradient);
  // The same into `out`, reusing its storage.
  void particle_velocity(const ParticleSet& particles, bool gradient, VelocityField& out);
  // Velocity (and gradient) at any points from the particles and the current sheet (the free
  // stream not added): a field sampled away from the particles. Points on the wall or inside the
  // body get the regularized sheet's field there, which is not the flow's.
  void velocity_at(const ParticleSet& particles, PointsView points, bool gradient,
                   VelocityField& out);

  // Linear impulse (per unit density) of the particles plus the current sheet, plus that of the
  // particles that left through the outflow.
  Vec3 impulse(const ParticleSet& particles) const;
  // Total vorticity of the particles plus the current sheet, plus that of the particles that left
  // through the outflow.
  Vec3 total_vorticity(const ParticleSet& particles) const;
  // What the particles that left through the outflow took with them, and (a checkpoint's) setting
  // it on restart.
  Vec3 outflow_impulse() const { return outflow_impulse_; }
  Vec3 outflow_vorticity() const { return outflow_vorticity_; }
  void set_outflow(const Vec3& impulse, const Vec3& vorticity);

  // The sheet: two tangential components per panel, and the last solve's statistics.
  const std::vector<double>& sheet() const;
  const BemStats& sheet_stats() const;
  // The stages themselves, for programs built against the library's sources.
  BemSolver& bem() { return bem_; }
  const WallQueries& wall() const { return wall_; }
  const BodyFlowOptions& options() const { return options_; }
  // The last step's surface pressure (per unit density, its area-weighted mean zero), a mean per
  // panel; zeros before the first step.
  std::vector<double> surface_pressure() const;

 private:
  // The vorticity the wall creates: each shed sheet is added up over the step, whose pressure
  // force then follows from it; the friction from the vorticity at the wall (wall_forces.cpp).
  void add_shed_sheet();
  // The sheet shed into particles placed as `options` say (wall_particles.cpp, as are
  // keep_in_fluid, find_wall_points and wall_images).
  void shed(ParticleSet& particles, const SheddingOptions& options, BodyStepStats& stats);
  void wall_pressure(double dt, BodyStepStats& stats);
  void wall_friction(const ParticleSet& particles, BodyStepStats& stats);
  // The particles with their cores as the wall sees them (at most the wall core), in place: their
  // own arrays and wall_sigma_.
  SourcesView as_seen_by_wall(const ParticleSet& particles);
  // The particles followed by the sheet's quadrature points as sources, in sources_
  // (flow_velocity.cpp).
  const ParticleSet& particles_and_sheet(const ParticleSet& particles);
  const std::vector<Vec3>* near_wall_velocity(SourcesView view);
  const BemStats& solve_for(const ParticleSet& particles);
  bool sheet_solved_for(const ParticleSet& particles) const;
  void diffuse(ParticleSet& particles, double dt, BodyStepStats& stats, bool sheet_solved);
  // Reflection and push-out, with the wall points of the sub-step's start, or (`moved`) found
  // anew.
  void keep_in_fluid(ParticleSet& particles, BodyStepStats& stats, bool moved);
  // The particles beyond the outflow plane taken out, their impulse and vorticity kept
  // (outflow.cpp).
  void leave_downstream(ParticleSet& particles, BodyStepStats& stats);
  // The strongest particle after the convection stage and its growth (strength_before_ holds the
  // strengths before it).
  void record_growth(const ParticleSet& particles, BodyStepStats& stats) const;
  // How far from the wall a diffusion sub-step of length dt looks: the image moments' reach and
  // the VRM's wall tests' (2 R).
  double wall_reach(double dt) const;
  void find_wall_points(const ParticleSet& particles, double dt);
  void wall_images(double dt);
  void record(const BemStats& s, BodyStepStats& stats);
  template <class Work>
  BodyStepStats recorded(double dt, Work&& work);

  struct Stages;  // owns the stages' state below, referred to by name
  std::unique_ptr<Stages> stages_;
  const Surface* surface_;
  BemSolver& bem_;
  Solver* solver_;
  BodyFlowOptions options_;
  WallQueries& wall_;
  NearWallSums& near_wall_sums_;  // the exact near-wall part of the BEM right-hand sides
  std::vector<std::vector<int>> patches_;
  Points sheet_points_;
  TriangleRule sheet_rule_;
  std::vector<double> wall_sigma_;  // per particle: its core as the wall sees it
  KnownWallPoints& wall_points_;    // of the particles of a sub-step's start near the wall
  std::vector<VrmMoments> spread_;  // per place of wall_points_: the wall's image kernel's
  std::vector<char> has_spread_;
  VrmWorkspace vrm_workspace_;                  // kept from one diffusion sub-step to the next
  ParticleControlWorkspace control_workspace_;  // the same for the particle control
  std::vector<Vec3> near_wall_;          // per panel: exact point-vortex average - cored quadrature
  std::vector<double> strength_before_;  // per particle: |Gamma| before the convection stage
  KnownWallPoints& near_wall_points_;    // of the particles of a solve near the wall's box
  NearWallParticles& wall_near_;         // the particles next to the wall, ascending
  BodyStepStats* current_ = nullptr;     // the step being taken, for the stage hook's statistics
  // The convection's integrator (its stage hook re-solves the sheet) and the sources of the
  // particles' velocity (particles and sheet), kept so that a step allocates none of them anew.
  TimeIntegrator integrator_;
  ParticleSet sources_;
  // The digest of the particles the sheet was last solved for (solved_known_: a sheet solved
  // by solve_sheet, set_sheet or a step's end, not by a stage).
  std::uint64_t solved_digest_ = 0;
  bool solved_known_ = false;
  // The outflow: its plane (outflow_plane), and what has left so far.
  double outflow_plane_ = 0;
  Vec3 outflow_impulse_, outflow_vorticity_;
};

}  // namespace vortex::bodies
