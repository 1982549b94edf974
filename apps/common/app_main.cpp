#include "app_main.hpp"

#include <cstdio>
#include <exception>

namespace vortex::cli {

int run_app(const char* program, int argc, char** argv, int (*body)(int argc, char** argv)) {
  try {
    return body(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: error: unknown failure\n", program);
  }
  return 1;
}

}  // namespace vortex::cli
