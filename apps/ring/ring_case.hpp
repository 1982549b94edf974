#pragma once
// JSON case files of vortex-ring: one flat object whose keys are the long option names without
// the dashes, e.g.
//
//   {"core-radius": 0.1, "layers": 2, "re": 500, "steps": 400, "method": "tree", "second-ring":
//   true}
//
// Read by the strict reader that vortex-body uses (case_file.hpp): unknown keys and values of the
// wrong type are errors. The file becomes command-line arguments placed before the real ones, so
// options given on the command line override the file. true turns a flag on; false leaves it off.

#include <string>
#include <vector>

namespace vortex::ring_app {

// The case file's entries as command-line arguments; FileError names a malformed file or entry.
std::vector<std::string> case_file_arguments(const std::string& path);

}  // namespace vortex::ring_app
