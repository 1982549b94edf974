#pragma once
// The options that vortex-ring and vortex-body both offer, each defined once (toolkit_cli.cpp):
// its one name, its help text and its valid range, so that every app spells, explains and checks
// it alike. The apps keep the values, and their defaults, in their own settings: --help shows the
// same text for an option in every app, and only the default after it differs.
//
// The options whose valid range is relative to what an app simulates (--re, --dt, --steps,
// --spacing, --radius: of D and U for a body, of the core and the circulation for a ring) stay
// with each app; the solver's options are cli::SolverCli's (solver_cli.hpp).

#include <string>

#include "cli.hpp"
#include "option_range.hpp"
#include "vortex/particle_control.hpp"

namespace vortex::cli {

enum class SharedOption {
  // The run and its output.
  Case,
  Output,
  Json,
  Every,
  Progress,
  Quiet,
  NoPlot,
  // The time step (vortex::TimeIntegratorOptions).
  Stretching,
  Relaxation,
  RelaxationRate,
  // Particle control (vortex::ParticleControlOptions).
  RemoveThreshold,
  MergeDistance,
  MergeInto,  // the last
};

// One row of the table.
struct SharedOptionSpec {
  SharedOption id;
  const char* names;    // as OptionParser::add takes them: the long name, and a short one
  const char* metavar;  // empty for a flag
  const char* help;     // without the valid range
  bool ranged;          // a number with a valid range:
  Range range;
  const char* unit;  // after the range in --help (" h"), or empty
  const char* what;  // what the value is, in the message of one out of range
  bool no_default =
      false;  // --help shows no default (a file that is only read or written when given)
};

const SharedOptionSpec& shared_option(SharedOption id);
// The long name, e.g. "--merge-distance".
std::string option_name(SharedOption id);
// The help as --help shows it before the default: the table's help and, for a ranged option,
// "; valid: RANGE UNIT".
std::string shared_help(SharedOption id);

// Registers the option with the table's names, metavar and help; the variable's value before
// parsing is the app's default (`default_text` as in OptionParser::add). A flag takes a bool.
void add_shared(OptionParser& parser, SharedOption id, double& value,
                const std::string& default_text = "");
void add_shared(OptionParser& parser, SharedOption id, int& value,
                const std::string& default_text = "");
void add_shared(OptionParser& parser, SharedOption id, std::string& value,
                const std::string& default_text = "");
void add_shared(OptionParser& parser, SharedOption id, bool& flag);

// Throws UsageError "OPTION VALUE is out of range RANGE (WHAT)" for a ranged option's value
// outside its range.
void check_shared(SharedOption id, double value);
// --merge-into's value; std::invalid_argument naming the accepted names.
MergeInto parse_merge_into(const std::string& name);
// The time step's options: the stretching's name, the relaxation in [0, 1], its rate >= 0 with
// rate dt <= 1, not both (vortex::check_relaxation, with the options' names).
void check_time_step_options(const std::string& stretching, double relaxation,
                             double relaxation_rate, double dt);

}  // namespace vortex::cli
