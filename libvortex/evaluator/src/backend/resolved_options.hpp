#pragma once
// The Solver's options with every "auto" and every 0 resolved, once per call, for both backends.

#include <cstddef>

#include "backend/units.hpp"
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
  FarField far_field = FarField::Auto;     // the CPU's and the device-built CUDA treecode's
  int threads = 0;
  SourceLayout layout;  // what the error model read of the sources (num_sources 0: not read)
};

// Precision::Auto is double on the CPU and float (with double accumulation) on CUDA (without a
// tolerance; with one, resolve_options decides).
Arithmetic resolve_arithmetic(Precision precision, Backend backend);

// The sources' mean distance from the middle of their bounding box, in units of their own sigma:
// how coarse float positions are against the cores (float_rounding_error in tolerance.hpp).
double mean_offset_in_sigmas(SourcesView sources);

// What float's exponent range has to hold, in units of the sources' largest half-width w: the
// smallest core radius (float holds a core's 1/sigma^3 only so small), and the farthest target's
// distance from the middle of the sources' box (beyond, a far target's gradient ~ 1/d^3 falls
// below float's smallest normal number).
struct FloatRange {
  double smallest_sigma = 1;   // min sigma / w (1 when w = 0)
  double farthest_target = 0;  // max |target - middle| / w (0 when w = 0)
};
// Whether Precision::Auto may pick float: sigma / w >= 2^-30 and d / w <= 2^20.
bool float_holds(const FloatRange& r);
FloatRange float_range_of(SourcesView sources, PointsView targets);
// The same from the sources' box, smallest sigma and the targets' box.
FloatRange float_range_from(const double lo[3], const double hi[3], double min_sigma,
                            const double target_lo[3], const double target_hi[3]);

// What option resolution reads of the sources: computed from host arrays when it is needed
// (facts_of), or given by the device's summary of device arrays. Allocates nothing.
struct SourceFacts {
  std::size_t num_sources = 0;
  bool on_host = false;  // read from `host` on demand; else the given values below
  SourcesView host;
  PointsView host_targets;  // may be empty: then only the sources' range is known
  double given_mean_offset = 0;
  SourceLayout given_layout;
  Units given_units;  // of device sources (units_of for host ones)
  FloatRange given_range;

  double mean_offset_in_sigmas() const;  // see above
  SourceLayout layout() const;           // layout_of (tolerance.hpp)
  FloatRange range() const;              // float_range_of
};
SourceFacts facts_of(SourcesView sources, PointsView targets = {});

// `backend` is the resolved backend (resolve_backend()). With a tolerance, the arithmetic and
// the tree options picked depend on the sources (their number, their layout, and their positions
// against their cores when float is considered).
ResolvedOptions resolve_options(const SolverOptions& options, Backend backend,
                                const SourceFacts& facts);
ResolvedOptions resolve_options(const SolverOptions& options, Backend backend,
                                SourcesView sources = {});

const char* to_string(Arithmetic arithmetic);

// Whether two resolutions build the same trees, lists and work plan from the same points (every
// field but the thread count and the tolerance as asked).
bool same_plan(const ResolvedOptions& a, const ResolvedOptions& b);

}  // namespace vortex::detail
