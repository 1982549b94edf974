#include "app_main.hpp"

#include <cstdio>
#include <exception>
#include <new>

#include "memory_check.hpp"
#include "vortex/out_of_memory.hpp"

namespace vortex::cli {

int run_app(const char* program, int argc, char** argv, int (*body)(int argc, char** argv)) {
  try {
    return body(argc, argv);
  } catch (const OutOfMemory& e) {
    std::fprintf(stderr, "%s: error: %s (%s available)\n", program, e.what(),
                 memory_text(available_memory()).c_str());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "%s: error: out of memory: the problem needs more than the %s this machine has "
                 "available; make it smaller\n",
                 program, memory_text(available_memory()).c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: error: unknown failure\n", program);
  }
  return 1;
}

}  // namespace vortex::cli
