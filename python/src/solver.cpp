// vortex._vortex.Solver: the C++ Solver on numpy arrays (solver_calls.hpp).

#include "vortex/solver.hpp"
#include "solver_calls.hpp"
#include "vortex/error_metrics.hpp"

namespace vortex::python {

using PySolver = Engine<Solver>;

SolverOptions make_options(const std::string& core, const std::string& method,
                           const std::string& backend, const std::string& precision, int order,
                           double theta, double kappa, int target_bucket, int source_bucket,
                           int arity, bool uniform_order, int threads, double tolerance) {
  SolverOptions o;
  o.core = parse_core(core);
  o.method = parse_method(method);
  o.backend = parse_backend(backend);
  o.precision = parse_precision(precision);
  o.tree.order = order;
  o.tree.theta = theta;
  o.tree.kappa = kappa;
  o.tree.target_bucket = target_bucket;
  o.tree.source_bucket = source_bucket;
  o.tree.arity = arity;
  o.tree.uniform_order = uniform_order;
  o.threads = threads;
  o.tolerance = tolerance;
  return o;
}

py::dict tree_dict(const TreeOptions& t) {
  return py::dict("order"_a = t.order, "theta"_a = t.theta, "kappa"_a = t.kappa,
                  "target_bucket"_a = t.target_bucket, "source_bucket"_a = t.source_bucket,
                  "arity"_a = t.arity, "uniform_order"_a = t.uniform_order);
}

namespace {

py::dict times_dict(const StageTimes& t) {
  return py::dict("total"_a = t.total, "tree"_a = t.tree, "multipole"_a = t.multipole,
                  "lists"_a = t.lists, "near"_a = t.near, "far"_a = t.far,
                  "transfer"_a = t.transfer, "setup"_a = t.setup);
}

}  // namespace

py::dict stats_dict(const EvaluationStats& s, const py::list& copied) {
  return py::dict(
      "times"_a = times_dict(s.times), "backend"_a = s.backend, "precision"_a = s.precision,
      "device"_a = s.device, "pair_interactions"_a = s.pair_interactions,
      "multipole_interactions"_a = s.multipole_interactions,
      "near_list_entries"_a = s.near_list_entries, "far_list_entries"_a = s.far_list_entries,
      "target_leaves"_a = s.target_leaves, "source_nodes"_a = s.source_nodes,
      "near_items"_a = s.near_items, "far_items"_a = s.far_items,
      "near_item_max"_a = s.near_item_max, "far_item_max"_a = s.far_item_max,
      "tree"_a = tree_dict(s.tree), "tolerance"_a = s.tolerance,
      "layout"_a =
          py::dict("num_sources"_a = s.layout.num_sources, "contrast"_a = s.layout.contrast,
                   "dimension"_a = s.layout.dimension, "spread"_a = s.layout.spread),
      "copied_inputs"_a = copied);
}

py::dict options_dict(const SolverOptions& o) {
  return py::dict("core"_a = to_string(o.core), "method"_a = to_string(o.method),
                  "backend"_a = to_string(o.backend), "precision"_a = to_string(o.precision),
                  "tree"_a = tree_dict(o.tree), "threads"_a = o.threads,
                  "tolerance"_a = o.tolerance);
}

namespace {

// The targets of a call from a numpy array (M, 3), into c.
void stage_targets(strided::Staging& staging, const py::object& targets_in, StagedCall& c) {
  const py::array targets = as_array(targets_in);
  c.alive.append(targets);
  const py::ssize_t m = check_array(targets, "targets", -1, true);
  if (!read_in_place(targets, true)) c.copied.append("targets");
  c.targets =
      staging.targets(std::size_t(m), {column(targets, 0), column(targets, 1), column(targets, 2)});
}

}  // namespace

StagedCall stage_arrays(strided::Staging& staging, const py::object& positions_in,
                        const py::object& strengths_in, const py::object& sigma_in,
                        const py::object& targets_in) {
  const py::array positions = as_array(positions_in), strengths = as_array(strengths_in),
                  sigma = as_array(sigma_in);
  const py::ssize_t n = check_array(positions, "positions", -1, true);
  check_array(strengths, "strengths", n, true);
  check_array(sigma, "sigma", n, false);
  StagedCall c;
  for (const py::array& a : {positions, strengths, sigma}) c.alive.append(a);
  if (!read_in_place(positions, true)) c.copied.append("positions");
  if (!read_in_place(strengths, true)) c.copied.append("strengths");
  if (!read_in_place(sigma, false)) c.copied.append("sigma");
  staging.reset();
  c.sources = staging.sources(
      std::size_t(n),
      {column(positions, 0), column(positions, 1), column(positions, 2), column(strengths, 0),
       column(strengths, 1), column(strengths, 2), column(sigma, 0)});
  if (targets_in.is_none()) {
    c.targets.x = c.sources.x, c.targets.y = c.sources.y, c.targets.z = c.sources.z;
    c.targets.n = c.sources.n;
  } else {
    stage_targets(staging, targets_in, c);
  }
  return c;
}

StagedCall stage_particles(strided::Staging& staging, const py::object& particles,
                           const py::object& targets_in) {
  const ParticleSet& p = particles_of(particles);
  StagedCall c;
  c.sources = SourcesView(p);
  c.targets = PointsView(p);
  if (!targets_in.is_none()) {
    staging.reset();
    stage_targets(staging, targets_in, c);
  }
  return c;
}

void bind_solver(py::module_& m) {
  py::class_<PySolver> cls(m, "Solver",
                           "Velocity and gradient of vortex particles (see vortex.Solver)");
  cls.def(py::init([](const std::string& core, const std::string& method,
                      const std::string& backend, const std::string& precision, int order,
                      double theta, double kappa, int target_bucket, int source_bucket, int arity,
                      bool uniform_order, int threads, double tolerance) {
            const SolverOptions o =
                make_options(core, method, backend, precision, order, theta, kappa, target_bucket,
                             source_bucket, arity, uniform_order, threads, tolerance);
            return std::make_unique<PySolver>(o);
          }),
          py::kw_only(), py::arg("core") = "exponential", py::arg("method") = "tree",
          py::arg("backend") = "auto", py::arg("precision") = "auto", py::arg("order") = 0,
          py::arg("theta") = 0.0, py::arg("kappa") = 0.0, py::arg("target_bucket") = 0,
          py::arg("source_bucket") = 0, py::arg("arity") = 8, py::arg("uniform_order") = false,
          py::arg("threads") = 0, py::arg("tolerance") = 0.0);
  bind_engine_methods(cls);
  m.def("cuda_available", &cuda_available, "Whether a CUDA device can be used by this build");
  m.def(
      "sampled_errors",
      [](const py::object& positions, const py::object& strengths, const py::object& sigma,
         const py::object& velocity, const py::object& gradient, const py::object& targets,
         std::size_t sample, const std::string& core, std::uint64_t seed, int threads) {
        strided::Staging staging;
        const StagedCall c = stage_arrays(staging, positions, strengths, sigma, targets);
        const VelocityField field = field_from_arrays(velocity, gradient);
        FieldErrors e;
        {
          py::gil_scoped_release release;
          e = sampled_errors(c.sources, c.targets, field, sample, parse_core(core), seed, threads);
        }
        return py::dict("velocity_mean_rel"_a = e.velocity_mean_rel,
                        "gradient_mean_rel"_a = e.gradient_mean_rel,
                        "velocity_rel_l2"_a = e.velocity_rel_l2,
                        "gradient_rel_l2"_a = e.gradient_rel_l2, "sampled"_a = e.n_sampled,
                        "has_gradient"_a = e.has_gradient);
      },
      py::arg("positions"), py::arg("strengths"), py::arg("sigma"), py::arg("velocity"),
      py::kw_only(), py::arg("gradient") = py::none(), py::arg("targets") = py::none(),
      py::arg("sample") = 1000, py::arg("core") = "exponential", py::arg("seed") = 1,
      py::arg("threads") = 0,
      "The errors of an evaluation (velocity (M, 3), optional gradient (M, 3, 3), at the particles "
      "or at targets (M, 3)) at `sample` of its targets against the double direct sum on the CPU: "
      "mean relative and relative L2 errors (see docs/methods/tolerance.md)");
}

// The C++ Solver behind a Python Solver (for the time integrator).
Solver& solver_of(const py::object& solver) {
  return solver.cast<PySolver&>().solver;
}

std::unique_lock<std::mutex> hold_solver(const py::object& solver) {
  return take(solver.cast<PySolver&>());
}

}  // namespace vortex::python
