#pragma once
// The entry point shared by the apps: runs the app's body and turns any exception into
// "<program>: error: <message>" on stderr and exit status 1. Outputs are written atomically, so a
// failed run leaves no output file behind.

namespace vortex::cli {

int run_app(const char* program, int argc, char** argv, int (*body)(int argc, char** argv));

}  // namespace vortex::cli
