#include "solver_cli.hpp"

#include <cstdio>

#include "vortex/tolerance.hpp"

namespace vortex::cli {

std::string describe_tree_options(const TreeOptions& t) {
  char text[160];
  std::snprintf(text, sizeof text,
                "order %d, theta %g, kappa %g, buckets %d/%d (target/source), %d-way", t.order,
                t.theta, t.kappa, t.target_bucket, t.source_bucket, t.arity);
  return text;
}

std::string describe_tree_choice(const EvaluationStats& stats) {
  if (stats.tree.order == 0) return "";
  char tolerance[64];
  if (stats.tolerance > 0)
    std::snprintf(tolerance, sizeof tolerance, "for tolerance %g", stats.tolerance);
  else
    std::snprintf(tolerance, sizeof tolerance, "the defaults (for tolerance 2e-4)");
  std::string text = describe_tree_options(stats.tree) + ", " + stats.precision + ": " + tolerance;
  if (filament_share(stats.layout) > 0) {
    char filament[160];
    std::snprintf(filament, sizeof filament,
                  "; %s filament (dimension %.2f, spread across %.2f core radii)%s",
                  filament_share(stats.layout) < 1 ? "in part a" : "a", stats.layout.dimension,
                  stats.layout.spread,
                  stats.tree.uniform_order ? ": order p at every far box" : "");
    text += filament;
  }
  return text;
}

void SolverCli::add_to(OptionParser& parser, bool with_method_backend_precision) {
  if (with_method_backend_precision) {
    parser.add("--method", "direct|tree", "direct sum or multipole treecode", method_);
    parser.add("--backend", "auto|cpu|cuda",
               "where to compute; auto takes the GPU when one is present, cuda fails without one",
               backend_);
    parser.add("--precision", "auto|double|float",
               "arithmetic; auto is double on the CPU and float (accumulated in double) on CUDA",
               precision_);
  }
  parser.add("--core", "NAME",
             "core function: exponential, gaussian, rosenhead-moore, winckelmans-leonard, singular",
             core_);
  parser.add("--tolerance", "T",
             "mean relative error of velocity and gradient accepted (0 < T < 1): the tree options "
             "left at 0 are picked to reach it fastest, and precision auto uses float where it "
             "leaves most of T to the expansions; 0 = the defaults, picked for 2e-4",
             tolerance_);
  parser.add("--order", "P",
             "multipole order of the treecode (1..16); 0 = picked for the tolerance", tree_.order);
  parser.add("--theta", "T",
             "geometric acceptance: far if source box radius <= T * distance to the target box; "
             "0 = picked for the tolerance",
             tree_.theta);
  parser.add("--kappa", "K",
             "core acceptance: far if the box gap >= K * largest sigma of the source box; "
             "0 = picked for the tolerance and the core",
             tree_.kappa);
  parser.add("--target-bucket", "N", "particles per target leaf; 0 = picked for the tolerance",
             tree_.target_bucket);
  parser.add("--source-bucket", "N", "particles per source leaf; 0 = picked for the tolerance",
             tree_.source_bucket);
  parser.add("--arity", "A", "children per tree node: 2, 4 or 8", tree_.arity);
  parser.add_flag("--uniform-order",
                  "evaluate every far box at order P (by default each box at the lowest order "
                  "that is as accurate there as P at the acceptance limit)",
                  tree_.uniform_order);
  parser.add("--tree-build", "auto|host|device",
             "where CUDA builds the trees, lists and multipoles; auto = device", tree_build_);
  parser.add("--far-field", "auto|m2p|local",
             "how the far field is evaluated (CPU, and CUDA with trees built on the device): "
             "m2p at every target leaf, local expansions (M2L, L2L, L2P) wherever allowed, or "
             "auto (the default) = the cheaper per target node by the backend's cost model of "
             "the operations",
             far_field_);
  parser.add("--threads", "N",
             "CPU threads, at most " + std::to_string(kMaxThreads) + "; 0 = OpenMP's default",
             threads_);
}

SolverOptions SolverCli::options() const {
  SolverOptions o;
  o.method = parse_method(method_);
  o.backend = parse_backend(backend_);
  o.precision = parse_precision(precision_);
  o.core = parse_core(core_);
  o.tree = tree_;
  o.tree_build = parse_tree_build(tree_build_);
  o.far_field = parse_far_field(far_field_);
  // validate_options checks this too; here the message has the option's command-line name.
  if (threads_ < 0 || threads_ > kMaxThreads)
    throw UsageError("--threads must be in 0.." + std::to_string(kMaxThreads) +
                     " (0: OpenMP's default), got " + std::to_string(threads_));
  o.threads = threads_;
  o.tolerance = tolerance_;
  validate_options(o);
  return o;
}

}  // namespace vortex::cli
