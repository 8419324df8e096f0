// The stream's JSON form: what to_json writes, stream_spec_from_json reads back as the same
// spec, for specs drawn at random over every key; and bad JSON is refused at its key.
#include "lib/profile/stream_spec_json.hpp"

#include <gtest/gtest.h>

#include <random>

#include "lib/profile/load_toml.hpp"
#include "lib/wire/roce.hpp"

namespace lr::profile {
namespace {

using api::StreamSpec;
using nlohmann::json;

class SpecDraw {
 public:
  explicit SpecDraw(uint64_t seed) : rng_(seed) {}

  StreamSpec stream(size_t index) {
    StreamSpec s;
    s.name = "s" + std::to_string(index);
    s.tx_port = pick({"p0", "p1"});
    if (coin()) s.rx_port = pick({"p0", "p1"});
    s.kind = static_cast<api::StreamKind>(below(3));
    s.rate = rate();
    if (coin()) s.count = between(1, uint64_t{1} << 40);
    else if (coin()) s.duration_ns = between(1, uint64_t{1} << 50);
    if (s.rate.kind != api::RateKind::kMax && coin()) s.start_after_ns = between(1, uint64_t{1} << 50);
    if (coin()) s.burst = api::BurstSpec{static_cast<uint32_t>(between(1, 1 << 24)), between(1, uint64_t{1} << 50)};
    s.lanes = static_cast<uint16_t>(between(1, 64));
    s.late_ns = between(0, uint64_t{1} << 50);
    s.catch_up = coin();
    s.eth_src = mac();
    s.eth_dst = mac();
    if (s.kind == api::StreamKind::kUdp) udp_stream(s);
    else mac_control(s);
    s.file = "test";
    return s;
  }

 private:
  uint64_t between(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_); }
  uint64_t below(uint64_t n) { return between(0, n - 1); }
  bool coin() { return below(2) == 1; }
  std::string pick(std::initializer_list<const char*> names) { return *(names.begin() + below(names.size())); }
  api::MacAddr mac() {
    api::MacAddr m;
    for (uint8_t& b : m) b = static_cast<uint8_t>(below(256));
    return m;
  }

  api::Rate rate() {
    const auto kind = static_cast<api::RateKind>(below(5));
    std::uniform_real_distribution<double> share(1e-6, 100.0);
    std::uniform_real_distribution<double> big(1.0, 1e12);
    switch (kind) {
      case api::RateKind::kPercentOfLine: return {kind, share(rng_)};
      case api::RateKind::kMax: return {kind, 0};
      default: return {kind, big(rng_)};
    }
  }

  void frame(StreamSpec& s) {
    api::FrameSizeSpec& f = s.frame;
    f.kind = static_cast<api::FrameSizeKind>(below(3));
    if (f.kind == api::FrameSizeKind::kFixed) {
      f.sizes = {static_cast<uint16_t>(between(1, 9600))};
    } else if (f.kind == api::FrameSizeKind::kImix) {
      f.sizes.clear();
      for (uint64_t n = between(1, 5); n > 0; --n) {
        f.sizes.push_back(static_cast<uint16_t>(between(1, 9600)));
        f.weights.push_back(static_cast<uint32_t>(between(1, 1'000'000)));
      }
    } else {
      f.min = static_cast<uint16_t>(between(1, 9600));
      f.max = static_cast<uint16_t>(between(f.min, 9600));
      f.order = coin() ? api::RangeOrder::kIncrement : api::RangeOrder::kRandom;
    }
  }

  void udp_stream(StreamSpec& s) {
    if (coin()) s.vlan = api::VlanSpec{static_cast<uint16_t>(below(4096)), static_cast<uint8_t>(below(8))};
    if (coin()) {
      s.ip_version = api::IpVersion::kV6;
      s.ipv6.src = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<uint8_t>(below(256))};
      s.ipv6.dscp = static_cast<uint8_t>(below(64));
      s.ipv6.ecn = static_cast<uint8_t>(below(4));
      s.ipv6.hop_limit = static_cast<uint8_t>(between(1, 255));
      s.ipv6.flow_label = static_cast<uint32_t>(below(0x100000));
    } else {
      s.ipv4.src = static_cast<uint32_t>(below(uint64_t{1} << 32));
      s.ipv4.dst = static_cast<uint32_t>(below(uint64_t{1} << 32));
      s.ipv4.dscp = static_cast<uint8_t>(below(64));
      s.ipv4.ecn = static_cast<uint8_t>(below(4));
      s.ipv4.ttl = static_cast<uint8_t>(between(1, 255));
    }
    s.udp = {static_cast<uint16_t>(below(65536)), static_cast<uint16_t>(below(65536))};
    frame(s);
    if (below(4) == 0) roce(s);
    else if (below(3) == 0) tcp(s);
    // "auto" stands for the MAC, which then keeps its default (the data plane fills it in).
    if (below(4) == 0) {
      s.eth_src_auto = true;
      s.eth_src = StreamSpec{}.eth_src;
    }
    if (below(4) == 0) {
      s.eth_dst_auto = true;
      s.eth_dst = StreamSpec{}.eth_dst;
    }
    vary(s);
  }

  void tcp(StreamSpec& s) {
    s.udp = {};
    s.tcp = api::TcpSpec{static_cast<uint16_t>(below(65536)), static_cast<uint16_t>(below(65536)),
                         static_cast<uint32_t>(below(uint64_t{1} << 32)), static_cast<uint32_t>(below(uint64_t{1} << 32)),
                         static_cast<uint8_t>(below(256)), static_cast<uint16_t>(below(65536))};
  }

  void roce(StreamSpec& s) {
    api::RoceSpec r;
    const wire::RoceOpcode& op = wire::kRoceOpcodes[below(wire::kRoceOpcodes.size())];
    r.opcode = op.code;
    r.dest_qp = static_cast<uint32_t>(below(1 << 24));
    r.psn = static_cast<uint32_t>(below(1 << 24));
    r.pkey = static_cast<uint16_t>(below(65536));
    if (op.extended_bytes == wire::kRethBytes) {
      r.va = between(0, INT64_MAX);
      r.rkey = static_cast<uint32_t>(below(uint64_t{1} << 32));
    } else if (op.extended_bytes == wire::kDethBytes) {
      r.qkey = static_cast<uint32_t>(below(uint64_t{1} << 32));
      r.src_qp = static_cast<uint32_t>(below(1 << 24));
    }
    s.roce = r;
    s.udp.dst = wire::kRoceV2Port;
    s.frame = {};
    s.frame.sizes = {static_cast<uint16_t>(min_frame_bytes(s) + 4 * below(100))};
  }

  void vary(StreamSpec& s) {
    for (unsigned f = 0; f <= static_cast<unsigned>(api::VaryField::kUdpDst); ++f) {
      const auto field = static_cast<api::VaryField>(f);
      if (below(4) != 0 || (field == api::VaryField::kVlanId && !s.vlan)) continue;
      if ((field == api::VaryField::kEthSrc && s.eth_src_auto) || (field == api::VaryField::kEthDst && s.eth_dst_auto))
        continue;
      const bool narrow = field == api::VaryField::kVlanId || field == api::VaryField::kUdpSrc ||
                          field == api::VaryField::kUdpDst;
      const uint64_t max_count = field == api::VaryField::kVlanId ? 4096 : narrow ? 65536 : (uint64_t{1} << 32) - 1;
      const auto op = static_cast<api::VaryOp>(below(4));
      if (op != api::VaryOp::kList) {
        s.vary.push_back({field, op, static_cast<uint32_t>(between(1, max_count)),
                          static_cast<uint32_t>(between(1, narrow ? 65535 : uint64_t{1} << 31)), {}});
        continue;
      }
      const bool mac = field == api::VaryField::kEthSrc || field == api::VaryField::kEthDst;
      api::VarySpec list{field, op, 0, 1, {}};
      for (uint64_t n = between(1, 5); n > 0; --n)
        list.values.push_back(below(mac ? uint64_t{1} << 48 : narrow ? max_count : uint64_t{1} << 32));
      list.count = static_cast<uint32_t>(list.values.size());
      s.vary.push_back(list);
    }
  }

  void mac_control(StreamSpec& s) {
    api::MacControlSpec& mc = s.mac_control;
    if (s.kind == api::StreamKind::kPfc) {
      for (uint16_t& q : mc.quanta) q = static_cast<uint16_t>(below(65536));
      mc.class_enable = static_cast<uint8_t>(below(256));
      mc.reserved_bits = coin();
    } else {
      mc.quanta[0] = static_cast<uint16_t>(below(65536));
    }
    if (coin()) mc.opcode = static_cast<uint16_t>(between(1, 65535));
    if (mc.max_quanta() != 0 && coin()) {
      mc.refresh_auto = true;
      s.rate = {};
      s.start_after_ns = 0;
    }
  }

  std::mt19937_64 rng_;
};

TEST(StreamSpecJson, EverySpecReadsBackAsItWasWritten) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    SpecDraw draw(seed);
    for (size_t i = 0; i < 1000; ++i) {
      const StreamSpec written = draw.stream(i);
      const json form = to_json(written);
      StreamSpec read;
      ASSERT_NO_THROW(read = stream_spec_from_json(form, "test", i)) << form.dump();
      ASSERT_EQ(read, written) << "seed " << seed << ", stream " << i << ": " << form.dump();
    }
  }
}

TEST(StreamSpecJson, TheSourceTravelsWithTheSpec) {
  const Profile profile = load_profile_text(R"(
[[port]]
name = "p0"
device = "net_null0"

[[stream]]
name = "a"
tx_port = "p0"
rate = "10%"
frame_size = 128
)",
                                            "lab.toml");
  const StreamSpec& s = profile.streams.at(0);
  const json form = to_json(s);
  EXPECT_EQ(form["source"]["file"], "lab.toml");
  EXPECT_EQ(form["source"]["keys"]["frame_size"], json::array({10, 14}));
  const StreamSpec read = stream_spec_from_json(form, "params", 0);
  EXPECT_EQ(read, s);
  EXPECT_EQ(form["rate"], "10%");
  EXPECT_EQ(form["frame_size"], 128);
}

std::string refusal(const json& stream) {
  try {
    stream_spec_from_json(stream, "params", 2);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "accepted";
}

TEST(StreamSpecJson, BadValuesAreRefusedAtTheirKey) {
  const json base = {{"name", "a"}, {"tx_port", "p0"}};
  json bad = base;
  bad["rate"] = "10 percent";
  EXPECT_EQ(refusal(bad), "params: key 'streams[2].rate': '10 percent' is not a rate: write '10%' (of line rate), "
                          "'1.5Mpps', '5Gbps' (L1), '5Gbps-l2' or 'max'");
  bad = base;
  bad["frame_sise"] = 64;
  EXPECT_EQ(refusal(bad), "params: key 'streams[2].frame_sise': unknown key: did you mean 'frame_size'? (see "
                          "config/README.md for the schema)");
  bad = base;
  bad["udp"] = {{"src", nullptr}};
  EXPECT_EQ(refusal(bad), "params: key 'streams[2].udp.src': null is not a value (leave the key out for its default)");
  bad = base;
  bad["count"] = 18446744073709551615ULL;
  EXPECT_EQ(refusal(bad), "params: key 'streams[2].count': 18446744073709551615 is out of range");
  bad = base;
  bad["frame_size"] = 64.5;
  EXPECT_EQ(refusal(bad), "params: key 'streams[2].frame_size': expected an integer, a list of sizes or {min, max}, "
                          "found a number");
  EXPECT_EQ(refusal(json::array()), "params: key 'streams[2]': expected an object with a [[stream]] table's keys, "
                                    "found array");
  bad = base;
  bad["source"] = {{"file", 3}};
  EXPECT_EQ(refusal(bad), "params: key 'streams[2].source': expected {file, line, column, keys: {key: [line, column]}} "
                          "as stream.list writes it");
  EXPECT_EQ(refusal(base), "accepted");
}

TEST(StreamSpecJson, StreamsAreCheckedAgainstTheRunningPorts) {
  const Profile running = load_profile_text("[[port]]\nname = \"p0\"\ndevice = \"net_null0\"\n", "running.toml");
  const json streams = json::array({{{"name", "a"}, {"tx_port", "p0"}, {"rx_port", "p9"}}});
  try {
    streams_from_json(streams, "params", running);
    FAIL() << "a stream to a port the data plane lacks was accepted";
  } catch (const ConfigError& error) {
    EXPECT_STREQ(error.what(), "params: key 'stream[0].rx_port': stream 'a' uses port 'p9', which this data plane "
                               "does not have (it has p0)");
  }
  const json small = json::array({{{"name", "a"}, {"tx_port", "p0"}, {"frame_size", 40}}});
  try {
    streams_from_json(small, "params", running);
    FAIL() << "a 40-byte frame was accepted";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("a 40-byte frame cannot hold its 42 bytes of headers"), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(streams_from_json(json::array({{{"name", "a"}, {"tx_port", "p0"}}}), "params", running).at(0).name, "a");
  EXPECT_THROW(streams_from_json(json::object(), "params", running), ConfigError);
}

}  // namespace
}  // namespace lr::profile
