#include "scaling.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <utility>

#include "fits.hpp"
#include "measurement_io.hpp"
#include "tables.hpp"

namespace vortex::cli {

namespace {

struct SizePoint {
  std::size_t n = 0;
  Measurement tree;
  Measurement direct;
  double reference_s = 0;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Seconds one more size would take: the treecode grows at most like N^1.5 at these sizes, the
// reference and the sampled direct sum like N.
double predict(const SizePoint& last, std::size_t n, int repeat) {
  const double ratio = static_cast<double>(n) / static_cast<double>(last.n);
  return repeat * last.tree.stats.times.total * std::pow(ratio, 1.5) +
         (last.reference_s +
          last.direct.stats.times.total / last.direct.n_targets * last.direct.n_targets_timed) *
             ratio;
}

// The JSON summary's head: the sweep, the run, its provenance and the two fitted power laws.
void write_json_head(JsonWriter& json, const ReportContext& context, const ScalingOptions& options,
                     const PowerFit& tree_fit, const PowerFit& direct_fit, double elapsed_s) {
  json.begin_object()
      .field("sweep", "scaling")
      .field("title", "time against N")
      .field("run", options.run.label);
  context.write_provenance(json);
  json.field("elapsed_s", elapsed_s).field("budget_s", options.budget_s);
  json.key("fit").begin_object();
  for (const auto& [name, fit] : {std::pair{"tree", tree_fit}, std::pair{"direct", direct_fit}})
    json.key(name)
        .begin_object(true)
        .field("exponent", fit.exponent)
        .field("prefactor", fit.prefactor)
        .field("points", static_cast<std::uint64_t>(fit.points))
        .end();
  json.end();
}

void write_results(const ReportContext& context, const ScalingOptions& options,
                   const std::vector<SizePoint>& points, double elapsed_s) {
  std::vector<double> n, tree_t, direct_t;
  for (const SizePoint& p : points) {
    n.push_back(static_cast<double>(p.n));
    tree_t.push_back(p.tree.stats.times.total);
    direct_t.push_back(p.direct.stats.times.total);
  }
  const PowerFit tree_fit = fit_power_law(n, tree_t);
  const PowerFit direct_fit = fit_power_law(n, direct_t);

  std::vector<std::string> columns{"n"};
  for (const auto& c : measurement_columns()) columns.push_back(c);
  for (const char* c : {"direct_total", "direct_extrapolated", "direct_n_targets_timed",
                        "tree_fit_total", "direct_fit_total"}) {
    columns.push_back(c);
  }
  CsvTable csv(columns);
  TextTable text({"N", "t_total [s]", "t_tree", "t_multipole", "t_lists", "near", "far", "u err",
                  "du err", "direct [s]", "speed-up"});
  JsonWriter json;
  write_json_head(json, context, options, tree_fit, direct_fit, elapsed_s);
  json.key("points").begin_array();
  for (const SizePoint& p : points) {
    const double x = static_cast<double>(p.n);
    csv.row().cell(static_cast<long long>(p.n));
    add_measurement_cells(csv, p.tree);
    csv.cell(p.direct.stats.times.total)
        .cell(static_cast<long long>(p.direct.extrapolated ? 1 : 0))
        .cell(static_cast<long long>(p.direct.n_targets_timed))
        .cell(tree_fit.prefactor * std::pow(x, tree_fit.exponent))
        .cell(direct_fit.prefactor * std::pow(x, direct_fit.exponent));
    const StageTimes& t = p.tree.stats.times;
    text.add({std::to_string(p.n), format("%.4g", t.total), format("%.3g", t.tree),
              format("%.3g", t.multipole), format("%.3g", t.lists), format("%.3g", t.near),
              format("%.3g", t.far), format("%.2e", p.tree.errors.velocity_mean_rel),
              p.tree.errors.has_gradient ? format("%.2e", p.tree.errors.gradient_mean_rel) : "-",
              format("%.4g", p.direct.stats.times.total) + (p.direct.extrapolated ? " *" : ""),
              format("%.1f", p.direct.stats.times.total / t.total)});
    json.begin_object().field("n", static_cast<std::uint64_t>(p.n));
    json.key("tree").begin_object();
    write_measurement(json, p.tree);
    json.end();
    json.key("direct").begin_object();
    write_measurement(json, p.direct);
    json.end().end();
  }
  json.end().end();
  context.write_file("sweep-scaling.csv", csv.str());
  context.write_file("sweep-scaling.json", json.str());
  const std::string direct_label = points.empty() ? "" : points.front().direct.spec.label;
  context.write_file(
      "sweep-scaling.txt",
      format("vortex sweep: time against N, run %s (direct: %s)\n", options.run.label.c_str(),
             direct_label.c_str()) +
          context.describe() + "\n" + text.str() +
          format("* extrapolated: timed at a sample of targets, scaled to all N\n"
                 "fitted growth: treecode t ~ N^%.3f, direct t ~ N^%.3f (%zu sizes); the paper "
                 "found N^1.17 to N^1.24 for its treecode\nsweep time: %.1f s\n",
                 tree_fit.exponent, direct_fit.exponent, tree_fit.points, elapsed_s));
  std::printf("fitted growth: treecode N^%.3f, direct N^%.3f\n", tree_fit.exponent,
              direct_fit.exponent);
}

}  // namespace

std::vector<std::size_t> default_scaling_sizes(std::size_t max_n) {
  std::vector<std::size_t> sizes;
  for (std::size_t decade = 10000; decade <= max_n; decade *= 10) {
    for (std::size_t m : {1, 2, 5}) {
      if (decade * m <= max_n) sizes.push_back(decade * m);
    }
  }
  return sizes;
}

void run_scaling(const ReportContext& given, const ScalingOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ReportContext context = given;
  context.sample = options.sample;
  const std::vector<std::size_t> sizes =
      options.ns.empty() ? default_scaling_sizes(options.max_n) : options.ns;
  const RunSpec direct_run = make_run(options.run.backend, Method::Direct, options.run.precision);
  std::printf("-- sweep scaling: %s and %s, up to N = %zu within %.0f s\n",
              options.run.label.c_str(), direct_run.label.c_str(), sizes.empty() ? 0 : sizes.back(),
              options.budget_s);
  std::vector<SizePoint> points;
  for (std::size_t n : sizes) {
    // The three smallest sizes always run: a fit needs them.
    if (points.size() >= 3 && options.ns.empty() &&
        seconds_since(start) + predict(points.back(), n, context.repeat) > options.budget_s) {
      std::printf("  N = %zu would exceed the %.0f s budget: stopping\n", n, options.budget_s);
      break;
    }
    SizePoint p;
    p.n = n;
    const ParticleSet particles = make_case(context.case_name, n, context.seed);
    const Reference reference =
        make_reference(particles, options.sample, context.seed + 1, context.gradient,
                       context.base.core, context.base.threads);
    p.reference_s = reference.seconds;
    p.tree =
        measure(options.run, context.base, particles, context.gradient, context.repeat, reference);
    p.tree.field = VelocityField{};
    p.direct = measure_direct(direct_run, context.base, particles, context.gradient, 1, reference,
                              options.direct_limit_s);
    p.direct.field = VelocityField{};
    if (p.tree.stats.backend == "cuda") context.machine.gpu = p.tree.stats.device;
    std::printf("  N = %8zu: tree %8.3f s, direct %9.3f s%s, u err %.2e\n", n,
                p.tree.stats.times.total, p.direct.stats.times.total,
                p.direct.extrapolated ? " (extrapolated)" : "", p.tree.errors.velocity_mean_rel);
    std::fflush(stdout);
    points.push_back(std::move(p));
  }
  write_results(context, options, points, seconds_since(start));
}

}  // namespace vortex::cli
