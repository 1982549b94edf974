#pragma once
// vortex-bench-mpi's command line.

#include <cstdint>
#include <string>

#include "vortex/options.hpp"

namespace vortex::cli {

struct MpiBenchSettings {
  std::string case_name = "cube";
  std::uint64_t n = 1000000;   // particles on all ranks (strong scaling)
  std::uint64_t per_rank = 0;  // particles a rank (weak scaling: n = per_rank * ranks)
  std::string deal = "slabs";  // how the generated set starts on the ranks
  int repeat = 7;
  std::uint64_t seed = 1;
  std::uint64_t sample = 0;  // targets of the error check against the direct sum (0: none)
  bool velocity_only = false;
  bool baseline = false;  // also time the one-rank Solver on the whole set (rank 0)
  std::string json_path;
  SolverOptions solver;
};

// Parses argv (the same on every rank); returns false after --help. Throws UsageError.
bool parse_mpi_bench(int argc, char** argv, int ranks, MpiBenchSettings& s);

}  // namespace vortex::cli
