#pragma once
// The valid values of vortex-body's own numeric options: checked before a run (body_checks.cpp)
// and shown by --help (body_settings.cpp). Those of the options vortex-ring offers too are in the
// shared table (toolkit_cli.cpp).

#include "option_range.hpp"

namespace vortex::body_app {

using cli::Range;

// Lengths and speeds are of order one in the app's units (D = U = 1 by default): these bounds
// keep products such as U D / Re, 8 nu dt and their squares far inside double precision.
constexpr Range kScale{1e-6, 1e6};
constexpr Range kFrequency{1, 2048};  // 20 F^2 panels: 8.4e7 at most
// Beyond, the boundary layer (about D / sqrt(Re)) is thinner than any spacing that fits in memory.
constexpr Range kRe{0, 1e7, true};
constexpr Range kDt{1e-6, 0.5};  // of D / U: the stream moves at most half the body a step
constexpr Range kSteps{0, 1e7};
constexpr Range kAngle{-360, 360};
constexpr Range kDiameter{0.01, 100};     // of the body's largest width, or 0
constexpr Range kSpacing{0, 0.25, true};  // of D: at least 4 particles across the body
constexpr Range kShedLayer{0.1, 10};      // of h: finer layers merge at once (--merge-distance)
constexpr Range kShedOffset{0, 4, true};  // of h: in the fluid, within the diffusion length
constexpr Range kCore{0.1, 4};            // of h, or 0: overlapping cores that do not smear
constexpr Range kFraction{0, 1, false, true};  // --min-wall (units of h)
// --wall-exact-reach, of the largest panel diameter: from within a panel to the whole of a body of
// a few panels.
constexpr Range kWallReach{0.1, 100};
// --outflow, a length: 0 (none), or at least the body's size (which the flow checks).
constexpr Range kOutflow{0, 1e6};
// --max-growth: a factor above 1, or 0 (never).
constexpr Range kMaxGrowth{1, 1e300, true};
constexpr Range kBemTolerance{1e-14, 0.1};  // below, double precision cannot reach it
constexpr Range kBemCluster{1, 256};
constexpr Range kBemCoarse{-1, 256};
constexpr Range kProjectionCells{2, 4096};
// --field-grid: points along the longest side, or 0 (none); 1024 is 2e9 points at most.
constexpr Range kFieldGrid{8, 1024};
constexpr Range kBenchRepeats{0, 1000};
constexpr Range kBenchSample{1, 1e6};
constexpr Range kSeconds{0, 1e9};

}  // namespace vortex::body_app
