#pragma once
// The generated particle cases the benchmark apps run (vortex/generators.hpp), by name.

#include <cstdint>
#include <string>

#include "vortex/particles.hpp"

namespace vortex::cli {

// cube | plummer | ring | sheet | two-scale | ellipsoid (generators.hpp), every position and sigma
// multiplied by `scale` (the strengths unchanged); throws UsageError for other names, n = 0, or a
// scale that is not finite and positive or that takes a position or sigma out of double's range.
ParticleSet make_case(const std::string& name, std::size_t n, std::uint64_t seed,
                      double scale = 1.0);

}  // namespace vortex::cli
