// Atomic writes: an interrupted write (SIGINT, SIGTERM) leaves neither the file nor its temporary.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/scratch_dir.hpp"
#include "vortex/file_io.hpp"

namespace vortex {
namespace {

class AtomicFileTest : public testing::ScratchDirTest {
 protected:
  AtomicFileTest() : ScratchDirTest("atomic-file") {}

  // Runs a child that writes half a file and is stopped by `signal`; the child must die of it.
  void interrupt_a_write(int signal) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      AtomicFile file(path("out.vtp"));
      file.write(std::string(3 << 20, 'x'));  // past the buffer: bytes are on disk
      ::raise(signal);
      _exit(0);  // not reached
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the child was not ended by the signal";
    EXPECT_EQ(WTERMSIG(status), signal);
    EXPECT_EQ(files(), std::vector<std::string>{}) << "left behind after signal " << signal;
  }
};

TEST_F(AtomicFileTest, InterruptedWriteLeavesNothing) {
  interrupt_a_write(SIGINT);
  interrupt_a_write(SIGTERM);
}

TEST_F(AtomicFileTest, CommittedFileIsKept) {
  {
    AtomicFile file(path("out.csv"));
    file.write("x,y,z\n");
    file.commit();
  }
  EXPECT_EQ(files(), std::vector<std::string>{"out.csv"});
}

}  // namespace
}  // namespace vortex
