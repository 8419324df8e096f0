// The emulated hosts' client against a scripted data plane: device.load sends the devices
// and the profile's path and reads the host count back, neighbors.list asks for every port
// or one and reads the contract's structs; a refusal is an RpcCallError with its code and
// message.
#include "control/client/host_client.hpp"

#include <gtest/gtest.h>

#include <string>

#include "lib/profile/quantity.hpp"
#include "tests/unit/control/scripted_dataplane.hpp"

namespace lr::ctl {
namespace {

using nlohmann::json;
using test::answer;
using test::refusal;
using test::ScriptedDataplane;

const json kHostsA = json::parse(R"([{"name": "hosts_a", "port": "p0", "mac": "02:00:00:00:01:01", "count": 2}])");

TEST(HostClient, LoadDevicesSendsThemWithThePathAndReadsTheHostCount) {
  ScriptedDataplane dp({answer({{"devices", {"hosts_a"}}, {"hosts", 2}})});
  DataplaneClient client(dp.path());
  EXPECT_EQ(HostClient(client).load_devices(kHostsA, "routed.toml"), 2u);
  ASSERT_EQ(dp.requests().size(), 1u);
  EXPECT_EQ(dp.requests()[0]["method"], "device.load");
  EXPECT_EQ(dp.requests()[0]["params"], json({{"devices", kHostsA}, {"path", "routed.toml"}}));
}

TEST(HostClient, LoadDevicesWithoutAPathSendsNone) {
  ScriptedDataplane dp({answer({{"devices", json::array()}, {"hosts", 0}})});
  DataplaneClient client(dp.path());
  EXPECT_EQ(HostClient(client).load_devices(json::array(), ""), 0u);
  EXPECT_EQ(dp.requests()[0]["params"], json({{"devices", json::array()}}));
}

TEST(HostClient, ARefusedLoadIsAnRpcCallErrorWithItsCodeAndMessage) {
  ScriptedDataplane dp({refusal(api::RpcCode::kInvalidParams, "devices[0].mac: 'x' is not a MAC address")});
  DataplaneClient client(dp.path());
  try {
    HostClient(client).load_devices(kHostsA, "p.toml");
    FAIL() << "a refused device.load returned";
  } catch (const RpcCallError& e) {
    EXPECT_EQ(e.code(), -32602);
    EXPECT_EQ(std::string(e.what()), "devices[0].mac: 'x' is not a MAC address");
  }
}

TEST(HostClient, ALoadAnswerWithoutACountIsNotReadAsZero) {
  EXPECT_THROW(loaded_hosts(json({{"devices", {"a"}}})), json::exception);
  EXPECT_THROW(loaded_hosts(json({{"hosts", "2"}})), json::exception);
  EXPECT_EQ(loaded_hosts(json({{"hosts", 70000}})), 70000u);
}

TEST(HostClient, DevicesAreListedAsSent) {
  const json listed = {{"devices", kHostsA}};
  ScriptedDataplane dp({answer(listed)});
  DataplaneClient client(dp.path());
  EXPECT_EQ(HostClient(client).devices_json(), listed);
  EXPECT_EQ(dp.requests()[0]["method"], "device.list");
}

const char* const kNeighborsAnswer = R"([{
  "port": "p0", "hosts": 2, "tx_queue": 1,
  "counts": {"answered": 3, "no_reply": 1, "not_for_us": 2, "malformed": 4, "unsupported": 5, "dropped": 6,
             "sent": 7, "send_failed": 8},
  "neighbors": [{"host": "hosts_a[0]", "host_mac": "02:00:00:00:01:01", "host_address": "198.18.0.1",
                 "address": "198.18.0.254", "role": "gateway", "state": "resolved", "mac": "02:00:00:00:fe:01",
                 "tries": 1, "resolved_at": "2026-12-06T11:09:00.123Z"},
                {"host": "hosts_a[1]", "host_mac": "02:00:00:00:01:02", "host_address": "2001:db8:a::2", "vlan": 10,
                 "address": "2001:db8:a::fe", "role": "gateway", "state": "incomplete", "tries": 2}],
  "events": ["hosts_a[0]: gateway 198.18.0.254 resolved to 02:00:00:00:fe:01"]}])";

TEST(HostClient, NeighborsOfEveryPortAreReadIntoTheContract) {
  ScriptedDataplane dp({answer(json::parse(kNeighborsAnswer))});
  DataplaneClient client(dp.path());
  const std::vector<api::PortNeighbors> ports = HostClient(client).neighbors();
  EXPECT_EQ(dp.requests()[0]["method"], "neighbors.list");
  EXPECT_EQ(dp.requests()[0]["params"], json::object());
  ASSERT_EQ(ports.size(), 1u);
  const api::PortNeighbors& p = ports[0];
  EXPECT_EQ(p.port, "p0");
  EXPECT_EQ(p.hosts, 2u);
  EXPECT_EQ(p.tx_queue, 1);
  EXPECT_EQ(p.counts.answered, 3u);
  EXPECT_EQ(p.counts.no_reply, 1u);
  EXPECT_EQ(p.counts.not_for_us, 2u);
  EXPECT_EQ(p.counts.malformed, 4u);
  EXPECT_EQ(p.counts.unsupported, 5u);
  EXPECT_EQ(p.counts.dropped, 6u);
  EXPECT_EQ(p.counts.sent, 7u);
  EXPECT_EQ(p.counts.send_failed, 8u);
  ASSERT_EQ(p.neighbors.size(), 2u);
  EXPECT_EQ(p.neighbors[0].host, "hosts_a[0]");
  EXPECT_EQ(p.neighbors[0].host_mac, "02:00:00:00:01:01");
  EXPECT_EQ(p.neighbors[0].vlan, std::nullopt);
  EXPECT_EQ(p.neighbors[0].mac, "02:00:00:00:fe:01");
  EXPECT_EQ(p.neighbors[0].resolved_at, "2026-12-06T11:09:00.123Z");
  EXPECT_EQ(p.neighbors[1].host_address, "2001:db8:a::2");
  EXPECT_EQ(p.neighbors[1].vlan, 10);
  EXPECT_EQ(p.neighbors[1].state, "incomplete");
  EXPECT_EQ(p.neighbors[1].mac, std::nullopt);
  EXPECT_EQ(p.neighbors[1].tries, 2u);
  EXPECT_EQ(p.events, std::vector<std::string>{"hosts_a[0]: gateway 198.18.0.254 resolved to 02:00:00:00:fe:01"});
}

TEST(HostClient, NeighborsOfOnePortAskForItByName) {
  ScriptedDataplane dp({answer(json::array())});
  DataplaneClient client(dp.path());
  EXPECT_TRUE(HostClient(client).neighbors("p1").empty());
  EXPECT_EQ(dp.requests()[0]["params"], json({{"port", "p1"}}));
}

TEST(HostClient, ANeighborsAnswerWithAFieldOfTheWrongTypeIsRefusedWhereItIs) {
  ScriptedDataplane dp({answer(json::parse(R"([{"port": "p0", "hosts": "two"}])"))});
  DataplaneClient client(dp.path());
  try {
    HostClient(client).neighbors();
    FAIL() << "read a host count that is text";
  } catch (const json::exception& e) {
    EXPECT_NE(std::string(e.what()).find("[0].hosts: "), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace lr::ctl
