// The optics watch's history ring: bounded (never more than the bound, never less than
// half once full), surviving a restart, thresholds written once per module and carried
// forward when read, a torn line skipped and counted, port names made file names.

#include "control/suites/optics/optics_history.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace lr::optics {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class HistoryRing : public ::testing::Test {
 protected:
  HistoryRing() {
    char name[] = "/tmp/lr-history-XXXXXX";
    dir = mkdtemp(name);
  }
  ~HistoryRing() override { fs::remove_all(dir); }

  static json status(double t, const std::string& serial = "QSN42") {
    return {{"port", "eth9"},
            {"time", t},
            {"module", {{"serial", serial}, {"thresholds", {{"rx_power", {{"low_warning", 0.0708}}}}}}}};
  }
  static size_t lines_in(const fs::path& file) {
    std::ifstream in(file);
    size_t n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }

  fs::path dir;
};

TEST_F(HistoryRing, KeepsBetweenHalfTheBoundAndTheBoundOldestFirst) {
  OpticsHistory history(dir, 10);
  for (int t = 0; t < 23; ++t) ASSERT_EQ(history.append(status(t)), "");
  const HistoryRead read = read_history(dir, "eth9");
  ASSERT_EQ(read.error, "");
  // 23 lines into a ring of 10 (files of 5): 20 rotated out, 0..14 gone, 15..22 kept.
  ASSERT_EQ(read.lines.size(), 8u);
  EXPECT_EQ(read.lines.front()["time"], 15.0);
  EXPECT_EQ(read.lines.back()["time"], 22.0);
  EXPECT_LE(lines_in(dir / "eth9.jsonl") + lines_in(dir / "eth9.jsonl.1"), 10u);
}

TEST_F(HistoryRing, ThresholdsAreWrittenOncePerModuleAndCarriedForwardWhenRead) {
  OpticsHistory history(dir, 100);
  history.append(status(0));
  history.append(status(1));
  history.append(status(2, "QSN77"));  // swapped: written again
  std::ifstream in(dir / "eth9.jsonl");
  std::vector<json> raw;
  for (std::string line; std::getline(in, line);) raw.push_back(json::parse(line));
  ASSERT_EQ(raw.size(), 3u);
  EXPECT_TRUE(raw[0]["module"].contains("thresholds"));
  EXPECT_FALSE(raw[1]["module"].contains("thresholds"));
  EXPECT_TRUE(raw[2]["module"].contains("thresholds"));
  const HistoryRead read = read_history(dir, "eth9");
  for (const json& line : read.lines) EXPECT_EQ(line["module"]["thresholds"]["rx_power"]["low_warning"], 0.0708);
}

TEST_F(HistoryRing, ARestartedWatchGoesOnCountingWhatIsOnDisk) {
  {
    OpticsHistory history(dir, 10);
    for (int t = 0; t < 4; ++t) history.append(status(t));
  }
  OpticsHistory again(dir, 10);
  for (int t = 4; t < 6; ++t) again.append(status(t));
  // 4 on disk + 1 filled the first file (5), then it rotated: the newer holds 1.
  EXPECT_EQ(lines_in(dir / "eth9.jsonl.1"), 5u);
  EXPECT_EQ(lines_in(dir / "eth9.jsonl"), 1u);
  const HistoryRead read = read_history(dir, "eth9");
  ASSERT_EQ(read.lines.size(), 6u);
  // The newer file starts with the thresholds, so that it reads alone after the next rotation.
  EXPECT_TRUE(read.lines.back()["module"].contains("thresholds"));
}

TEST_F(HistoryRing, ALineACrashCutIsSkippedAndCountedAndTheNextOneStaysWhole) {
  {
    OpticsHistory history(dir, 100);
    history.append(status(0));
  }
  std::ofstream(dir / "eth9.jsonl", std::ios::app) << "{\"port\": \"eth9\", \"ti";  // no newline: cut
  OpticsHistory restarted(dir, 100);
  restarted.append(status(1));
  const HistoryRead read = read_history(dir, "eth9");
  ASSERT_EQ(read.lines.size(), 2u);
  EXPECT_EQ(read.lines[1]["time"], 1.0);
  EXPECT_EQ(read.unreadable, 1u);
}

TEST_F(HistoryRing, APortNamedLikeAnothersOlderFileKeepsItsOwnRing) {
  OpticsHistory history(dir, 4);
  for (int t = 0; t < 3; ++t) history.append(status(t));  // eth9 rotated once: eth9.jsonl.1
  json vlan = status(100);
  vlan["port"] = "eth9.1";
  history.append(vlan);
  EXPECT_EQ(read_history(dir, "eth9.1").lines.size(), 1u);
  EXPECT_EQ(read_history(dir, "eth9").lines.size(), 3u);
}

TEST_F(HistoryRing, APortWithoutHistorySaysWhereItLooked) {
  const HistoryRead read = read_history(dir, "eth3");
  EXPECT_TRUE(read.lines.empty());
  EXPECT_EQ(read.error, "no history of eth3 in " + dir.string() + " (is `linerate optics watch --dir " + dir.string() +
                            "` watching it?)");
}

TEST(HistoryFileStem, PortNamesBecomeFileNamesWithoutLeavingTheFolder) {
  EXPECT_EQ(history_file_stem("eth2"), "eth2");
  EXPECT_EQ(history_file_stem("eth2.100"), "eth2.100");
  EXPECT_EQ(history_file_stem("0000:3b:00.0"), "0000%3A3b%3A00.0");
  EXPECT_EQ(history_file_stem("../etc/passwd"), "%2E.%2Fetc%2Fpasswd");
  EXPECT_EQ(history_file_stem("a_b"), "a_b");
  EXPECT_EQ(history_file_stem("a/b"), "a%2Fb");  // one to one: not a_b's file
  EXPECT_EQ(history_file_stem(""), "%");
}

}  // namespace
}  // namespace lr::optics
