#pragma once
// A JSON case file for vortex-body: one flat object whose keys are the long option names without
// the dashes, e.g. {"body": "sphere", "re": 300, "dt": 0.01, "steps": 30, "plot": false}. It is
// turned into command-line arguments, so that a case file and flags share one parser and flags
// given after it win.

#include <string>
#include <vector>

namespace vortex::body_app {

// "--key value" pairs (a true boolean becomes the flag alone; false is left out). Throws
// vortex::FileError naming the file and the position of a syntax error.
std::vector<std::string> case_file_arguments(const std::string& path);

}  // namespace vortex::body_app
