// `linerate neighbors [PORT]` against a scripted data plane: a port the data plane does not
// have, or one without hosts, is the user's argument to fix (exit 2, said on stderr, nothing
// on stdout); no hosts anywhere is said, not an error; --json prints the answer as sent.
#include "control/cli/neighbors_command.hpp"

#include <gtest/gtest.h>

#include <string>

#include "control/command/exit_codes.hpp"
#include "tests/unit/control/scripted_dataplane.hpp"

namespace lr::ctl {
namespace {

using nlohmann::json;
using test::answer;
using test::refusal;
using test::ScriptedDataplane;

struct NeighborsPrinted {
  int code;
  std::string out, err;
};

NeighborsPrinted run_neighbors(ScriptedDataplane& dp, const std::optional<std::string>& port, bool as_json = false) {
  DataplaneClient client(dp.path());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int code = show_neighbors(client, port, as_json);
  std::string out = testing::internal::GetCapturedStdout();
  return {code, out, testing::internal::GetCapturedStderr()};
}

TEST(NeighborsCommand, APortTheDataPlaneDoesNotHaveIsAUsageError) {
  ScriptedDataplane dp({refusal(api::RpcCode::kInvalidParams, "no port is named 'p9'")});
  const NeighborsPrinted p = run_neighbors(dp, "p9");
  EXPECT_EQ(p.code, kExitUsage);
  EXPECT_EQ(p.out, "");
  EXPECT_EQ(p.err, "linerate: neighbors p9: no port is named 'p9'\n");
}

TEST(NeighborsCommand, APortWithoutHostsIsAUsageError) {
  ScriptedDataplane dp({answer(json::array())});
  const NeighborsPrinted p = run_neighbors(dp, "p1", true);
  EXPECT_EQ(p.code, kExitUsage);
  EXPECT_EQ(p.out, "");
  EXPECT_EQ(p.err,
            "linerate: neighbors p1: port 'p1' has no emulated hosts (give it a [[device]] table and run the "
            "profile, or load devices with device.load)\n");
}

TEST(NeighborsCommand, OtherRefusalsAreLeftToMain) {
  ScriptedDataplane dp({refusal(api::RpcCode::kMethodNotFound, "no method 'neighbors.list'")});
  DataplaneClient client(dp.path());
  EXPECT_THROW(show_neighbors(client, std::nullopt, false), RpcCallError);
}

TEST(NeighborsCommand, NoHostsAnywhereIsSaidAndIsNoError) {
  ScriptedDataplane dp({answer(json::array())});
  const NeighborsPrinted p = run_neighbors(dp, std::nullopt);
  EXPECT_EQ(p.code, 0);
  EXPECT_EQ(p.out, "no emulated hosts: the data plane has no devices loaded ([[device]] tables)\n");
  EXPECT_EQ(p.err, "");
}

TEST(NeighborsCommand, JsonIsTheAnswerAsSent) {
  const json sent = json::parse(R"([{"port": "p0", "hosts": 1, "tx_queue": 1, "counts": {"answered": 2},
                                     "neighbors": [], "events": [], "later_field": true}])");
  ScriptedDataplane dp({answer(sent)});
  const NeighborsPrinted p = run_neighbors(dp, "p0", true);
  EXPECT_EQ(p.code, 0);
  EXPECT_EQ(p.out, sent.dump(2) + "\n");
}

TEST(NeighborsCommand, TextIsTheView) {
  ScriptedDataplane dp({answer(json::parse(R"([{"port": "p0", "hosts": 1, "tx_queue": 1}])"))});
  const NeighborsPrinted p = run_neighbors(dp, std::nullopt);
  EXPECT_EQ(p.code, 0);
  EXPECT_EQ(p.out,
            "port p0: 1 host, sending on TX queue 1\n"
            "  no neighbours to resolve\n"
            "  slow path: 0 answered, 0 no reply, 0 not for us, 0 malformed, 0 unsupported, 0 dropped (ring full), "
            "0 sent, 0 send failed\n"
            "  events: none\n");
}

}  // namespace
}  // namespace lr::ctl
