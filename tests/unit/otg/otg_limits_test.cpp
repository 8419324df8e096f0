// What `otg serve` accepts at most: each string limit refusing one character over it
// with its path, and accepting one at it; and the limits checked against each other: the
// largest legitimate config (10,000 flows, every name at its limit, every header linerate
// reads) fits the server's body limit, and its stream.load fits the control socket's line.
#include "control/otg/otg_limits.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>

#include "control/otg/otg_config.hpp"
#include "lib/api/bounded_json.hpp"
#include "lib/api/rpc.hpp"
#include "lib/profile/run_spec_json.hpp"
#include "lib/profile/stream_spec_json.hpp"

namespace lr::otg {
namespace {

using nlohmann::json;

std::string filled(size_t chars, char fill) { return std::string(chars, fill); }

json value_of(json value) { return {{"choice", "value"}, {"value", std::move(value)}}; }

json two_ports(const std::string& tx, const std::string& rx, const std::string& flow) {
  return {
      {"ports", {{{"name", tx}, {"location", "p0"}}, {{"name", rx}, {"location", "p1"}}}},
      {"flows", {{{"name", flow}, {"tx_rx", {{"choice", "port"}, {"port", {{"tx_name", tx}, {"rx_names", {rx}}}}}}}}}};
}

TEST(OtgLimits, ANameOverItsLimitIsRefusedWithItsPath) {
  const std::string at_limit = filled(kMaxNameChars, 't');
  EXPECT_EQ(string_length_problems(two_ports(at_limit, "rx", "f")), std::vector<std::string>{});
  // The config: a 64 KiB tx_name (and the port it names).
  const std::string huge = filled(65536, 't');
  EXPECT_EQ(string_length_problems(two_ports(huge, "rx", filled(kMaxNameChars + 1, 'f'))),
            (std::vector<std::string>{"flows[0].name: 257 characters, at most 256",
                                      "flows[0].tx_rx.port.tx_name: 65536 characters, at most 256",
                                      "ports[0].name: 65536 characters, at most 256"}));
  EXPECT_EQ(string_length_problems(two_ports("tx", filled(kMaxNameChars + 1, 'r'), "f")),
            (std::vector<std::string>{"flows[0].tx_rx.port.rx_names[0]: 257 characters, at most 256",
                                      "ports[1].name: 257 characters, at most 256"}));
}

// Characters, not bytes: 256 two-byte characters are a name at the limit.
TEST(OtgLimits, CharactersAreCodePoints) {
  std::string accented;
  for (size_t i = 0; i < kMaxNameChars; ++i) accented += "\xc3\xa9";
  EXPECT_EQ(string_length_problems({{"name", accented}}), std::vector<std::string>{});
  EXPECT_EQ(string_length_problems({{"name", accented + "e"}}),
            std::vector<std::string>{"name: 257 characters, at most 256"});
}

TEST(OtgLimits, OtherStringsAndKeysHaveTheirs) {
  EXPECT_EQ(string_length_problems({{"a", {{"choice", filled(kMaxStringChars, 'x')}}}}), std::vector<std::string>{});
  EXPECT_EQ(string_length_problems({{"a", {1, {{"choice", filled(kMaxStringChars + 1, 'x')}}}}}),
            std::vector<std::string>{"a[1].choice: 1025 characters, at most 1024"});
  EXPECT_EQ(string_length_problems({{"flows", {{{filled(kMaxNameChars + 1, 'k'), 1}}}}}),
            std::vector<std::string>{"flows[0]: a key of 257 characters, at most 256"});
}

// A flow with every name at its limit and every header linerate reads, varied as far as
// a stream varies (4,096 values).
json largest_flow(size_t i, const std::string& tx, const std::string& rx) {
  const auto vary = [](const char* op, json start, json step) {
    return json{{"choice", op}, {op, {{"start", std::move(start)}, {"step", std::move(step)}, {"count", "4096"}}}};
  };
  std::string name = fmt::format("{:08}", i);
  name += filled(kMaxNameChars - name.size(), 'f');
  json packet = {{{"choice", "ethernet"},
                  {"ethernet",
                   {{"src", vary("increment", "00:00:00:00:01:00", "00:00:00:00:00:01")},
                    {"dst", vary("decrement", "02:00:00:00:00:09", "00:00:00:00:00:01")}}}},
                 {{"choice", "vlan"}, {"vlan", {{"id", vary("increment", 1, 1)}, {"priority", value_of(5)}}}},
                 {{"choice", "ipv4"},
                  {"ipv4",
                   {{"src", vary("increment", "10.1.0.1", "0.0.0.1")},
                    {"dst", vary("increment", "10.2.0.1", "0.0.1.0")},
                    {"time_to_live", value_of(9)},
                    {"priority", {{"choice", "raw"}, {"raw", value_of(0xB9)}}}}}},
                 {{"choice", "udp"},
                  {"udp",
                   {{"src_port", {{"choice", "random"}, {"random", {{"min", 1}, {"max", 65535}}}}},
                    {"dst_port", vary("increment", 1, 1)}}}}};
  return {{"name", name},
          {"tx_rx", {{"choice", "port"}, {"port", {{"tx_name", tx}, {"rx_names", {rx}}}}}},
          {"packet", packet},
          {"size", {{"choice", "fixed"}, {"fixed", 1518}}},
          {"rate", {{"choice", "pps"}, {"pps", "1000"}}},
          {"duration", {{"choice", "fixed_packets"}, {"fixed_packets", {{"packets", "1000000000"}}}}},
          {"metrics", {{"enable", true}, {"timestamps", true}}}};
}

TEST(OtgLimits, TenThousandFlowsFitTheBodyAndTheControlSocket) {
  const std::string tx = filled(kMaxNameChars, 't'), rx = filled(kMaxNameChars, 'r');
  json body = two_ports(tx, rx, "unused");
  body["flows"] = json::array();
  for (size_t i = 0; i < 10'000; ++i) body["flows"].push_back(largest_flow(i, tx, rx));
  const std::string text = body.dump();
  EXPECT_EQ(string_length_problems(body), std::vector<std::string>{});
  EXPECT_EQ(api::json_depth_problem(text), std::nullopt);
  const OtgConfig read = read_otg_config(body, {{"p0", 100'000'000'000}, {"p1", 100'000'000'000}});
  ASSERT_EQ(read.streams.size(), 10'000u);
  // As RunClient::load sends it (with the run settings a timestamped config adds).
  const std::string line = api::make_request(
      1, "stream.load",
      {{"streams", profile::to_json(read.streams)}, {"path", "config"}, {"run", profile::to_json(api::RunSpec{})}});
  std::printf("10,000 flows: an OTG body of %zu bytes (limit %zu), a stream.load line of %zu bytes (limit %zu)\n",
              text.size(), kMaxBodyBytes, line.size(), api::kMaxRequestBytes);
  // Room to spare on both: twice the largest config still fits.
  EXPECT_LT(2 * text.size(), kMaxBodyBytes);
  EXPECT_LT(2 * line.size(), api::kMaxRequestBytes);
}

}  // namespace
}  // namespace lr::otg
