// `linerate run PROFILE` on a serving data plane (scripted): a profile's [[device]] tables go
// to the data plane with device.load, in its JSON form and with the profile's path, before
// its streams (stream.load); a profile without devices sends none.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "control/cli/run_command.hpp"
#include "tests/unit/control/scripted_dataplane.hpp"

namespace lr::ctl {
namespace {

using nlohmann::json;
using test::answer;
using test::refusal;
using test::ScriptedDataplane;

const char* const kProfileHead = R"(
[[port]]
name = "p0"
device = "net_ring0"
speed = "10G"
[[stream]]
name = "s"
tx_port = "p0"
rx_port = "p0"
)";

const char* const kDeviceTable = R"(
[[device]]
name = "hosts"
port = "p0"
mac = "02:00:00:00:01:01"
ipv4 = { address = "198.18.0.1", gateway = "198.18.0.254" }
)";

class RunDevices : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/lr-run-devices-XXXXXX";
    dir_ = ::mkdtemp(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs `profile_text` on `dp` until the data plane's refusal ends it; what the run sent.
  std::vector<json> run_until_refused(ScriptedDataplane& dp, const std::string& profile_text) {
    RunOptions options;
    options.profile_path = dir_ + "/p.toml";
    std::ofstream(options.profile_path) << profile_text;
    options.dataplane = unix_socket_address(dp.path());
    options.adopt_ports = true;  // the scripted data plane lists no ports
    options.live = false;
    testing::internal::CaptureStderr();
    EXPECT_THROW(run_profile(options), RpcCallError);
    testing::internal::GetCapturedStderr();
    return dp.requests();
  }

  static std::vector<std::string> methods(const std::vector<json>& requests) {
    std::vector<std::string> out;
    for (const json& r : requests) out.push_back(r["method"]);
    return out;
  }

  std::string dir_;
};

// What ProfileDataplane asks a serving data plane first: its ports (twice: reports, specs)
// and switches, all empty here.
std::vector<test::ScriptedReply> served_setup() {
  return {answer(json::array()), answer(json::array()), answer(json::array())};
}

TEST_F(RunDevices, TheProfilesDevicesAreLoadedInTheirJsonFormWithItsPath) {
  std::vector<test::ScriptedReply> replies = served_setup();
  replies.push_back(refusal(api::RpcCode::kMethodNotFound, "no method 'device.load'"));
  ScriptedDataplane dp(replies);
  const std::vector<json> sent = run_until_refused(dp, std::string(kProfileHead) + kDeviceTable);
  EXPECT_EQ(methods(sent), (std::vector<std::string>{"port.list", "port.list", "switch.list", "device.load"}));
  ASSERT_EQ(sent.size(), 4u);
  EXPECT_EQ(sent[3]["params"], json::parse(R"({"devices": [{"name": "hosts", "port": "p0",
      "mac": "02:00:00:00:01:01", "count": 1, "mac_step": "00:00:00:00:00:01",
      "ipv4": {"address": "198.18.0.1", "prefix": 24, "gateway": "198.18.0.254"}, "ipv4_step": "0.0.0.1"}],
      "path": ")" + dir_ + R"(/p.toml"})"));
}

TEST_F(RunDevices, TheDevicesGoBeforeTheStreams) {
  std::vector<test::ScriptedReply> replies = served_setup();
  replies.push_back(answer({{"devices", {"hosts"}}, {"hosts", 1}}));
  replies.push_back(refusal(api::RpcCode::kInvalidParams, "stop here"));
  ScriptedDataplane dp(replies);
  const std::vector<json> sent = run_until_refused(dp, std::string(kProfileHead) + kDeviceTable);
  EXPECT_EQ(methods(sent),
            (std::vector<std::string>{"port.list", "port.list", "switch.list", "device.load", "stream.load"}));
}

TEST_F(RunDevices, AProfileWithoutDevicesLoadsNone) {
  std::vector<test::ScriptedReply> replies = served_setup();
  replies.push_back(refusal(api::RpcCode::kInvalidParams, "stop here"));
  ScriptedDataplane dp(replies);
  const std::vector<json> sent = run_until_refused(dp, kProfileHead);
  EXPECT_EQ(methods(sent), (std::vector<std::string>{"port.list", "port.list", "switch.list", "stream.load"}));
}

}  // namespace
}  // namespace lr::ctl
