#include "sweeps.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

#include "fits.hpp"
#include "measurement_io.hpp"
#include "tables.hpp"
#include "vortex/solver.hpp"
#include "vortex/tolerance.hpp"

namespace vortex::cli {

namespace {

// One point of a sweep: what was varied ("series"), the options and the measurement.
struct Point {
  std::string series;
  Measurement m;
  bool pareto = false;
};

struct Sweep {
  std::string name;
  std::string title;
  std::vector<Point> points;
};

class SweepRunner {
 public:
  SweepRunner(const ReportContext& context, const SweepOptions& options,
              const ParticleSet& particles, const Reference& reference)
      : context_(context), options_(options), particles_(particles), reference_(reference) {}

  Point run(const std::string& series, const std::function<void(TreeOptions&)>& change) {
    SolverOptions base = context_.base;
    change(base.tree);
    Point point;
    point.series = series;
    point.m =
        measure(options_.run, base, particles_, context_.gradient, context_.repeat, reference_);
    point.m.field = VelocityField{};
    const TreeOptions& t = point.m.stats.tree;
    std::printf(
        "  %-8s p %2d theta %.2f buckets %4d/%4d arity %d: %8.3f s (near %.3f far %.3f), "
        "u err %.2e\n",
        series.c_str(), t.order, t.theta, t.target_bucket, t.source_bucket, t.arity,
        point.m.stats.times.total, point.m.stats.times.near, point.m.stats.times.far,
        point.m.errors.velocity_mean_rel);
    std::fflush(stdout);
    return point;
  }

 private:
  const ReportContext& context_;
  const SweepOptions& options_;
  const ParticleSet& particles_;
  const Reference& reference_;
};

Sweep bucket_sweep(SweepRunner& runner, const SweepOptions& options) {
  Sweep sweep{"bucket", "bucket sizes: target, source, and both together (Figure 5)", {}};
  for (int b : options.buckets) {
    sweep.points.push_back(runner.run("target", [b](TreeOptions& t) { t.target_bucket = b; }));
  }
  for (int b : options.buckets) {
    sweep.points.push_back(runner.run("source", [b](TreeOptions& t) { t.source_bucket = b; }));
  }
  for (int b : options.buckets) {
    sweep.points.push_back(
        runner.run("both", [b](TreeOptions& t) { t.target_bucket = t.source_bucket = b; }));
  }
  return sweep;
}

Sweep order_theta_sweep(SweepRunner& runner, const SweepOptions& options) {
  Sweep sweep{"order-theta", "multipole order p and acceptance theta: error against time", {}};
  for (int p : options.orders) {
    for (double theta : options.thetas) {
      sweep.points.push_back(runner.run("p" + std::to_string(p), [p, theta](TreeOptions& t) {
        t.order = p;
        t.theta = theta;
      }));
    }
  }
  std::vector<double> time, error;
  for (const Point& pt : sweep.points) {
    time.push_back(pt.m.stats.times.total);
    error.push_back(pt.m.errors.velocity_mean_rel);
  }
  const std::vector<bool> front = pareto_front(time, error);
  for (std::size_t i = 0; i < front.size(); ++i) sweep.points[i].pareto = front[i];
  return sweep;
}

Sweep arity_sweep(SweepRunner& runner, const SweepOptions& options) {
  Sweep sweep{"arity", "tree arity (children per node)", {}};
  for (int a : options.arities) {
    sweep.points.push_back(runner.run("arity", [a](TreeOptions& t) { t.arity = a; }));
  }
  return sweep;
}

void write_sweep(const ReportContext& context, const SweepOptions& options, const Sweep& sweep,
                 std::size_t n, double elapsed_s) {
  std::vector<std::string> columns{"series", "n"};
  for (const auto& c : measurement_columns()) columns.push_back(c);
  columns.push_back("pareto");
  CsvTable csv(columns);
  TextTable text({"series", "p", "theta", "N_b target", "N_b source", "arity", "t_total [s]",
                  "t_tree", "t_multipole", "t_lists", "near", "far", "u err", "du err", "Pareto"});
  JsonWriter json;
  json.begin_object()
      .field("sweep", sweep.name)
      .field("title", sweep.title)
      .field("n", static_cast<std::uint64_t>(n))
      .field("run", options.run.label);
  context.write_provenance(json);
  json.field("elapsed_s", elapsed_s);
  json.key("points").begin_array();
  for (const Point& pt : sweep.points) {
    csv.row().cell(pt.series).cell(static_cast<long long>(n));
    add_measurement_cells(csv, pt.m);
    csv.cell(static_cast<long long>(pt.pareto ? 1 : 0));
    const TreeOptions& o = pt.m.stats.tree;
    const StageTimes& t = pt.m.stats.times;
    text.add({pt.series, std::to_string(o.order), format("%g", o.theta),
              std::to_string(o.target_bucket), std::to_string(o.source_bucket),
              std::to_string(o.arity), format("%.4g", t.total), format("%.3g", t.tree),
              format("%.3g", t.multipole), format("%.3g", t.lists), format("%.3g", t.near),
              format("%.3g", t.far), format("%.2e", pt.m.errors.velocity_mean_rel),
              pt.m.errors.has_gradient ? format("%.2e", pt.m.errors.gradient_mean_rel) : "-",
              pt.pareto ? "*" : ""});
    json.begin_object().field("series", pt.series);
    write_measurement(json, pt.m);
    json.field("pareto", pt.pareto).end();
  }
  json.end().end();
  const std::string base = "sweep-" + sweep.name;
  context.write_file(base + ".csv", csv.str());
  if (sweep.name == "order-theta") {
    // The front alone, fastest first: a line to draw through, without gaps in the file.
    std::vector<const Point*> front;
    for (const Point& pt : sweep.points) {
      if (pt.pareto) front.push_back(&pt);
    }
    std::sort(front.begin(), front.end(), [](const Point* a, const Point* b) {
      return a->m.stats.times.total < b->m.stats.times.total;
    });
    CsvTable front_csv(columns);
    for (const Point* pt : front) {
      front_csv.row().cell(pt->series).cell(static_cast<long long>(n));
      add_measurement_cells(front_csv, pt->m);
      front_csv.cell(1LL);
    }
    context.write_file(base + "-pareto.csv", front_csv.str());
  }
  context.write_file(base + ".json", json.str());
  context.write_file(base + ".txt",
                     format("vortex sweep: %s, N = %zu, run %s\n", sweep.title.c_str(), n,
                            options.run.label.c_str()) +
                         context.describe() + "\n" + text.str() +
                         (sweep.name == "order-theta"
                              ? "Pareto: no other point is both faster and more accurate.\n"
                              : "") +
                         format("sweep time: %.1f s\n", elapsed_s));
}

}  // namespace

const std::vector<std::string>& parameter_sweep_names() {
  static const std::vector<std::string> names{"bucket", "order-theta", "arity"};
  return names;
}

void run_parameter_sweeps(const ReportContext& context, const SweepOptions& options,
                          const std::vector<std::string>& names) {
  const auto& own = parameter_sweep_names();
  if (std::none_of(names.begin(), names.end(), [&](const std::string& name) {
        return std::find(own.begin(), own.end(), name) != own.end();
      }))
    return;
  const ParticleSet particles = make_case(context.case_name, options.n, context.seed);
  std::printf("== sweeps on %s, N = %zu, run %s, layout contrast %.4g\n", context.case_name.c_str(),
              particles.size(), options.run.label.c_str(), layout_of(particles).contrast);
  std::fflush(stdout);
  const Reference reference =
      make_reference(particles, context.sample, context.seed + 1, context.gradient,
                     context.base.core, context.base.threads);
  SweepRunner runner(context, options, particles, reference);
  for (const std::string& name : parameter_sweep_names()) {
    if (std::find(names.begin(), names.end(), name) == names.end()) continue;
    std::printf("-- sweep %s\n", name.c_str());
    const auto start = std::chrono::steady_clock::now();
    Sweep sweep = name == "bucket"        ? bucket_sweep(runner, options)
                  : name == "order-theta" ? order_theta_sweep(runner, options)
                                          : arity_sweep(runner, options);
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    write_sweep(context, options, sweep, particles.size(), elapsed);
  }
}

}  // namespace vortex::cli
