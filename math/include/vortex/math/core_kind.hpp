#pragma once
// The particles' smoothing cores by name: what the options choose, apart from the cores' shapes
// (core_function.hpp), so that the public options need none of the kernel code.

namespace vortex {

enum class Core { Exponential, Gaussian, RosenheadMoore, WinckelmansLeonard, Singular };

}  // namespace vortex
