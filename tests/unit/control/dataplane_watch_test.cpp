// A front end's watch of its data plane, on a virtual clock: the waits between tries
// double from 0.5 s to at most 30 s, the loss and the return are said once each (never a
// line per failed try), and a try is due only when its wait has passed.
#include "control/client/dataplane_watch.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "control/client/dataplane_client.hpp"

namespace lr::ctl {
namespace {

using std::chrono::milliseconds;
using Clock = DataplaneWatch::Clock;

const DataplaneWatch::Words kOtg{"linerate otg", "answering 503 and retrying with backoff", "POST /config again"};

struct Logged {
  std::vector<std::string> lines;
  DataplaneWatch::Log log() {
    return [this](const std::string& line) { lines.push_back(line); };
  }
};

void still_away() { throw ConnectionError("cannot reach the data plane at /s.sock: No such file or directory"); }

TEST(DataplaneWatch, WaitsDoubleFromHalfASecondToAtMostThirtySeconds) {
  std::vector<long> waits;
  for (unsigned tries : {0U, 1U, 2U, 3U, 4U, 5U, 6U, 7U, 40U, 4'000'000'000U})
    waits.push_back(static_cast<long>(backoff_wait(tries).count()));
  EXPECT_EQ(waits, (std::vector<long>{500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000}));
}

TEST(DataplaneWatch, TheLossIsSaidOnceWithItsReasonAndFailedTriesAreNotSaid) {
  Logged logged;
  DataplaneWatch watch("/s.sock", kOtg, logged.log());
  const Clock::time_point t0{};
  EXPECT_TRUE(watch.up());
  watch.lost("the data plane at /s.sock hung up: End of file", t0);
  watch.lost("sending to /s.sock: Broken pipe", t0 + milliseconds(10));  // a second caller finds it gone too
  EXPECT_EQ(logged.lines, (std::vector<std::string>{
                              "linerate otg: the data plane at /s.sock went away (the data plane at /s.sock hung up: "
                              "End of file); answering 503 and retrying with backoff"}));
  EXPECT_FALSE(watch.up());
  EXPECT_EQ(watch.reason(), "sending to /s.sock: Broken pipe");  // the latest words
  EXPECT_FALSE(watch.retry(still_away, t0 + milliseconds(500)));
  EXPECT_FALSE(watch.retry(still_away, t0 + milliseconds(1500)));
  EXPECT_EQ(logged.lines.size(), 1U);
  EXPECT_EQ(watch.reason(), "cannot reach the data plane at /s.sock: No such file or directory");
  EXPECT_EQ(watch.tries(), 2U);
}

TEST(DataplaneWatch, ATryIsDueOnlyOnceItsWaitHasPassed) {
  DataplaneWatch watch("/s.sock", kOtg, [](const std::string&) {});
  const Clock::time_point t0{};
  EXPECT_FALSE(watch.due(t0));  // up: nothing to try
  watch.lost("gone", t0);
  EXPECT_EQ((std::tuple{watch.due(t0 + milliseconds(499)), watch.due(t0 + milliseconds(500))}),
            (std::tuple{false, true}));
  EXPECT_EQ(watch.until_next_try(t0 + milliseconds(100)), milliseconds(400));
  // Failed at 0.5 s: the next after 1 s more; failed at 1.5 s: 2 s more.
  watch.retry(still_away, t0 + milliseconds(500));
  EXPECT_EQ((std::tuple{watch.due(t0 + milliseconds(1499)), watch.due(t0 + milliseconds(1500))}),
            (std::tuple{false, true}));
  watch.retry(still_away, t0 + milliseconds(1500));
  EXPECT_EQ(watch.until_next_try(t0 + milliseconds(1500)), milliseconds(2000));
  EXPECT_EQ(watch.away_for(t0 + milliseconds(1500)), milliseconds(1500));
}

TEST(DataplaneWatch, TheReturnIsSaidOnceWithHowLongAndHowManyTries) {
  Logged logged;
  DataplaneWatch watch("/s.sock", kOtg, logged.log());
  const Clock::time_point t0{};
  watch.lost("gone", t0);
  for (int ms : {500, 1500, 3500, 7500}) watch.retry(still_away, t0 + milliseconds(ms));
  int connects = 0;
  EXPECT_TRUE(watch.retry([&] { ++connects; }, t0 + milliseconds(12'300)));
  EXPECT_TRUE(watch.retry([&] { ++connects; }, t0 + milliseconds(12'400)));  // up: no try
  EXPECT_EQ(connects, 1);
  ASSERT_EQ(logged.lines.size(), 2U);
  EXPECT_EQ(logged.lines[1],
            "linerate otg: the data plane at /s.sock serves again (after 12.3 s, 5 tries); "
            "POST /config again");
  EXPECT_EQ((std::tuple{watch.up(), watch.reason(), watch.tries()}), (std::tuple{true, std::string(), 0U}));
  // A second loss is said again, its waits from the start.
  watch.lost("gone again", t0 + milliseconds(20'000));
  EXPECT_EQ(logged.lines.size(), 3U);
  EXPECT_TRUE(watch.due(t0 + milliseconds(20'500)));
}

TEST(DataplaneWatch, ReturnAfterOneTryAndNothingToAdd) {
  Logged logged;
  DataplaneWatch watch("/s.sock", {"linerate exporter", "serving lr_up 0 and retrying with backoff", ""}, logged.log());
  watch.lost("gone", Clock::time_point{});
  watch.retry([] {}, Clock::time_point{} + milliseconds(500));
  ASSERT_EQ(logged.lines.size(), 2U);
  EXPECT_EQ(logged.lines[1], "linerate exporter: the data plane at /s.sock serves again (after 0.5 s, 1 try)");
}

}  // namespace
}  // namespace lr::ctl
