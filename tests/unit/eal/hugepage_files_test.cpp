// Stale hugepage files: found by prefix, removed only when their registered owner is
// gone and no process holds them, counted in files and bytes.
#include "dataplane/eal/hugepage_files.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace lr::dp {
namespace {

namespace fs = std::filesystem;

constexpr pid_t kLivePid = 4242;
bool only_4242_runs(pid_t pid) { return pid == kLivePid; }

struct HugepageFilesTest : ::testing::Test {
  fs::path root = fs::temp_directory_path() / ("lr-hugepages-" + std::to_string(::getpid()));
  HugepagePaths paths{{(root / "huge").string()}, (root / "registry").string(), (root / "runtime").string()};

  HugepageFilesTest() {
    fs::remove_all(root);
    fs::create_directories(root / "huge");
    fs::create_directories(root / "runtime" / "dead");
  }
  ~HugepageFilesTest() override { fs::remove_all(root); }

  void page(const std::string& name, size_t bytes = 2 << 20) {
    std::ofstream(root / "huge" / name) << std::string(bytes, 'x');
  }
  bool exists(const std::string& name) const { return fs::exists(root / "huge" / name); }
};

TEST_F(HugepageFilesTest, ADeadOwnersFilesGoAndALiveOnesStay) {
  page("deadmap_0");
  page("deadmap_1");
  page("deadmap_2", 1 << 20);
  page("dead-twinmap_0");  // another prefix that only starts the same
  page("deadmap_notes");   // not DPDK's file name
  page("livemap_0");
  ASSERT_EQ(register_hugepage_prefix(paths, "dead", 999999), "");
  ASSERT_EQ(register_hugepage_prefix(paths, "live", kLivePid), "");

  const auto removed = remove_stale_hugepages(paths, only_4242_runs);
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0].prefix, "dead");
  EXPECT_EQ(removed[0].pid, 999999);
  EXPECT_EQ(removed[0].files, 3u);
  EXPECT_EQ(removed[0].bytes, (2u << 20) * 2 + (1u << 20));
  EXPECT_EQ(describe(removed[0]),
            "removed 3 stale hugepage files (5 MiB) of prefix 'dead' (pid 999999, no longer running)");
  EXPECT_FALSE(exists("deadmap_0"));
  EXPECT_TRUE(exists("dead-twinmap_0"));
  EXPECT_TRUE(exists("deadmap_notes"));
  EXPECT_TRUE(exists("livemap_0"));
  EXPECT_FALSE(fs::exists(root / "runtime" / "dead"));
  EXPECT_FALSE(fs::exists(root / "registry" / "dead"));  // nothing left to find next time
  EXPECT_TRUE(fs::exists(root / "registry" / "live"));
  EXPECT_TRUE(remove_stale_hugepages(paths, only_4242_runs).empty());
}

TEST_F(HugepageFilesTest, AFileSomeProcessHoldsStays) {
  page("deadmap_0");
  page("deadmap_1");
  ASSERT_EQ(register_hugepage_prefix(paths, "dead", 999999), "");
  const int fd = ::open((root / "huge" / "deadmap_1").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_SH), 0);  // as DPDK holds the files it maps
  const auto removed = remove_stale_hugepages(paths, only_4242_runs);
  ::close(fd);
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0].files, 1u);
  EXPECT_TRUE(exists("deadmap_1"));
}

TEST_F(HugepageFilesTest, AtItsOwnExitAProcessRemovesItsFilesAndRegistration) {
  page("mymap_0");
  page("othermap_0");
  ASSERT_EQ(register_hugepage_prefix(paths, "my", ::getpid()), "");
  const RemovedHugepages own = remove_own_hugepages(paths, "my");
  EXPECT_EQ(own.files, 1u);
  EXPECT_FALSE(exists("mymap_0"));
  EXPECT_TRUE(exists("othermap_0"));
  EXPECT_FALSE(fs::exists(root / "registry" / "my"));
}

}  // namespace
}  // namespace lr::dp
