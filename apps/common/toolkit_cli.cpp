#include "toolkit_cli.hpp"

#include <stdexcept>
#include <vector>

#include "vortex/time_integration.hpp"

namespace vortex::cli {

namespace {

constexpr bool kNoDefault = true;

// A text or integer option without a range, a flag, and a number with its valid range.
constexpr SharedOptionSpec plain(SharedOption id, const char* names, const char* metavar,
                                 const char* help, bool no_default = false) {
  return {id, names, metavar, help, false, {0, 0}, "", "", no_default};
}
constexpr SharedOptionSpec flag(SharedOption id, const char* names, const char* help) {
  return plain(id, names, "", help);
}
constexpr SharedOptionSpec ranged(SharedOption id, const char* names, const char* metavar,
                                  const char* help, Range range, const char* unit,
                                  const char* what) {
  return {id, names, metavar, help, true, range, unit, what, false};
}

// The table: one row per SharedOption, in its order.
constexpr SharedOptionSpec kTable[] = {
    plain(SharedOption::Case, "--case", "FILE",
          "JSON case file: one flat object whose keys are the long option names without the "
          "dashes (a flag takes true or false; \"plot\": false is --no-plot); options given "
          "after it win",
          kNoDefault),
    plain(SharedOption::Output, "-o,--output", "DIR", "output folder, created where missing"),
    plain(SharedOption::Json, "--json", "FILE", "also write the run's summary as JSON", kNoDefault),
    ranged(SharedOption::Every, "--every", "K",
           "write the .vtp files of the .pvd series every K steps; 0: none", {0, 1e7}, " steps",
           "steps; 0: none"),
    ranged(SharedOption::Progress, "--progress", "SECONDS",
           "seconds between progress lines, and one after the last step; 0: none", {0, 1e9}, " s",
           "seconds; 0: none"),
    flag(SharedOption::Quiet, "-q,--quiet",
         "print no set-up and no progress lines, the results only"),
    flag(SharedOption::NoPlot, "--no-plot", "draw no PNG plots"),
    plain(SharedOption::Stretching, "--stretching", "NAME",
          "vortex stretching: classical, transpose or none"),
    // Checked with its rate by vortex::check_relaxation.
    ranged(SharedOption::Relaxation, "--relaxation", "F",
           "turn each particle's strength by this fraction toward the field's vorticity at the "
           "start of every step; 0: none",
           {0, 1}, "", "a fraction"),
    plain(SharedOption::RelaxationRate, "--relaxation-rate", "R",
          "the same at a rate per unit time: the fraction R dt each step, so that runs at "
          "different time steps relax alike; 0: none; valid: R >= 0 with R dt at most 1, and not "
          "with --relaxation"),
    // More than 1 % of the strongest particle removes circulation that matters.
    ranged(SharedOption::RemoveThreshold, "--remove-threshold", "E",
           "remove the particles whose |Gamma| is below E times the largest |Gamma|", {0, 0.01}, "",
           "a fraction of the largest |Gamma|"),
    // At h or more apart, particles are the lattice's neighbours, not doubles.
    ranged(SharedOption::MergeDistance, "--merge-distance", "M",
           "merge particles closer than M h, h the particle spacing (--spacing); 0: never",
           {0, 1, false, true}, " h", "units of h, the particle spacing"),
    plain(SharedOption::MergeInto, "--merge-into", "neighbours|partner",
          "where a merged particle's strength goes: spread over the neighbours within 1.5 h, or "
          "whole to the nearest particle that stays within the merge distance, moved to the "
          "centroid (keeps a vortex line's strength on the line)"),
};

constexpr bool table_in_order() {
  int k = 0;
  for (const SharedOptionSpec& spec : kTable)
    if (static_cast<int>(spec.id) != k++) return false;
  return k == static_cast<int>(SharedOption::MergeInto) + 1;
}
static_assert(table_in_order(), "kTable: one row per SharedOption, in its order");

constexpr RangeCheck<UsageError> require;

template <class T>
void add_valued(OptionParser& parser, SharedOption id, T& value, const std::string& default_text) {
  const SharedOptionSpec& spec = shared_option(id);
  parser.add(spec.names, spec.metavar, shared_help(id), value,
             spec.no_default ? "-" : default_text);
}

}  // namespace

const SharedOptionSpec& shared_option(SharedOption id) {
  return kTable[static_cast<int>(id)];
}

std::string option_name(SharedOption id) {
  const std::vector<std::string> names = split_list(shared_option(id).names);
  return names.back();
}

std::string shared_help(SharedOption id) {
  const SharedOptionSpec& spec = shared_option(id);
  return spec.help + (spec.ranged ? valid(spec.range, spec.unit) : "");
}

void add_shared(OptionParser& parser, SharedOption id, double& value,
                const std::string& default_text) {
  add_valued(parser, id, value, default_text);
}

void add_shared(OptionParser& parser, SharedOption id, int& value,
                const std::string& default_text) {
  add_valued(parser, id, value, default_text);
}

void add_shared(OptionParser& parser, SharedOption id, std::string& value,
                const std::string& default_text) {
  add_valued(parser, id, value, default_text);
}

void add_shared(OptionParser& parser, SharedOption id, bool& flag) {
  parser.add_flag(shared_option(id).names, shared_help(id), flag);
}

void check_shared(SharedOption id, double value) {
  const SharedOptionSpec& spec = shared_option(id);
  if (!spec.ranged) throw std::logic_error("check_shared: " + option_name(id) + " has no range");
  require(option_name(id), value, spec.range, spec.what);
}

MergeInto parse_merge_into(const std::string& name) {
  if (name == "neighbours") return MergeInto::Neighbours;
  if (name == "partner") return MergeInto::Partner;
  throw std::invalid_argument(option_name(SharedOption::MergeInto) + ": unknown '" + name +
                              "' (neighbours or partner)");
}

void check_time_step_options(const std::string& stretching, double relaxation,
                             double relaxation_rate, double dt) {
  parse_stretching(stretching);  // throws, naming the accepted values
  check_relaxation(relaxation, relaxation_rate, option_name(SharedOption::Relaxation),
                   option_name(SharedOption::RelaxationRate), dt, "--dt");
}

}  // namespace vortex::cli
