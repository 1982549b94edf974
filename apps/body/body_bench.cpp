// vortex-body's benchmarks of one sub-step: the diffusion sub-step and the velocity evaluation,
// repeated from a checkpoint's particles.

#include "body_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "body_case.hpp"
#include "vortex/bodies/bem_solver.hpp"
#include "vortex/diagnostics.hpp"
#include "vortex/error_metrics.hpp"
#include "vortex/solver.hpp"

namespace vortex::body_app {

using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The invariants that a diffusion sub-step keeps (the sheet's share aside), to full precision.
void print_invariants(const char* label, const Diagnostics& d) {
  const auto row = [](const char* name, const std::array<double, 3>& v) {
    std::printf("  %-16s %.15e %.15e %.15e\n", name, v[0], v[1], v[2]);
  };
  std::printf("%s: N = %zu, sum |Gamma| = %.15e\n", label, d.count, d.sum_strength);
  row("total vorticity", d.total_vorticity);
  row("linear impulse", d.linear_impulse);
  row("angular impulse", d.angular_impulse);
}

// --bench-diffusion: K diffusion sub-steps of dt/2, each from the checkpoint's particles.
void bench_diffusion(const Settings& s, bodies::BodyFlow& flow, const ParticleSet& from) {
  std::vector<double> total, vrm, control;
  ParticleSet p;
  std::uint64_t hash = 0;
  double max_residual = 0;
  for (int k = 0; k < s.bench_diffusion; ++k) {
    p = from;
    const bodies::BodyStepStats st = flow.diffusion_substep(p, s.dt / 2);
    total.push_back(st.seconds_diffuse);
    vrm.push_back(st.seconds_vrm);
    control.push_back(st.seconds_control);
    max_residual = std::max(max_residual, st.vrm_max_residual);
    const std::uint64_t h = digest(p);
    if (k > 0 && h != hash) std::printf("warning: repeat %d gave another result\n", k + 1);
    hash = h;
    std::printf(
        "repeat %d: diffusion %.4f s (VRM %.4f s, of it the wall's points and moments %.4f s; "
        "control %.4f s); %zu of %zu owners solved on the GPU (%zu given to it before the wall's "
        "points; %zu solved in later rounds), %zu inserted\n"
        "  VRM phases: set-up %.4f s, wall %.4f s, waits for the GPU %.4f s, host rounds %.4f s, "
        "hand-over %.4f s\n"
        "  of them: grid %.4f s; device upload %.4f, solves %.4f, hand-over %.4f, download %.4f s; "
        "insertions %.4f s; host's first pass %.4f s, its pass over the owners given back %.4f s "
        "(%zu without a solution, %zu deferred, %zu of them with too many neighbours), its other "
        "passes (the later rounds; all, without the GPU) %.4f s, of it the later rounds' calls of "
        "the GPU %.4f s (%d rounds in all); %zu owners' free nodes found on the GPU\n",
        k + 1, st.seconds_diffuse, st.seconds_vrm, st.seconds_vrm_wall, st.seconds_control,
        st.vrm.device_solved, from.size(), st.vrm.device_far, st.vrm.device_later, st.inserted,
        st.vrm.seconds_setup, st.vrm.seconds_wall, st.vrm.seconds_device, st.vrm.seconds_rounds,
        st.vrm.seconds_redistribute, st.vrm.seconds_grid, st.vrm.seconds_upload,
        st.vrm.seconds_solve, st.vrm.seconds_handover, st.vrm.seconds_download,
        st.vrm.seconds_insert, st.vrm.seconds_host_first, st.vrm.seconds_returned,
        st.vrm.device_unsolved, st.vrm.device_deferred, st.vrm.device_crowded,
        st.vrm.seconds_rounds - st.vrm.seconds_host_first - st.vrm.seconds_returned -
            st.vrm.seconds_insert,
        st.vrm.seconds_later_device, st.vrm.rounds, st.vrm.device_proposed);
    const VrmKernelSeconds& d = st.vrm.device_kernels;
    std::printf(
        "  the device's solves by kernel: lists %.4f, first iterations %.4f, resumed %.4f, "
        "fallback %.4f, free nodes %.4f s (%zu deferred to the fallback)\n",
        d.lists, d.first, d.resumed, d.fallback, d.nodes, d.fallback_owners);
    const ParticleControlStats& c = st.control;
    std::printf(
        "  control phases: grid %.4f (of it the wall %.4f), candidates %.4f, receivers %.4f, "
        "hand-over %.4f, compaction %.4f s (%zu removed, %zu merged, %zu kept; merges decided on "
        "the device %zu, on the host %zu; receivers found on the device %zu, on the host %zu: "
        "%zu near the wall, %zu crowded, %zu for the solve); the device's calls %.4f s; the "
        "host's receivers by thread: near the wall %.4f, crowded %.4f, others %.4f s\n",
        c.seconds_grid, c.seconds_wall, c.seconds_candidates, c.seconds_receivers,
        c.seconds_hand_over, c.seconds_compact, c.removed, c.merged, c.kept, c.device_merges,
        c.host_merges, c.device_shares, c.host_shares, c.host_shares_wall, c.host_shares_crowded,
        c.host_shares_solve, c.seconds_device, c.thread_seconds_host_wall,
        c.thread_seconds_host_crowded, c.thread_seconds_host_other);
  }
  std::printf(
      "diffusion sub-step: N = %zu -> %zu, median of %d: %.4f s (VRM %.4f s, control %.4f s), "
      "digest %016llx\n",
      from.size(), p.size(), s.bench_diffusion, median(total), median(vrm), median(control),
      static_cast<unsigned long long>(hash));
  print_invariants("before", compute_diagnostics(from));
  print_invariants("after", compute_diagnostics(p));
  std::printf("VRM largest moment residual %.3e (units of h)\n", max_residual);
}

// --bench-velocity: the velocity and gradient of the checkpoint's particles (their own field, the
// evaluation the paper times), K calls after a warm-up, and the errors of the last call against a
// double-precision direct sum at a sample of the particles.
void bench_velocity(const Settings& s, Solver& solver, const ParticleSet& particles) {
  const ParticleSet& p = particles;
  VelocityField f;
  solver.evaluate(p, true, f);  // warm-up: buffers, device memory
  std::vector<double> seconds;
  for (int k = 0; k < s.bench_velocity; ++k) {
    const auto start = Clock::now();
    solver.evaluate(p, true, f);
    seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    std::printf("call %d: %.4f s\n", k + 1, seconds.back());
  }
  const EvaluationStats& st = f.stats;
  const StageTimes& t = st.times;
  std::printf(
      "velocity evaluation: N = %zu, %s (%s, %s), median of %d calls %.4f s; stages of the last: "
      "tree %.4f, lists %.4f, multipoles %.4f, near %.4f, far %.4f, transfer %.4f s\n",
      p.size(), st.backend.c_str(), st.precision.c_str(), st.device.c_str(), s.bench_velocity,
      median(seconds), t.tree, t.lists, t.multipole, t.near, t.far, t.transfer);
  std::printf("treecode: p %d, theta %g, kappa %g, buckets %d/%d\n", st.tree.order, st.tree.theta,
              st.tree.kappa, st.tree.target_bucket, st.tree.source_bucket);
  const auto start = Clock::now();
  const std::vector<std::size_t> sample = sample_indices(p.size(), s.bench_sample, 1);
  const VelocityField reference =
      reference_field(p, gather_points(p, sample), true, solver.options().core);
  const FieldErrors e = compare_fields(f, reference, sample);
  std::printf(
      "errors at %zu particles (double direct sum, %.1f s): velocity mean relative %.3e, L2 "
      "%.3e; gradient mean relative %.3e, L2 %.3e\n",
      e.n_sampled, std::chrono::duration<double>(Clock::now() - start).count(), e.velocity_mean_rel,
      e.velocity_rel_l2, e.gradient_mean_rel, e.gradient_rel_l2);
}

// --bench-bem: K boundary-element solves after a warm-up, each from the same start: the t = 0+
// sheet from zero without --restart; with it, the checkpoint's particles from its sheet (the
// solve that ends a step). Each solve's operator products by part.
void bench_bem(const Settings& s, bodies::BodyFlow& flow, const ParticleSet* particles,
               std::vector<double> start) {  // a copy: the solver's own sheet changes
  bodies::BemSolver& bem = flow.bem();
  const auto solve = [&]() -> const bodies::BemStats& {
    bem.set_gamma(start);
    return particles ? flow.solve_sheet(*particles) : bem.solve(flow.options().free_stream);
  };
  solve();  // warm-up: buffers, device memory
  std::vector<double> total, far, near, pre, tree, per_product;
  for (int k = 0; k < s.bench_bem; ++k) {
    const auto begin = Clock::now();
    const bodies::BemStats& st = solve();
    const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
    const StageTimes& t = st.treecode;
    std::printf(
        "solve %d: %.4f s (right-hand side %.4f s), %d iterations, residual %.2e, %ld products "
        "(%ld repeated, not computed): far %.4f s (treecode %.4f: tree %.4f, lists %.4f, "
        "multipoles %.4f, near %.4f, far %.4f, "
        "transfer %.4f), near blocks %.4f s, preconditioner %.4f s\n",
        k + 1, seconds, st.rhs_seconds, st.iterations, st.residual, st.products,
        st.repeated_products, st.seconds_far, t.total, t.tree, t.lists, t.multipole, t.near, t.far,
        t.transfer, st.seconds_near, st.seconds_precondition);
    total.push_back(seconds);
    far.push_back(st.seconds_far);
    near.push_back(st.seconds_near);
    pre.push_back(st.seconds_precondition);
    tree.push_back(t.total);
    per_product.push_back((st.seconds_far + st.seconds_near) / std::max(1L, st.products));
  }
  const bodies::BemStats& st = bem.stats();
  const bodies::NearField& nf = bem.op().near_field();
  std::printf("near blocks: %zu (%.1f a panel, radius %.4g), %.1f MB\n", nf.j.size(),
              static_cast<double>(nf.j.size()) / static_cast<double>(nf.size()), nf.radius,
              1e-6 * static_cast<double>(nf.j.size() * (sizeof(int) + 12 * sizeof(double))));
  std::printf(
      "boundary-element solve (%s): %zu panels, %s, %d iterations, median of %d: %.4f s; far "
      "%.4f s (treecode %.4f s), near blocks %.4f s, preconditioner %.4f s; a product %.2f ms\n",
      bem.options().method == bodies::BemMethod::Dense ? "dense LU" : "GMRES", bem.surface().size(),
      particles ? "the checkpoint's particles" : "t = 0+", st.iterations, s.bench_bem,
      median(total), median(far), median(tree), median(near), median(pre),
      1e3 * median(per_product));
}

}  // namespace

bool benchmark_mode(const Settings& s) {
  return s.bench_diffusion > 0 || s.bench_velocity > 0 || s.bench_bem > 0;
}

int run_benchmark(const Settings& s, const SolverOptions& so) {
  const BodyCase c = make_case(s);
  // The checkpoint first (refused unless it is this case's); --bench-bem runs without one.
  const bool from_checkpoint = !s.restart.empty() || s.bench_bem == 0;
  const bodies::BodyCheckpoint ck = from_checkpoint ? read_restart(s, c) : bodies::BodyCheckpoint{};
  Solver solver(so);
  bodies::BodyFlow flow(c.surface, bem_options(s, so), solver,
                        flow_options(s, c.nu, c.h, so.backend));
  print_header(s, c, so.backend);
  if (!from_checkpoint) {
    bench_bem(s, flow, nullptr, std::vector<double>(2 * c.surface.size(), 0.0));
    return 0;
  }
  const RunState r = checkpoint_state(ck, flow);
  if (s.bench_bem > 0)
    bench_bem(s, flow, &r.particles, flow.sheet());
  else if (s.bench_diffusion > 0)
    bench_diffusion(s, flow, r.particles);
  else
    bench_velocity(s, solver, r.particles);
  return 0;
}

}  // namespace vortex::body_app
