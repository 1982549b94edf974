#pragma once
// The OpenMP thread count of one evaluation (SolverOptions::threads), restored when it ends.

#include <omp.h>

namespace vortex::detail {

class ThreadScope {
 public:
  explicit ThreadScope(int threads) : previous_(omp_get_max_threads()) {
    if (threads > 0) omp_set_num_threads(threads);
  }
  ~ThreadScope() { omp_set_num_threads(previous_); }
  ThreadScope(const ThreadScope&) = delete;
  ThreadScope& operator=(const ThreadScope&) = delete;

 private:
  int previous_;
};

}  // namespace vortex::detail
