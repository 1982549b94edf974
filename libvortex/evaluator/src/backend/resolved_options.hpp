#pragma once
// The Solver's options with every "auto" and every 0 resolved, once per call, for both backends.

#include <cstddef>

#include "vortex/options.hpp"

namespace vortex::detail {

// Arithmetic of the pair and multipole sums.
enum class Arithmetic {
  Double,  // double throughout
  Float,  // float arithmetic, accumulated in double (per source range on the CPU, per tile on CUDA)
};

struct ResolvedOptions {
  Method method = Method::Tree;
  Backend backend = Backend::Cpu;  // Cpu or Cuda, never Auto
  Core core = Core::Exponential;
  Arithmetic arithmetic = Arithmetic::Double;
  TreeOptions tree;      // defaults of the backend filled in (zeros for the direct method)
  double tolerance = 0;  // as asked (0: the defaults)
  TreeBuild tree_build = TreeBuild::Host;  // Host or Device (Device only on CUDA)
  int threads = 0;
};

// Precision::Auto is double on the CPU and float (with double accumulation) on CUDA; with a
// tolerance (> 0) float wherever float reaches it (tolerance >= kFloatTolerance), else double.
Arithmetic resolve_arithmetic(Precision precision, Backend backend, double tolerance = 0);

// `backend` is the resolved backend (resolve_backend()); the tree options picked for the
// tolerance depend on the number of sources.
ResolvedOptions resolve_options(const SolverOptions& options, Backend backend,
                                std::size_t num_sources = 0);

const char* to_string(Arithmetic arithmetic);

}  // namespace vortex::detail
