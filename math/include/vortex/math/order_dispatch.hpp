#pragma once
// Turns a run-time multipole order into a compile-time one (host code): the expansion kernels are
// templates on the order so that their loops unroll completely.

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "vortex/math/constants.hpp"

namespace vortex {

// Returns fn(std::integral_constant<int, P>{}) for the run-time order p in Lo..Hi; throws
// std::invalid_argument naming `what` otherwise.
template <int Lo = 1, int Hi = kMaxMultipoleOrder, class Fn>
decltype(auto) dispatch_order(int p, const char* what, Fn&& fn) {
  if constexpr (Lo < Hi) {
    if (p != Lo) return dispatch_order<Lo + 1, Hi>(p, what, std::forward<Fn>(fn));
  } else {
    if (p != Lo)
      throw std::invalid_argument(std::string(what) + ": multipole order " + std::to_string(p) +
                                  " outside the supported range (at most " + std::to_string(Hi) +
                                  ")");
  }
  return fn(std::integral_constant<int, Lo>{});
}

}  // namespace vortex
