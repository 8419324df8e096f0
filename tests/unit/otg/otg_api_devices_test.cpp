// The OTG server's side of devices against a data plane this test plays on a socket: the
// config's devices sent with device.load before stream.load (and [] for a config without
// them), a data plane without device.load taking a config without devices and refusing one
// with them, its refusal said at the config's ethernet, protocol start / stop as
// device.load, and /monitor/states from neighbors.list.
#include <gtest/gtest.h>
#include <unistd.h>

#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "control/otg/otg_api.hpp"
#include "lib/api/rpc.hpp"
#include "tests/unit/control/scripted_dataplane.hpp"

namespace lr::otg {
namespace {

using nlohmann::json;
namespace http = boost::beast::http;

// An answer of the played data plane: a result, or an error's code and message.
struct Reply {
  json result;
  std::optional<std::pair<api::RpcCode, std::string>> error = std::nullopt;
};

// A data plane on a Unix socket in a directory of its own: one session, each request
// answered by `answer` (method, params) and recorded.
class PlayedDataplane {
 public:
  explicit PlayedDataplane(std::function<Reply(const std::string&, const json&)> answer) : answer_(std::move(answer)) {
    thread_ = std::thread([this] { serve(); });
  }
  ~PlayedDataplane() { thread_.join(); }  // the session ended: the client went first
  const std::string& path() const { return socket_.path(); }

  // The methods called, after hello and the port listing every config reads.
  std::vector<std::pair<std::string, json>> calls() {
    std::lock_guard lock(mutex_);
    std::vector<std::pair<std::string, json>> out;
    for (const auto& call : calls_)
      if (call.first != "hello" && call.first != "port.list") out.push_back(call);
    return out;
  }

 private:
  void serve() {
    const int conn = ::accept(socket_.fd(), nullptr, nullptr);
    std::string buffer;
    while (const std::optional<json> request = ctl::test::read_request(conn, buffer)) {
      const std::string method = request->value("method", "");
      const json params = request->value("params", json::object());
      {
        std::lock_guard lock(mutex_);
        calls_.emplace_back(method, params);
      }
      const Reply reply = answer_(method, params);
      const std::string line = (reply.error ? api::make_error((*request)["id"], reply.error->first, reply.error->second)
                                            : api::make_result((*request)["id"], reply.result)) +
                               "\n";
      EXPECT_EQ(::write(conn, line.data(), line.size()), static_cast<ssize_t>(line.size()));
    }
    ::close(conn);
  }

  std::function<Reply(const std::string&, const json&)> answer_;
  ctl::test::ListeningSocket socket_;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<std::pair<std::string, json>> calls_;
};

// What any data plane answers; `hosts`: whether it emulates them (device.load, neighbors.list).
Reply usual(const std::string& method, bool hosts) {
  if (method == "port.list") return {json::array({{{"name", "p0"}, {"speed_bps", 10'000'000'000ull}}})};
  if (method == "stream.load") return {{{"run", json::object()}}};
  if ((method == "device.load" || method == "neighbors.list") && !hosts)
    return {nullptr, std::pair{api::RpcCode::kMethodNotFound, "no method '" + method + "' (methods.list lists them)"}};
  if (method == "device.load") return {{{"devices", json::array()}, {"hosts", 0}}};
  return {json::object()};
}

const char* const kConfig = R"({
  "ports": [{"name": "tx", "location": "p0"}],
  "devices": [{"name": "d", "ethernets": [
    {"name": "e1", "mac": "02:00:00:00:01:01", "connection": {"choice": "port_name", "port_name": "tx"},
     "ipv4_addresses": [{"name": "e1.v4", "address": "198.18.0.1", "gateway": "198.18.0.254", "prefix": 24}]},
    {"name": "e2", "mac": "02:00:00:00:01:02", "connection": {"choice": "port_name", "port_name": "tx"},
     "ipv4_addresses": [{"name": "e2.v4", "address": "198.18.0.2", "gateway": "198.18.0.254", "prefix": 24}]}]}],
  "flows": [{"name": "f", "tx_rx": {"choice": "device", "device": {"tx_names": ["e1.v4"], "rx_names": ["e2.v4"]}},
             "size": {"choice": "fixed", "fixed": 128}, "rate": {"choice": "pps", "pps": 1000},
             "duration": {"choice": "fixed_packets", "fixed_packets": {"packets": 10}}}]})";

const json kLoaded = json::parse(R"([
  {"name": "e1", "port": "p0", "mac": "02:00:00:00:01:01", "count": 1, "mac_step": "00:00:00:00:00:01",
   "ipv4": {"address": "198.18.0.1", "prefix": 24, "gateway": "198.18.0.254"}, "ipv4_step": "0.0.0.1"},
  {"name": "e2", "port": "p0", "mac": "02:00:00:00:01:02", "count": 1, "mac_step": "00:00:00:00:00:01",
   "ipv4": {"address": "198.18.0.2", "prefix": 24, "gateway": "198.18.0.254"}, "ipv4_step": "0.0.0.1"}])");

std::string state(const char* protocol_state) {
  return json{{"choice", "protocol"}, {"protocol", {{"choice", "all"}, {"all", {{"state", protocol_state}}}}}}.dump();
}

TEST(OtgApiDevices, TheDevicesAreLoadedBeforeTheStreams) {
  PlayedDataplane dp([](const std::string& method, const json&) { return usual(method, true); });
  {
    boost::asio::io_context io;
    Api api(ctl::unix_socket_address(dp.path()), "/tmp", io);
    const Answer a = api.handle(http::verb::post, "/config", kConfig);
    EXPECT_EQ(a.status, http::status::ok) << a.body.dump();
  }
  const auto calls = dp.calls();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0], (std::pair<std::string, json>{"device.load", {{"devices", kLoaded}, {"path", "config"}}}));
  EXPECT_EQ(calls[1].first, "stream.load");
  const json& stream = calls[1].second["streams"][0];
  EXPECT_EQ((std::tuple{stream["name"], stream["tx_port"], stream["rx_port"], stream["ipv4"]["src"],
                        stream["ipv4"]["dst"], stream["eth"]}),
            (std::tuple{json("f"), json("p0"), json("p0"), json("198.18.0.1"), json("198.18.0.2"),
                        json{{"src", "auto"}, {"dst", "auto"}}}));
}

TEST(OtgApiDevices, AConfigWithoutDevicesRemovesTheHosts) {
  PlayedDataplane dp([](const std::string& method, const json&) { return usual(method, true); });
  {
    boost::asio::io_context io;
    Api api(ctl::unix_socket_address(dp.path()), "/tmp", io);
    EXPECT_EQ(api.handle(http::verb::post, "/config", R"({"ports": [{"name": "tx", "location": "p0"}]})").status,
              http::status::ok);
  }
  const auto calls = dp.calls();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0], (std::pair<std::string, json>{"device.load", {{"devices", json::array()}, {"path", "config"}}}));
  EXPECT_EQ(calls[1].first, "stream.load");
}

TEST(OtgApiDevices, ADataPlaneWithoutHostsTakesAConfigWithoutDevicesOnly) {
  PlayedDataplane dp([](const std::string& method, const json&) { return usual(method, false); });
  {
    boost::asio::io_context io;
    Api api(ctl::unix_socket_address(dp.path()), "/tmp", io);
    EXPECT_EQ(api.handle(http::verb::post, "/config", R"({"ports": [{"name": "tx", "location": "p0"}]})").status,
              http::status::ok);
    const Answer a = api.handle(http::verb::post, "/config", kConfig);
    EXPECT_EQ(a.status, http::status::bad_request);
    EXPECT_EQ(a.body["errors"], json::array({"devices: this data plane emulates no hosts: no method 'device.load' "
                                             "(methods.list lists them)"}));
    const Answer states = api.handle(http::verb::post, "/monitor/states", R"({"choice": "ipv6_neighbors"})");
    EXPECT_EQ(states.body, json::parse(R"({"choice": "ipv6_neighbors", "ipv6_neighbors": [], "warnings": [
                "this data plane emulates no hosts (no method 'neighbors.list' (methods.list lists them)): it has no neighbours to report"]})"));
  }
  std::vector<std::string> methods;
  for (const auto& [method, params] : dp.calls()) methods.push_back(method);
  EXPECT_EQ(methods, (std::vector<std::string>{"device.load", "stream.load", "device.load", "neighbors.list"}));
}

TEST(OtgApiDevices, TheDataPlanesRefusalIsSaidAtTheConfigsEthernet) {
  PlayedDataplane dp([](const std::string& method, const json&) {
    if (method == "device.load")
      return Reply{nullptr, std::pair{api::RpcCode::kInvalidParams, "config: key 'devices[1].ipv4': no room"}};
    return usual(method, true);
  });
  boost::asio::io_context io;
  Api api(ctl::unix_socket_address(dp.path()), "/tmp", io);
  const Answer a = api.handle(http::verb::post, "/config", kConfig);
  EXPECT_EQ(a.status, http::status::bad_request);
  EXPECT_EQ(a.body["errors"], json::array({"devices: config: key 'devices[1].ipv4': no room (devices[1] is "
                                           "devices[0].ethernets[1] 'e2')"}));
}

TEST(OtgApiDevices, ProtocolStartLoadsTheDevicesAgainAndStopRemovesThem) {
  PlayedDataplane dp([](const std::string& method, const json&) { return usual(method, true); });
  {
    boost::asio::io_context io;
    Api api(ctl::unix_socket_address(dp.path()), "/tmp", io);
    const Answer early = api.handle(http::verb::post, "/control/state", state("start"));
    EXPECT_EQ((std::tuple{early.status, early.body["errors"]}),
              (std::tuple{http::status::conflict, json::array({"control/state: no config: POST /config first"})}));
    ASSERT_EQ(api.handle(http::verb::post, "/config", kConfig).status, http::status::ok);
    EXPECT_EQ(api.handle(http::verb::post, "/control/state", state("stop")).body, (json{{"warnings", json::array()}}));
    EXPECT_EQ(api.handle(http::verb::post, "/control/state", state("start")).body, (json{{"warnings", json::array()}}));
  }
  const auto calls = dp.calls();
  ASSERT_EQ(calls.size(), 4u);
  EXPECT_EQ(calls[2], (std::pair<std::string, json>{"device.load", {{"devices", json::array()}, {"path", "config"}}}));
  EXPECT_EQ(calls[3], (std::pair<std::string, json>{"device.load", {{"devices", kLoaded}, {"path", "config"}}}));
}

TEST(OtgApiDevices, StatesAreTheHostsNeighbours) {
  PlayedDataplane dp([](const std::string& method, const json&) {
    if (method != "neighbors.list") return usual(method, true);
    return Reply{json::parse(R"([{"port": "p0", "hosts": 2, "tx_queue": 1, "counts": {}, "events": [], "neighbors": [
      {"host": "e1[0]", "host_mac": "02:00:00:00:01:01", "host_address": "198.18.0.1", "address": "198.18.0.254",
       "role": "gateway", "state": "resolved", "mac": "02:aa:00:00:00:fe", "tries": 1,
       "resolved_at": "2026-12-06T11:00:00.000Z"},
      {"host": "e2[0]", "host_mac": "02:00:00:00:01:02", "host_address": "198.18.0.2", "address": "198.18.0.254",
       "role": "gateway", "state": "incomplete", "tries": 2}]}])")};
  });
  boost::asio::io_context io;
  Api api(ctl::unix_socket_address(dp.path()), "/tmp", io);
  ASSERT_EQ(api.handle(http::verb::post, "/config", kConfig).status, http::status::ok);
  const Answer a = api.handle(http::verb::post, "/monitor/states", R"({"choice": "ipv4_neighbors"})");
  EXPECT_EQ(a.body, json::parse(R"({"choice": "ipv4_neighbors", "ipv4_neighbors": [
              {"ethernet_name": "e1", "ipv4_address": "198.18.0.254", "link_layer_address": "02:aa:00:00:00:fe"},
              {"ethernet_name": "e2", "ipv4_address": "198.18.0.254", "link_layer_address": null}]})"));
  const Answer unknown = api.handle(http::verb::post, "/monitor/states",
                                    R"({"choice": "ipv4_neighbors", "ipv4_neighbors": {"ethernet_names": ["e3"]}})");
  EXPECT_EQ((std::tuple{unknown.status, unknown.body["errors"]}),
            (std::tuple{http::status::bad_request,
                        json::array({"ipv4_neighbors.ethernet_names[0]: 'e3' is not an ethernet of the config's "
                                     "devices"})}));
}

}  // namespace
}  // namespace lr::otg
