#pragma once
// The cores as test parameters: the lists, and gtest names for them ("rosenheadmoore").

#include <algorithm>
#include <string>

#include "vortex/math/core_function.hpp"
#include "vortex/options.hpp"

namespace vortex::testing {

inline constexpr Core kRegularCores[] = {Core::Exponential, Core::Gaussian, Core::RosenheadMoore,
                                         Core::WinckelmansLeonard};
inline constexpr Core kAllCores[] = {Core::Exponential, Core::Gaussian, Core::RosenheadMoore,
                                     Core::WinckelmansLeonard, Core::Singular};

// The name generator of INSTANTIATE_TEST_SUITE_P for a Core parameter: its name without dashes.
struct CoreName {
  template <class Info>
  std::string operator()(const Info& info) const {
    std::string name = to_string(info.param);
    name.erase(std::remove(name.begin(), name.end(), '-'), name.end());
    return name;
  }
};

}  // namespace vortex::testing
