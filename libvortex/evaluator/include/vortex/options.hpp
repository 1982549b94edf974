#pragma once
// Options of the Solver and the names under which they are spelled on command lines and in files.

#include <cstddef>
#include <string>

#include "vortex/math/core_kind.hpp"
#include "vortex/math/far_field_kind.hpp"

namespace vortex {

enum class Method { Direct, Tree };
enum class Backend { Auto, Cpu, Cuda };
// Auto: double on the CPU, float arithmetic (with double accumulation across tiles) on CUDA.
enum class Precision { Auto, Double, Float };
// Where the CUDA backend builds the trees, the interaction lists and the multipoles. Auto: on the
// device. Host: on the host, as the CPU backend does (kept for comparison and as a fallback). The
// CPU backend builds them on the host whatever this says.
enum class TreeBuild { Auto, Host, Device };

// Parameters of the multipole treecode (docs/methods/treecode.md, section 3). A value of 0 is
// picked by the error and cost models of tolerance.hpp for the Solver's tolerance
// (kDefaultTolerance = 2e-4 when that is 0) on the backend that runs; explicit values are kept, and
// the rest are picked around them.
struct TreeOptions {
  int order = 0;     // multipole order p (1..16)
  double theta = 0;  // geometric criterion: far if r_source <= theta * dist(c_source, target box)
  double kappa = 0;  // core criterion: far if box gap >= kappa * sigma_max
  int target_bucket = 0;  // N_b of the target tree
  int source_bucket = 0;  // N_b of the source tree
  int arity = 8;          // 2, 4 or 8 children per node
  // Every far box at order p; by default each at the lowest order that is as accurate there as p
  // at the acceptance limit (far_order in math/acceptance.hpp).
  bool uniform_order = false;
};

// The most CPU threads an option may ask for. Above the hardware threads of today's largest
// shared-memory hosts (two sockets of 192 cores with two threads each: 768), while a count far
// beyond (--threads 100000) has OpenMP try to start that many threads and crash.
constexpr int kMaxThreads = 1024;

struct SolverOptions {
  Core core = Core::Exponential;
  Method method = Method::Tree;
  Backend backend = Backend::Auto;
  Precision precision = Precision::Auto;
  TreeOptions tree;
  TreeBuild tree_build = TreeBuild::Auto;
  // The far field's path (local_choice.hpp): on the CPU, and on CUDA where the trees are built on
  // the device (the host-built CUDA path evaluates M2P whatever this says).
  FarField far_field = FarField::Auto;
  int threads = 0;  // CPU threads, 0..kMaxThreads; 0 = OpenMP's default
  // The mean relative error of the velocity and of its gradient that the caller accepts, in
  // [0, 1). The tree options left at 0 are picked to reach it fastest (tolerance.hpp), and
  // Precision::Auto computes in float wherever float's rounding leaves most of the tolerance to
  // the expansions (on the CPU too), else in double. 0: the defaults, picked for
  // kDefaultTolerance, with Auto's precision as described at Precision.
  double tolerance = 0;
};

// A fixed core-distance factor kappa of a core: the distance, in core radii, beyond which its F
// differs from the singular kernel's by less than 1e-6 (relative). The kappa a Solver uses when
// none is given is picked for its tolerance instead (core_kappa in tolerance.hpp).
double default_kappa(Core core);
// What the tolerance's error model knows of the sources (layout_of in tolerance.hpp): how many
// there are, how unevenly they fill their bounding box, and how many dimensions they fill.
struct SourceLayout {
  std::size_t num_sources = 0;  // 0: none known (the error model then assumes no growth)
  // The mean density around a source over the mean density of the occupied space, both on a grid
  // of about 64 sources a cell, less the grid's counting noise: 1 for a uniform set.
  double contrast = 1;
  // How the pairs of sources that share a cell grow from that grid to one of cells twice as wide:
  // 3 for a volume, 2 for a sheet, 1 for a filament (layout_grid::dimension).
  double dimension = 3;
  // Where the dimension says filament: how far sampled sources spread across it, in core radii
  // (spread_across in tolerance.hpp): 0 for a line or a plane curve one particle across (and
  // where not measured), several for a tube whose core many particles resolve.
  double spread = 0;
};

// The tree options with every 0 replaced by the pick for `tolerance` (0: kDefaultTolerance) on
// `backend` (Cpu or Cuda) with `core`, for sources of that layout.
TreeOptions resolve_tree_options(const TreeOptions& tree, Core core, Backend backend,
                                 double tolerance = 0, const SourceLayout& layout = {});

// Throws std::invalid_argument naming the offending option.
void validate_options(const SolverOptions& options);

// Names used by the command-line tools, e.g. "exponential", "rosenhead-moore", "tree", "cuda".
std::string to_string(Core core);
std::string to_string(Method method);
std::string to_string(Backend backend);
std::string to_string(Precision precision);
std::string to_string(TreeBuild build);
std::string to_string(FarField far_field);
// Parsers throw std::invalid_argument listing the accepted names.
Core parse_core(const std::string& name);
Method parse_method(const std::string& name);
Backend parse_backend(const std::string& name);
Precision parse_precision(const std::string& name);
TreeBuild parse_tree_build(const std::string& name);
FarField parse_far_field(const std::string& name);

}  // namespace vortex
