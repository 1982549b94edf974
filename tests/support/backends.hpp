#pragma once
// The backends as test parameters: a suite written once runs on the CPU and on CUDA, and its CUDA
// cases skip where no device is present (CI). Each backend is checked in the arithmetics it
// offers, against the tolerance that arithmetic reaches.

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "support/core_params.hpp"
#include "vortex/solver.hpp"

namespace vortex::testing {

inline constexpr Backend kBackends[] = {Backend::Cpu, Backend::Cuda};

// An arithmetic of a backend and the relative agreement with a double reference it reaches.
struct Arithmetic {
  Precision precision;
  double tolerance;
};

// CPU: double (the reference arithmetic). CUDA: float with double accumulation, and double.
inline std::vector<Arithmetic> arithmetics(Backend b) {
  if (b == Backend::Cpu) return {{Precision::Double, 1e-13}};
  return {{Precision::Float, 1e-5}, {Precision::Double, 1e-12}};
}

// Skips the running test when `b` cannot run here.
#define VORTEX_SKIP_WITHOUT(b)                                         \
  do {                                                                 \
    if ((b) == ::vortex::Backend::Cuda && !::vortex::cuda_available()) \
      GTEST_SKIP() << "no CUDA device";                                \
  } while (0)

// gtest names: "cpu", "cuda".
struct BackendName {
  template <class Info>
  std::string operator()(const Info& info) const {
    return to_string(info.param);
  }
};

// Parameters (backend, core), named "cpu_exponential".
using BackendCore = std::tuple<Backend, Core>;
struct BackendCoreName {
  template <class Info>
  std::string operator()(const Info& info) const {
    struct {
      Core param;
    } core{std::get<1>(info.param)};
    return to_string(std::get<0>(info.param)) + "_" + CoreName()(core);
  }
};

}  // namespace vortex::testing
