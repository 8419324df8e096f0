// eth.src / eth.dst = "auto" in a [[stream]]: read as the spec's flags (either alone), its
// JSON form writing "auto" and reading it back, and each refusal's exact text and key: on
// a MAC Control stream, a vary of the auto MAC, a stream no emulated host of the profile
// sends (in a profile file, and over RPC against the running profile's devices).

#include <gtest/gtest.h>

#include <string>

#include "lib/profile/load_toml.hpp"
#include "lib/profile/stream_spec_json.hpp"

namespace lr::profile::eth_auto_test {
namespace {

using nlohmann::json;

// Lines 3-9: the ports; 11-16: a device, 198.18.0.2-3 /24 via 198.18.0.1 on p0, untagged.
constexpr const char* kLab = R"(
[[port]]
name = "p0"
device = "net_ring0"

[[port]]
name = "p1"
device = "net_ring1"

[[device]]
name = "hosts_a"
port = "p0"
mac = "02:00:00:00:01:01"
ipv4 = { address = "198.18.0.2", gateway = "198.18.0.1" }
count = 2
)";

// A stream at line 17, its eth table at line 20.
std::string stream(const std::string& eth, const std::string& more = "") {
  return "\n[[stream]]\nname = \"s1\"\ntx_port = \"p0\"\neth = " + eth + "\n" + more;
}

std::string error_of(const std::string& text) {
  try {
    load_profile_text(text, "test.toml");
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

TEST(EthAuto, EitherMacMayBeAuto) {
  const std::string source = "ipv4 = { src = \"198.18.0.3\", dst = \"198.19.0.1\" }\n";
  const Profile both = load_profile_text(kLab + stream(R"({ src = "auto", dst = "auto" })", source), "test.toml");
  ASSERT_EQ(both.streams.size(), 1u);
  EXPECT_TRUE(both.streams[0].eth_src_auto);
  EXPECT_TRUE(both.streams[0].eth_dst_auto);
  const Profile dst = load_profile_text(kLab + stream(R"({ src = "02:00:00:00:00:09", dst = "auto" })", source), "t");
  EXPECT_FALSE(dst.streams[0].eth_src_auto);
  EXPECT_TRUE(dst.streams[0].eth_dst_auto);
  EXPECT_EQ(dst.streams[0].eth_src, (api::MacAddr{0x02, 0, 0, 0, 0, 0x09}));
  const Profile src = load_profile_text(kLab + stream(R"({ src = "auto" })", source), "t");
  EXPECT_TRUE(src.streams[0].eth_src_auto);
  EXPECT_FALSE(src.streams[0].eth_dst_auto);
  EXPECT_EQ(src.streams[0].eth_dst, api::StreamSpec{}.eth_dst);
}

TEST(EthAuto, AMacControlStreamTakesNone) {
  EXPECT_EQ(error_of(kLab + stream(R"({ dst = "auto" })", "kind = \"pfc\"\npriorities = [3]\n")),
            "test.toml:20:15: key 'stream[0].eth.dst': 'auto' is an emulated host's MAC (a [[device]]), for IP "
            "streams; a pfc stream's MAC Control frames come from the port: give a MAC address");
  EXPECT_EQ(error_of(kLab + stream(R"({ src = "auto" })", "kind = \"pause\"\n")),
            "test.toml:20:15: key 'stream[0].eth.src': 'auto' is an emulated host's MAC (a [[device]]), for IP "
            "streams; a pause stream's MAC Control frames come from the port: give a MAC address");
}

TEST(EthAuto, AnAutoMacDoesNotVary) {
  EXPECT_EQ(error_of(kLab + stream(R"({ dst = "auto" })", "vary = [{ field = \"eth.dst\", count = 4 }]\n")),
            "test.toml:21:19: key 'stream[0].vary.field': eth.dst is 'auto' (the MAC the host's next hop resolved "
            "to), which cannot vary: give eth.dst a MAC address to vary it");
  EXPECT_EQ(error_of(kLab + stream(R"({ src = "auto" })", "vary = [{ field = \"eth.src\", count = 4 }]\n")),
            "test.toml:21:19: key 'stream[0].vary.field': eth.src is 'auto' (the emulated host's MAC), which cannot "
            "vary: give eth.src a MAC address to vary it");
  // The other MAC still varies.
  const std::string ok = kLab + stream(R"({ dst = "auto" })",
                                       "ipv4 = { src = \"198.18.0.2\" }\n"
                                       "vary = [{ field = \"eth.src\", count = 4 }]\n");
  EXPECT_EQ(error_of(ok), "");
}

TEST(EthAuto, ANonMacIsRefusedNamingAuto) {
  EXPECT_EQ(error_of(kLab + stream(R"({ dst = "automatic" })")),
            "test.toml:20:15: key 'stream[0].eth.dst': 'automatic' is not a MAC address: write e.g. "
            "'02:00:00:00:00:01', or 'auto' (an emulated host's)");
}

TEST(EthAuto, AStreamNoHostSendsIsRefusedAtItsEthKey) {
  // The default source, 198.18.0.1, is the device's gateway, not one of its hosts.
  EXPECT_EQ(error_of(kLab + stream(R"({ src = "auto", dst = "auto" })")),
            "test.toml:20:7: key 'stream[0].eth.dst': stream 's1': eth.dst 'auto' needs an emulated host with "
            "address 198.18.0.1 on port p0 (untagged): none of its 2 hosts has it; add a [[device]] or set ipv4.src "
            "to one of theirs");
  EXPECT_EQ(error_of(kLab + stream(R"({ src = "auto" })", "vlan = { id = 7 }\nipv4 = { src = \"198.18.0.2\" }\n")),
            "test.toml:20:7: key 'stream[0].eth.src': stream 's1': eth.src 'auto' needs an emulated host with "
            "address 198.18.0.2 on port p0 (VLAN 7): none of its 2 hosts has it (hosts_a[0] has it untagged: give "
            "the stream that VLAN); add a [[device]] or set ipv4.src to one of theirs");
  // Off the subnet of a host without a gateway.
  std::string no_gateway = kLab;
  no_gateway.replace(no_gateway.find(", gateway = \"198.18.0.1\""), 24, "");
  EXPECT_EQ(error_of(no_gateway + stream(R"({ dst = "auto" })", "ipv4 = { src = \"198.18.0.3\" }\n")),
            "test.toml:20:7: key 'stream[0].eth.dst': stream 's1': eth.dst 'auto': port 'p0', host hosts_a[1] "
            "(198.18.0.3/24) has no gateway, and 198.19.0.1 is not on its subnet");
}

TEST(EthAuto, AnIpv6StreamIsSentFromTheGlobalOrTheLinkLocalAddress) {
  std::string lab = kLab;
  lab.replace(lab.find("count = 2"), 9, "ipv6 = { address = \"2001:db8::2\", gateway = \"fe80::1\" }\ncount = 2");
  const auto sender = [&](const std::string& src, const std::string& dst) {
    const std::string ip = "frame_size = 128\nipv6 = { src = \"" + src + "\", dst = \"" + dst + "\" }\n";
    return error_of(lab + stream(R"({ src = "auto", dst = "auto" })", ip));
  };
  EXPECT_EQ(sender("2001:db8::3", "2001:db8:9::1"), "");
  // hosts_a[1]'s link-local address, from its MAC 02:00:00:00:01:02.
  EXPECT_EQ(sender("fe80::ff:fe00:102", "fe80::1"), "");
  EXPECT_EQ(sender("fe80::ff:fe00:109", "fe80::1"),
            "test.toml:21:7: key 'stream[0].eth.dst': stream 's1': eth.dst 'auto' needs an emulated host with "
            "address fe80::ff:fe00:109 on port p0 (untagged): none of its 2 hosts has it; add a [[device]] or set "
            "ipv6.src to one of theirs");
}

TEST(EthAuto, JsonWritesAutoAndReadsItBack) {
  const Profile lab = load_profile_text(
      kLab + stream(R"({ src = "auto", dst = "auto" })", "ipv4 = { src = \"198.18.0.2\" }\n"), "test.toml");
  api::StreamSpec written = lab.streams.at(0);
  const json form = to_json(written);
  EXPECT_EQ(form["eth"], (json{{"src", "auto"}, {"dst", "auto"}}));
  EXPECT_EQ(stream_spec_from_json(form, "params", 0), written);
  written.eth_src_auto = false;
  written.eth_src = {0x02, 0, 0, 0, 0, 0x0A};
  EXPECT_EQ(to_json(written)["eth"], (json{{"src", "02:00:00:00:00:0a"}, {"dst", "auto"}}));
  EXPECT_EQ(stream_spec_from_json(to_json(written), "params", 0), written);
}

TEST(EthAuto, StreamsOverRpcAreCheckedAgainstTheRunningDevices) {
  const json streams = json::array({{{"name", "s1"},
                                     {"tx_port", "p0"},
                                     {"eth", {{"dst", "auto"}}},
                                     {"ipv4", {{"src", "198.18.0.3"}, {"dst", "198.19.0.1"}}}}});
  const Profile running = load_profile_text(kLab, "running.toml");
  EXPECT_EQ(streams_from_json(streams, "params", running).at(0).eth_dst_auto, true);
  Profile bare = running;
  bare.devices.clear();  // as after device.load {devices: []}
  try {
    streams_from_json(streams, "params", bare);
    FAIL() << "a stream from a host the data plane does not have was accepted";
  } catch (const ConfigError& error) {
    EXPECT_STREQ(error.what(),
                 "params: key 'stream[0].eth.dst': stream 's1': eth.dst 'auto' needs an emulated host "
                 "with address 198.18.0.3 on port p0 (untagged): port p0 has no emulated hosts; add a "
                 "[[device]] on it");
  }
}

}  // namespace
}  // namespace lr::profile::eth_auto_test
