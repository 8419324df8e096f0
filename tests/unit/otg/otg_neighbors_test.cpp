// The hosts' neighbours (neighbors.list) in OTG's states: each entry of the version asked
// under its ethernet's name, the MAC only once resolved, the ethernets named filtered and
// a name the config lacks refused.
#include "control/otg/otg_neighbors.hpp"

#include <gtest/gtest.h>

#include "control/otg/otg_config.hpp"

namespace lr::otg {
namespace {

using nlohmann::json;

api::NeighborEntry neighbor(const char* host, const char* address, const char* state, std::optional<std::string> mac) {
  api::NeighborEntry n;
  n.host = host;
  n.address = address;
  n.role = "gateway";
  n.state = state;
  n.mac = std::move(mac);
  return n;
}

std::vector<api::PortNeighbors> two_ports() {
  api::PortNeighbors p0, p1;
  p0.port = "p0";
  p0.neighbors = {neighbor("e1[0]", "198.18.0.254", "resolved", "02:aa:00:00:00:fe"),
                  neighbor("e1[0]", "2001:db8:a::fe", "incomplete", std::nullopt),
                  neighbor("e1[0]", "198.18.0.9", "failed", std::nullopt)};
  p1.port = "p1";
  p1.neighbors = {neighbor("e2[0]", "198.19.0.254", "resolved", "02:bb:00:00:00:fe"),
                  neighbor("e2[0]", "fe80::1", "resolved", "02:bb:00:00:00:01")};
  return {p0, p1};
}

OtgDevices ethernets() {
  OtgDevices d;
  d.endpoints = {{"e1", {OtgEndpoint::Kind::kEthernet, 0}},
                 {"e2", {OtgEndpoint::Kind::kEthernet, 1}},
                 {"e2.v4", {OtgEndpoint::Kind::kIpv4, 1}}};
  return d;
}

using Kind = NeighborStatesRequest::Kind;

TEST(OtgNeighbors, EachIpv4EntryUnderItsEthernetTheMacOnceResolved) {
  EXPECT_EQ(neighbor_states({Kind::kIpv4, {}}, two_ports(), ethernets()), json::parse(R"({
              "choice": "ipv4_neighbors",
              "ipv4_neighbors": [
                {"ethernet_name": "e1", "ipv4_address": "198.18.0.254", "link_layer_address": "02:aa:00:00:00:fe"},
                {"ethernet_name": "e1", "ipv4_address": "198.18.0.9", "link_layer_address": null},
                {"ethernet_name": "e2", "ipv4_address": "198.19.0.254", "link_layer_address": "02:bb:00:00:00:fe"}]})"));
}

TEST(OtgNeighbors, Ipv6EntriesOfTheEthernetsNamed) {
  EXPECT_EQ(neighbor_states({Kind::kIpv6, {"e2"}}, two_ports(), ethernets()), json::parse(R"({
              "choice": "ipv6_neighbors",
              "ipv6_neighbors": [
                {"ethernet_name": "e2", "ipv6_address": "fe80::1", "link_layer_address": "02:bb:00:00:00:01"}]})"));
  EXPECT_EQ(neighbor_states({Kind::kIpv6, {"e1"}}, two_ports(), ethernets()), json::parse(R"({
              "choice": "ipv6_neighbors",
              "ipv6_neighbors": [
                {"ethernet_name": "e1", "ipv6_address": "2001:db8:a::fe", "link_layer_address": null}]})"));
  EXPECT_EQ(neighbor_states({Kind::kIpv4, {}}, {}, OtgDevices{}),
            (json{{"choice", "ipv4_neighbors"}, {"ipv4_neighbors", json::array()}}));
}

TEST(OtgNeighbors, ANameThatIsNotAnEthernetOfTheConfigIsRefused) {
  try {
    neighbor_states({Kind::kIpv4, {"e1", "e2.v4", "e9"}}, two_ports(), ethernets());
    FAIL() << "not refused";
  } catch (const ConfigRefused& e) {
    EXPECT_EQ(e.errors(), (std::vector<std::string>{
                              "ipv4_neighbors.ethernet_names[1]: 'e2.v4' is not an ethernet of the config's devices",
                              "ipv4_neighbors.ethernet_names[2]: 'e9' is not an ethernet of the config's devices"}));
  }
}

}  // namespace
}  // namespace lr::otg
