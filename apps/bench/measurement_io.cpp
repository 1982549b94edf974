#include "measurement_io.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

namespace vortex::cli {

double velocity_time(const StageTimes& t) {
  return t.near + t.far + t.transfer;
}

const std::vector<std::string>& measurement_columns() {
  static const std::vector<std::string> columns{"order",
                                                "theta",
                                                "target_bucket",
                                                "source_bucket",
                                                "arity",
                                                "total",
                                                "tree",
                                                "multipole",
                                                "lists",
                                                "velocity",
                                                "near",
                                                "far",
                                                "transfer",
                                                "pair_interactions",
                                                "multipole_interactions",
                                                "u_mean_rel",
                                                "du_mean_rel",
                                                "u_rel_l2",
                                                "du_rel_l2",
                                                "extrapolated",
                                                "n_targets_timed"};
  return columns;
}

void add_measurement_cells(CsvTable& table, const Measurement& m) {
  const TreeOptions& o = m.stats.tree;  // as used; zeros for direct sums
  const StageTimes& t = m.stats.times;
  const FieldErrors& e = m.errors;
  // No gradient: no gradient error (nan), rather than a misleading 0.
  const double none = std::numeric_limits<double>::quiet_NaN();
  table.cell(static_cast<long long>(o.order))
      .cell(o.theta)
      .cell(static_cast<long long>(o.target_bucket))
      .cell(static_cast<long long>(o.source_bucket))
      .cell(static_cast<long long>(o.arity))
      .cell(t.total)
      .cell(t.tree)
      .cell(t.multipole)
      .cell(t.lists)
      .cell(velocity_time(t))
      .cell(t.near)
      .cell(t.far)
      .cell(t.transfer)
      .cell(static_cast<long long>(m.stats.pair_interactions))
      .cell(static_cast<long long>(m.stats.multipole_interactions))
      .cell(e.velocity_mean_rel)
      .cell(e.has_gradient ? e.gradient_mean_rel : none)
      .cell(e.velocity_rel_l2)
      .cell(e.has_gradient ? e.gradient_rel_l2 : none)
      .cell(static_cast<long long>(m.extrapolated ? 1 : 0))
      .cell(static_cast<long long>(m.n_targets_timed));
}

void write_stage_times(JsonWriter& json, const StageTimes& t, bool with_velocity) {
  json.key("times")
      .begin_object(true)
      .field("total", t.total)
      .field("tree", t.tree)
      .field("multipole", t.multipole)
      .field("lists", t.lists);
  if (with_velocity) json.field("velocity", velocity_time(t));
  json.field("near", t.near).field("far", t.far).field("transfer", t.transfer);
  json.field("setup", t.setup);
  json.field("far_plan", t.far_plan)
      .field("m2l", t.m2l)
      .field("l2l", t.l2l)
      .field("l2p", t.l2p)
      .field("m2p", t.m2p)
      .end();
}

std::string describe_far_field(const EvaluationStats& s) {
  const StageTimes& t = s.times;
  char text[480];
  std::snprintf(text, sizeof text,
                "far field %s: plan %.3e s, M2L %.3e s (%llu), L2L %.3e s (%llu), L2P %.3e s "
                "(%llu targets), M2P %.3e s (%llu target-box pairs)",
                s.far_field.c_str(), t.far_plan, t.m2l,
                static_cast<unsigned long long>(s.m2l_translations), t.l2l,
                static_cast<unsigned long long>(s.l2l_translations), t.l2p,
                static_cast<unsigned long long>(s.l2p_targets), t.m2p,
                static_cast<unsigned long long>(s.multipole_interactions));
  const FarFieldCosts& c = s.far_field_costs;
  if (c.m2l > 0) {
    const std::size_t n = std::strlen(text);
    std::snprintf(text + n, sizeof text - n,
                  "; model costs: M2L %.3g us, L2L %.3g us, L2P %.3g us and M2P %.3g us per "
                  "target",
                  c.m2l * 1e6, c.l2l * 1e6, c.l2p_target * 1e6, c.m2p_target * 1e6);
  }
  return text;
}

std::string describe_plan_balance(const EvaluationStats& s) {
  if (s.near_items == 0 && s.far_items == 0) return "";
  // The largest item over the mean one: how far the work a block takes strays from the average.
  const auto ratio = [](std::uint64_t largest, std::uint64_t total, std::uint64_t items) {
    return items > 0 && total > 0 ? static_cast<double>(largest) * static_cast<double>(items) /
                                        static_cast<double>(total)
                                  : 0.0;
  };
  char text[240];
  std::snprintf(text, sizeof text,
                "plan: %llu near items, the largest %.2f times the mean; %llu far items, the "
                "largest %.2f times the mean",
                static_cast<unsigned long long>(s.near_items),
                ratio(s.near_item_max, s.pair_interactions, s.near_items),
                static_cast<unsigned long long>(s.far_items),
                ratio(s.far_item_max, s.multipole_interactions, s.far_items));
  return text;
}

void write_kernel_rates(JsonWriter& json, const Measurement& m) {
  json.field("pair_gflops", m.pair_gflops)
      .field("far_gflops_at_order_p", m.far_gflops)
      .field("near_peak_fraction", m.near_peak_fraction)
      .field("far_peak_fraction", m.far_peak_fraction)
      .field("device_fp32_peak", m.stats.device_fp32_peak);
}

void write_errors(JsonWriter& json, const FieldErrors& e) {
  // Without a gradient there is no gradient error: null, not a misleading 0.
  json.key("error").begin_object(true).field("velocity_mean_rel", e.velocity_mean_rel);
  if (e.has_gradient) {
    json.field("gradient_mean_rel", e.gradient_mean_rel);
  } else {
    json.key("gradient_mean_rel").null();
  }
  json.field("velocity_rel_l2", e.velocity_rel_l2);
  if (e.has_gradient) {
    json.field("gradient_rel_l2", e.gradient_rel_l2);
  } else {
    json.key("gradient_rel_l2").null();
  }
  json.field("n_sampled", static_cast<std::uint64_t>(e.n_sampled)).end();
}

void write_measurement(JsonWriter& json, const Measurement& m) {
  const StageTimes& t = m.stats.times;
  json.field("run", m.spec.label)
      .field("method", to_string(m.spec.method))
      .field("backend", m.stats.backend)
      .field("precision", m.stats.precision)
      .field("device", m.stats.device)
      .field("tree_build", m.stats.tree_build)
      .field("extrapolated", m.extrapolated)
      .field("n_targets", static_cast<std::uint64_t>(m.n_targets))
      .field("n_targets_timed", static_cast<std::uint64_t>(m.n_targets_timed))
      .field("calls", m.calls);
  // As used (backend defaults resolved); a direct sum has none.
  json.key("tree_options");
  if (m.spec.method == Method::Tree) {
    write_tree_options(json, m.stats.tree);
  } else {
    json.null();
  }
  write_stage_times(json, t, true);
  json.key("counts")
      .begin_object(true)
      .field("pair_interactions", m.stats.pair_interactions)
      .field("multipole_interactions", m.stats.multipole_interactions)
      .field("m2l_translations", m.stats.m2l_translations)
      .field("l2l_translations", m.stats.l2l_translations)
      .field("l2p_targets", m.stats.l2p_targets)
      .field("target_leaves", m.stats.target_leaves)
      .field("source_nodes", m.stats.source_nodes)
      .field("near_items", m.stats.near_items)
      .field("far_items", m.stats.far_items)
      .field("near_item_max", m.stats.near_item_max)
      .field("far_item_max", m.stats.far_item_max)
      .end();
  json.field("interactions_per_s", m.interactions_per_s);
  write_kernel_rates(json, m);
  write_errors(json, m.errors);
}

}  // namespace vortex::cli
