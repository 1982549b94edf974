// main() of the MPI suites, run under mpiexec: every rank runs every test (the calls they make are
// collective), rank 0 prints (every rank with VORTEX_MPI_TEST_PRINT_ALL set), and a test that
// fails on any rank fails the run.

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0 && std::getenv("VORTEX_MPI_TEST_PRINT_ALL") == nullptr) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int result = RUN_ALL_TESTS();
  MPI_Allreduce(MPI_IN_PLACE, &result, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return result;
}
