#pragma once
// The Solver's options with every "auto" and every 0 resolved, once per call, for both backends.

#include <cstddef>

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
  FarField far_field = FarField::Auto;     // read by the CPU backend only
  int threads = 0;
};

// Precision::Auto is double on the CPU and float (with double accumulation) on CUDA (without a
// tolerance; with one, resolve_options decides).
Arithmetic resolve_arithmetic(Precision precision, Backend backend);

// The sources' mean distance from the middle of their bounding box, in units of their own sigma:
// how coarse float positions are against the cores (float_rounding_error in tolerance.hpp).
double mean_offset_in_sigmas(SourcesView sources);

// What option resolution reads of the sources: computed from host arrays when it is needed
// (facts_of), or given by the device's summary of device arrays. Allocates nothing.
struct SourceFacts {
  std::size_t num_sources = 0;
  bool on_host = false;  // read from `host` on demand; else the given values below
  SourcesView host;
  double given_mean_offset = 0;
  SourceLayout given_layout;

  double mean_offset_in_sigmas() const;  // see above
  SourceLayout layout() const;           // layout_of (tolerance.hpp)
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
