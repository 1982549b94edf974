#pragma once
// A fresh folder per test under the build tree (test-files/GROUP/TEST), so that tests that write
// files can run in parallel, with helpers to name, write and list files in it.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace vortex::testing {

class ScratchDirTest : public ::testing::Test {
 protected:
  explicit ScratchDirTest(std::string group) : group_(std::move(group)) {}

  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::path(VORTEX_BINARY_DIR) / "test-files" / group_ / info->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write_text(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir_))
      names.push_back(entry.path().filename().string());
    return names;
  }

  std::filesystem::path dir_;

 private:
  std::string group_;
};

}  // namespace vortex::testing
