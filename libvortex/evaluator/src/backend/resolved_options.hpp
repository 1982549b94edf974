#pragma once
// The Solver's options with every "auto" and every 0 resolved, once per call, for both backends.

#include <cstddef>
#include <functional>

#include "vortex/options.hpp"
#include "vortex/particles.hpp"

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

// Precision::Auto is double on the CPU and float (with double accumulation) on CUDA (without a
// tolerance; with one, resolve_options decides).
Arithmetic resolve_arithmetic(Precision precision, Backend backend);

// The sources' mean distance from the middle of their bounding box, in units of their own sigma:
// how coarse float positions are against the cores (float_rounding_error in tolerance.hpp).
double mean_offset_in_sigmas(SourcesView sources);

// What option resolution reads of the sources, each computed only when it is needed: from host
// arrays (facts_of) or from the device's summary of device arrays.
struct SourceFacts {
  std::size_t num_sources = 0;
  std::function<double()> mean_offset_in_sigmas;  // see above
  std::function<SourceLayout()> layout;           // layout_of (tolerance.hpp)
};
SourceFacts facts_of(SourcesView sources);

// `backend` is the resolved backend (resolve_backend()). With a tolerance, the arithmetic and
// the tree options picked depend on the sources (their number, their layout, and their positions
// against their cores when float is considered).
ResolvedOptions resolve_options(const SolverOptions& options, Backend backend,
                                const SourceFacts& facts);
ResolvedOptions resolve_options(const SolverOptions& options, Backend backend,
                                SourcesView sources = {});

const char* to_string(Arithmetic arithmetic);

}  // namespace vortex::detail
