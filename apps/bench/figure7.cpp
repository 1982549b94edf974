#include "figure7.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "measurement_io.hpp"
#include "tables.hpp"
#include "vortex/solver.hpp"
#include "vortex/vtp.hpp"

namespace vortex::cli {

namespace {

// Stock & Gharakhani, Figure 7: 500,000 particles, dual-core Opteron 2216HE and one 8800 GTX,
// treecode mean velocity error 2e-4. Seconds.
struct PaperRow {
  const char* method;
  double total, tree, multipole, velocity;
};
constexpr PaperRow kPaper[] = {{"CPU direct", 11242, 0, 0, 11242},
                               {"CPU treecode", 251.5, 2.0, 11.7, 237.8},
                               {"GPU direct", 88.7, 0, 0, 88.7},
                               {"GPU treecode", 14.9, 1.1, 2.3, 11.4}};
constexpr std::size_t kPaperN = 500000;
constexpr double kPaperVelocityError = 2e-4;

std::string method_name(const Measurement& m) {
  std::string name = m.stats.backend == "cuda" ? "GPU" : "CPU";
  name += m.spec.method == Method::Direct ? " direct" : " treecode";
  // Two rows of one method differ by their precision: name it when asked for explicitly.
  if (m.spec.precision != Precision::Auto) name += " (" + m.stats.precision + ")";
  return name;
}

const PaperRow* paper_row(const std::string& name) {
  for (const auto& row : kPaper) {
    if (name == row.method) return &row;
  }
  return nullptr;
}

std::string seconds(double s) {
  if (s == 0) return "0";
  if (s >= 100) return format("%.1f", s);
  if (s >= 1) return format("%.3g", s);
  return format("%.3g", s);
}

std::string error_text(double e) {
  return e == 0 ? "0" : format("%.2e", e);
}

struct Row {
  std::string name;
  Measurement m;
  double speedup = NAN;  // CPU direct total over this total
};

std::string text_table(const std::vector<Row>& rows, bool any_extrapolated) {
  TextTable table({"method", "precision", "t_total [s]", "t_tree", "t_multipole", "t_lists",
                   "t_velocity", "near", "far", "transfer", "u err", "du err", "speed-up"});
  for (const Row& r : rows) {
    const StageTimes& t = r.m.stats.times;
    const FieldErrors& e = r.m.errors;
    table.add({r.name, r.m.stats.precision, seconds(t.total) + (r.m.extrapolated ? " *" : ""),
               seconds(t.tree), seconds(t.multipole), seconds(t.lists), seconds(velocity_time(t)),
               seconds(t.near), seconds(t.far), seconds(t.transfer),
               error_text(e.velocity_mean_rel),
               e.has_gradient ? error_text(e.gradient_mean_rel) : "-",
               std::isfinite(r.speedup) ? format("%.1f", r.speedup) : "-"});
  }
  std::string text = table.str();
  for (const Row& r : rows) {
    if (r.m.spec.method == Method::Tree) {
      text += r.name + ": " + describe_tree_options(r.m.stats.tree) + "\n";
    }
  }
  if (any_extrapolated) {
    for (const Row& r : rows) {
      if (!r.m.extrapolated) continue;
      text += format("* %s extrapolated: timed at %zu targets, scaled by N / %zu to all %zu\n",
                     r.name.c_str(), r.m.n_targets_timed, r.m.n_targets_timed, r.m.n_targets);
    }
  }
  return text;
}

std::string paper_table(const std::vector<Row>& rows, std::size_t n) {
  const bool same_n = n == kPaperN;
  std::vector<std::string> header{"method",           "paper t_total [s]", "t_tree",
                                  "t_multipole",      "t_velocity",        "paper speed-up",
                                  "this t_total [s]", "this speed-up"};
  if (same_n) header.push_back("paper / this");
  TextTable table(header);
  for (const auto& p : kPaper) {
    const Row* ours = nullptr;
    for (const Row& r : rows) {
      if (r.name == p.method) ours = &r;
    }
    std::vector<std::string> cells{
        p.method,
        seconds(p.total),
        seconds(p.tree),
        seconds(p.multipole),
        seconds(p.velocity),
        format("%.1f", kPaper[0].total / p.total),
        ours ? seconds(ours->m.stats.times.total) : "-",
        ours && std::isfinite(ours->speedup) ? format("%.1f", ours->speedup) : "-"};
    if (same_n) cells.push_back(ours ? format("%.1f", p.total / ours->m.stats.times.total) : "-");
    table.add(cells);
  }
  return format(
             "The paper's Figure 7 (Stock & Gharakhani): N = %zu, dual-core Opteron 2216HE and "
             "one GeForce 8800 GTX,\ntreecode mean velocity error %.0e; its t_velocity holds "
             "near and far field. Speed-ups over each table's CPU direct sum.\n",
             kPaperN, kPaperVelocityError) +
         table.str() +
         (same_n ? "paper / this: how many times faster this machine is.\n"
                 : format("This run has N = %zu: times compare with the paper's only at "
                          "--n %zu.\n",
                          n, kPaperN));
}

void write_csv(const ReportContext& context, const std::vector<Row>& rows) {
  std::vector<std::string> columns{"label", "n", "run", "backend", "precision"};
  for (const auto& c : measurement_columns()) columns.push_back(c);
  columns.push_back("speedup");
  columns.push_back("paper_total");
  CsvTable csv(columns);
  for (const Row& r : rows) {
    csv.row()
        .cell(r.name)
        .cell(static_cast<long long>(r.m.n_targets))
        .cell(r.m.spec.label)
        .cell(r.m.stats.backend)
        .cell(r.m.stats.precision);
    add_measurement_cells(csv, r.m);
    const PaperRow* p = paper_row(r.name);
    csv.cell(r.speedup).cell(p ? p->total : NAN);
  }
  context.write_file("report.csv", csv.str());
}

void write_json(const ReportContext& context, const std::vector<Row>& rows, std::size_t n,
                double direct_limit_s, double elapsed_s, const std::string& vtp) {
  JsonWriter json;
  json.begin_object().field("report", "figure7").field("n", static_cast<std::uint64_t>(n));
  context.write_provenance(json);
  json.field("direct_limit_s", direct_limit_s).field("elapsed_s", elapsed_s);
  json.key("rows").begin_array();
  for (const Row& r : rows) {
    json.begin_object().field("label", r.name);
    write_measurement(json, r.m);
    json.field("speedup_vs_cpu_direct", r.speedup);
    json.end();
  }
  json.end();
  json.key("paper")
      .begin_object()
      .field("n", static_cast<std::uint64_t>(kPaperN))
      .field("velocity_error", kPaperVelocityError)
      .field("hardware", "dual-core Opteron 2216HE, GeForce 8800 GTX");
  json.key("rows").begin_array();
  for (const auto& p : kPaper) {
    json.begin_object(true)
        .field("label", p.method)
        .field("total", p.total)
        .field("tree", p.tree)
        .field("multipole", p.multipole)
        .field("velocity", p.velocity)
        .end();
  }
  json.end().end();
  json.key("files").begin_object(true).field("table", "report.txt").field("csv", "report.csv");
  if (vtp.empty()) {
    json.key("vtp").null();
  } else {
    json.field("vtp", vtp);
  }
  json.end().end();
  context.write_file("report.json", json.str());
}

}  // namespace

std::vector<RunSpec> figure7_runs() {
  std::vector<RunSpec> runs{make_run(Backend::Cpu, Method::Direct),
                            make_run(Backend::Cpu, Method::Tree)};
  if (cuda_available()) {
    runs.push_back(make_run(Backend::Cuda, Method::Direct));
    runs.push_back(make_run(Backend::Cuda, Method::Tree));
  }
  return runs;
}

void run_figure7(const ReportContext& given, const Figure7Options& options) {
  const auto start = std::chrono::steady_clock::now();
  ReportContext context = given;
  const std::vector<RunSpec> runs = options.runs.empty() ? figure7_runs() : options.runs;
  const ParticleSet particles = make_case(context.case_name, options.n, context.seed);
  const std::size_t n = particles.size();
  std::printf("== report: Figure 7 on %s, N = %zu, seed %llu\n", context.case_name.c_str(), n,
              static_cast<unsigned long long>(context.seed));
  std::fflush(stdout);
  const Reference reference =
      make_reference(particles, context.sample, context.seed + 1, context.gradient,
                     context.base.core, context.base.threads);
  std::printf("reference: double-precision CPU direct sum at %zu targets (%.2f s)\n",
              reference.targets.size(), reference.seconds);

  std::vector<Row> rows;
  VelocityField tree_field;
  for (const RunSpec& spec : runs) {
    std::printf("%s ...", spec.label.c_str());
    std::fflush(stdout);
    Row row;
    row.m =
        spec.method == Method::Direct
            ? measure_direct(spec, context.base, particles, context.gradient, context.repeat,
                             reference, options.direct_limit_s)
            : measure(spec, context.base, particles, context.gradient, context.repeat, reference);
    row.name = method_name(row.m);
    if (row.m.stats.backend == "cuda") context.machine.gpu = row.m.stats.device;
    if (spec.method == Method::Tree) tree_field = std::move(row.m.field);
    row.m.field = VelocityField{};
    std::printf(" %.3f s%s\n", row.m.stats.times.total,
                row.m.extrapolated ? " (extrapolated)" : "");
    std::fflush(stdout);
    rows.push_back(std::move(row));
  }
  double direct_total = NAN;
  for (const Row& r : rows) {
    if (r.name == "CPU direct") direct_total = r.m.stats.times.total;
  }
  bool any_extrapolated = false;
  for (Row& r : rows) {
    r.speedup = direct_total / r.m.stats.times.total;
    any_extrapolated = any_extrapolated || r.m.extrapolated;
  }

  std::string vtp;
  if (options.write_vtp && tree_field.size() == n) {
    vtp = "particles.vtp";
    write_vtp(context.path(vtp), particles, &tree_field);
    std::printf("wrote %s (%s field at every particle)\n", context.path(vtp).c_str(),
                rows.empty() ? "" : "treecode");
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string text =
      format("vortex report: the paper's Figure 7 on this machine, N = %zu\n", n) +
      context.describe() + "\n" + text_table(rows, any_extrapolated) +
      "t_velocity = near + far + transfer (the GPU treecode computes the multipoles on the host "
      "while the GPU sums the near field, so its stages may add up to more than t_total).\n"
      "u err, du err: mean relative error of the velocity and of the gradient (Frobenius).\n"
      "speed-up: t_total of the CPU direct sum over the row's t_total.\n\n" +
      paper_table(rows, n) + format("\nreport time: %.1f s\n", elapsed);
  std::printf("\n%s\n", text.c_str());
  context.write_file("report.txt", text);
  write_csv(context, rows);
  write_json(context, rows, n, options.direct_limit_s, elapsed, vtp);
}

}  // namespace vortex::cli
