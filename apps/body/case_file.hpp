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

#include <functional>
#include <string>
#include <vector>

#include "cli.hpp"

namespace vortex::cli {

// The case file's entries as arguments for `options`, the program's parser (used here only to
// learn each option's type; the values it parses on the way are thrown away). Throws
// vortex::FileError naming the file and the key, or the offset of a syntax error.
std::vector<std::string> case_file_arguments(const std::string& path, OptionParser& options);

// Parses the command line with `parser`, each --case FILE (or --case=FILE) in it read first by
// `read_case` into arguments placed before the command line's own, so that the options given on
// the command line win. Returns parser.parse's result: false after --help.
bool parse_with_case_file(
    OptionParser& parser, int argc, char** argv,
    const std::function<std::vector<std::string>(const std::string& path)>& read_case);

// The same for a program whose options `add_options` registers on a parser (as it registered
// them on `parser`): the case file is read with a second parser of them (case_file_arguments),
// over values of their own that are thrown away.
template <class Settings, class Extra>
bool parse_with_case_file(OptionParser& parser, int argc, char** argv,
                          void (*add_options)(OptionParser&, Settings&, Extra&)) {
  return parse_with_case_file(parser, argc, argv, [add_options](const std::string& path) {
    Settings probe;
    Extra extra;
    OptionParser options("case", "", "");
    add_options(options, probe, extra);
    return case_file_arguments(path, options);
  });
}

}  // namespace vortex::cli
