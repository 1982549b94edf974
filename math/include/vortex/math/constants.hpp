#pragma once
// Constants shared by every backend.

namespace vortex {

// The Biot-Savart factor 1/(4 pi), applied once to each finished sum.
constexpr double kInvFourPi = 0.079577471545947667884;

// Largest multipole order of the expansions and of the order dispatcher.
constexpr int kMaxMultipoleOrder = 16;

}  // namespace vortex
