#pragma once
// JSON case files of vortex-body and vortex-ring: one flat object whose keys are the long option
// names without the dashes, e.g. {"body": "sphere", "re": 300, "dt": 0.01, "steps": 30,
// "plot": false}. The entries become command-line arguments placed before the real ones, so
// that a case file and flags share one parser and flags given after it win.
//
// The reader is strict: every key must name an option of the program, and its value must have
// the option's type (a string for a text option, a number for a numeric one, an integer for an
// integer one, true or false for a flag: true turns it on, false leaves it off; "plot": false is
// the flag --no-plot). Each value becomes one "--key=value" word, so that it is never taken
// together with a command-line word.

#include <string>
#include <vector>

#include "cli.hpp"

namespace vortex::cli {

// The case file's entries as arguments for `options`, the program's parser (used here only to
// learn each option's type; the values it parses on the way are thrown away). Throws
// vortex::FileError naming the file and the key, or the offset of a syntax error.
std::vector<std::string> case_file_arguments(const std::string& path, OptionParser& options);

}  // namespace vortex::cli

namespace vortex::body_app {

// vortex-body's case file as arguments (its options, body_settings.hpp).
std::vector<std::string> case_file_arguments(const std::string& path);

}  // namespace vortex::body_app
