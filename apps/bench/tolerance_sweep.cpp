#include "tolerance_sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "measurement_io.hpp"
#include "tables.hpp"
#include "vortex/tolerance.hpp"

namespace vortex::cli {

namespace {

// One case and tolerance: the measurement of every round (the same errors each time).
struct TolerancePoint {
  std::string case_name;
  double tolerance = 0;
  std::vector<Measurement> rounds;

  // The round of median total time.
  const Measurement& median() const {
    std::vector<const Measurement*> sorted;
    for (const Measurement& m : rounds) sorted.push_back(&m);
    std::sort(sorted.begin(), sorted.end(), [](const Measurement* a, const Measurement* b) {
      return a->stats.times.total < b->stats.times.total;
    });
    return *sorted[(sorted.size() - 1) / 2];
  }
  // Both mean errors (the gradient's where measured) within the tolerance.
  bool met() const {
    const FieldErrors& e = rounds.front().errors;
    return e.velocity_mean_rel <= tolerance &&
           (!e.has_gradient || e.gradient_mean_rel <= tolerance);
  }
};

struct CaseData {
  ParticleSet particles;
  Reference reference;
};

std::string tolerance_text(const ReportContext& context, const ToleranceSweepOptions& options,
                           const std::vector<TolerancePoint>& points, double elapsed_s) {
  TextTable text({"case", "tolerance", "prec", "p", "theta", "kappa", "N_b t/s", "t_total [s]",
                  "near", "far", "u err", "du err", "met"});
  for (const TolerancePoint& pt : points) {
    const Measurement& m = pt.median();
    const TreeOptions& o = m.stats.tree;
    text.add({pt.case_name, format("%g", pt.tolerance), m.stats.precision, std::to_string(o.order),
              format("%g", o.theta), format("%.3g", o.kappa),
              format("%d/%d", o.target_bucket, o.source_bucket),
              format("%.4g", m.stats.times.total), format("%.3g", m.stats.times.near),
              format("%.3g", m.stats.times.far), format("%.2e", m.errors.velocity_mean_rel),
              m.errors.has_gradient ? format("%.2e", m.errors.gradient_mean_rel) : "-",
              pt.met() ? "yes" : "NO"});
  }
  return format(
             "vortex sweep: tolerance, N = %zu, run %s, %d round(s), times the median over "
             "rounds\n",
             options.n, options.run.label.c_str(), options.rounds) +
         context.describe() + "\n" + text.str() + format("sweep time: %.1f s\n", elapsed_s);
}

void write_tolerance_sweep(const ReportContext& context, const ToleranceSweepOptions& options,
                           const std::vector<TolerancePoint>& points, double elapsed_s) {
  std::vector<std::string> columns{"case", "n", "tolerance", "precision", "kappa"};
  for (const auto& c : measurement_columns()) columns.push_back(c);
  columns.push_back("met");
  CsvTable csv(columns);
  JsonWriter json;
  json.begin_object()
      .field("sweep", std::string("tolerance"))
      .field("n", static_cast<std::uint64_t>(options.n))
      .field("run", options.run.label)
      .field("rounds", options.rounds);
  context.write_provenance(json);
  json.field("elapsed_s", elapsed_s);
  json.key("points").begin_array();
  for (const TolerancePoint& pt : points) {
    const Measurement& m = pt.median();
    csv.row()
        .cell(pt.case_name)
        .cell(static_cast<long long>(options.n))
        .cell(pt.tolerance)
        .cell(m.stats.precision)
        .cell(m.stats.tree.kappa);
    add_measurement_cells(csv, m);
    csv.cell(static_cast<long long>(pt.met() ? 1 : 0));
    json.begin_object().field("case", pt.case_name).field("tolerance", pt.tolerance);
    json.field("kappa", m.stats.tree.kappa);
    write_measurement(json, m);
    json.key("round_totals").begin_array(true);
    for (const Measurement& r : pt.rounds) json.value(r.stats.times.total);
    json.end().field("met", pt.met()).end();
  }
  json.end().end();
  context.write_file("sweep-tolerance.csv", csv.str());
  context.write_file("sweep-tolerance.json", json.str());
  context.write_file("sweep-tolerance.txt", tolerance_text(context, options, points, elapsed_s));
}

}  // namespace

void run_tolerance_sweep(const ReportContext& context, const ToleranceSweepOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  std::printf("== tolerance sweep, N = %zu, run %s, %d round(s)\n", options.n,
              options.run.label.c_str(), options.rounds);
  std::vector<CaseData> cases;
  for (const std::string& name : options.cases) {
    CaseData c;
    c.particles = make_case(name, options.n, context.seed);
    std::printf("  %s: layout contrast %.4g\n", name.c_str(), layout_of(c.particles).contrast);
    c.reference = make_reference(c.particles, context.sample, context.seed + 1, context.gradient,
                                 context.base.core, context.base.threads);
    cases.push_back(std::move(c));
  }
  std::vector<TolerancePoint> points;
  for (std::size_t c = 0; c < cases.size(); ++c) {
    for (double tolerance : options.tolerances) {
      points.push_back({options.cases[c], tolerance, {}});
    }
  }
  // Rounds pass over every point in turn, so that a slow spell of a shared machine spreads over
  // all of them instead of falling on one.
  for (int round = 0; round < options.rounds; ++round) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      TolerancePoint& pt = points[i];
      const CaseData& data = cases[i / options.tolerances.size()];
      SolverOptions base = context.base;
      base.tolerance = pt.tolerance;
      Measurement m = measure(options.run, base, data.particles, context.gradient, context.repeat,
                              data.reference);
      m.field = VelocityField{};
      const TreeOptions& t = m.stats.tree;
      std::printf(
          "  round %d %-8s T %.0e: %s p %2d theta %.4g kappa %.3g buckets %d/%d: %8.3f s, u err "
          "%.2e, du err %.2e\n",
          round + 1, pt.case_name.c_str(), pt.tolerance, m.stats.precision.c_str(), t.order,
          t.theta, t.kappa, t.target_bucket, t.source_bucket, m.stats.times.total,
          m.errors.velocity_mean_rel, m.errors.has_gradient ? m.errors.gradient_mean_rel : 0.0);
      std::fflush(stdout);
      pt.rounds.push_back(std::move(m));
    }
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_tolerance_sweep(context, options, points, elapsed);
}

}  // namespace vortex::cli
