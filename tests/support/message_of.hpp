#pragma once
// The message of the exception a call throws, for tests that check what an error says.

#include <gtest/gtest.h>

#include <string>

namespace vortex::testing {

// The what() of the E that `call` throws; a test failure, and "", where it throws none.
template <class E, class Call>
std::string message_of(Call&& call) {
  try {
    call();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception";
  return "";
}

}  // namespace vortex::testing
