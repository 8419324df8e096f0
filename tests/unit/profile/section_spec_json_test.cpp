// The JSON forms of [[port]], [[switch]] and [run]: what to_json writes reads back as the
// same spec, for specs drawn at random over every key; and bad JSON is refused at its key.
#include <gtest/gtest.h>

#include <random>

#include "lib/profile/load_toml.hpp"
#include "lib/profile/port_spec_json.hpp"
#include "lib/profile/run_spec_json.hpp"
#include "lib/profile/switch_spec_json.hpp"

namespace lr::profile {
namespace {

using nlohmann::json;

class Draw {
 public:
  explicit Draw(uint64_t seed) : rng_(seed) {}

  api::PortSpec port(size_t index) {
    api::PortSpec p;
    p.name = "p" + std::to_string(index);
    p.device = coin() ? "net_ring" + std::to_string(index) : "0000:3b:00." + std::to_string(below(8));
    p.rx_queues = static_cast<uint16_t>(below(65));
    p.tx_queues = static_cast<uint16_t>(between(1, 64));
    p.rx_descriptors = static_cast<uint16_t>(between(64, 16384));
    p.tx_descriptors = static_cast<uint16_t>(between(64, 16384));
    if (coin()) p.mtu = static_cast<uint16_t>(between(68, 9600));
    p.promiscuous = coin();
    p.checksum_offload = coin();
    if (coin()) p.speed_bps = between(1, 1'000'000) * (coin() ? 1'000'000 : 1'000);
    if (coin()) p.rx_lcores = lcores();
    if (coin()) p.tx_lcores = lcores();
    if (coin()) p.autoneg = p.speed_bps != 0 ? coin() : true;
    if (coin()) p.fec = kFecModeNames[below(kFecModeNames.size())].first;
    if (coin()) p.pause = kPauseModeNames[below(kPauseModeNames.size())].first;
    if (coin()) {
      p.pfc_priorities.emplace();
      for (uint64_t n = below(4); n > 0; --n) p.pfc_priorities->push_back(static_cast<unsigned>(below(8)));
    }
    p.pfc_honour = p.rx_queues > 0 && coin();
    if (p.pfc_honour && coin()) p.pfc_reaction_delay_quanta = static_cast<uint32_t>(below(65536));
    else if (p.pfc_honour && coin()) p.pfc_reaction_delay_ns = between(1, uint64_t{1} << 40);
    p.dscp_to_priority = dscp_map();
    p.mac_control_tx = static_cast<api::MacControlTx>(below(3));
    if (coin()) p.flow_rules = {"pattern eth / udp dst is 4791 actions queue index 1"};
    p.flow_isolate = coin();
    p.keep = coin();
    return p;
  }

  api::SwitchSpec switch_spec(size_t index) {
    api::SwitchSpec sw;
    sw.name = "sw" + std::to_string(index);
    if (coin()) sw.lcore = static_cast<unsigned>(below(1024));
    for (uint64_t n = between(2, 4); n > 0; --n) {
      api::SwitchPortSpec port{"s" + std::to_string(n), "cable:c" + std::to_string(n), 0, std::nullopt, {}};
      if (coin()) port.speed_bps = between(1, 400) * 1'000'000'000;
      if (coin()) port.shape = coin() ? api::Rate{api::RateKind::kPercentOfLine, share(1e-3, 100)}
                                      : api::Rate{api::RateKind::kL1Bps, share(1, 1e11)};
      sw.ports.push_back(port);
    }
    sw.learn = coin();
    if (!sw.learn) sw.forward = {{sw.ports[0].name, sw.ports[1].name}, {sw.ports[1].name, sw.ports[0].name}};
    sw.classify = coin() ? api::SwitchClassify::kDscp : api::SwitchClassify::kPcp;
    if (sw.classify == api::SwitchClassify::kDscp) sw.dscp_to_priority = dscp_map();
    sw.lossless = static_cast<uint8_t>(below(256));
    sw.buffer_bytes = below(uint64_t{1} << 40);
    sw.queue_limit_bytes = below(uint64_t{1} << 40);
    sw.xoff_bytes = between(1, uint64_t{1} << 40);
    sw.xon_bytes = below(sw.xoff_bytes);
    sw.headroom_bytes = below(uint64_t{1} << 40);
    sw.pfc_quanta = static_cast<uint16_t>(between(1, 65535));
    if (coin()) sw.pfc_refresh_ns = between(1, uint64_t{1} << 40);
    if (coin()) sw.pfc_honour = static_cast<uint8_t>(below(256));
    if (coin()) sw.pause_honour = coin();
    sw.pause_reaction_ns = below(1'000'000'001);
    if ((sw.ecn = coin())) {
      sw.ecn_kmin_bytes = below(uint64_t{1} << 30);
      sw.ecn_kmax_bytes = between(sw.ecn_kmin_bytes + 1, uint64_t{1} << 31);
      sw.ecn_pmax = share(0, 1);
    }
    if ((sw.watchdog = coin())) {
      sw.watchdog_detect_ns = below(uint64_t{1} << 40);
      sw.watchdog_restore_ns = below(uint64_t{1} << 40);
      sw.watchdog_forward = coin();
    }
    sw.seed = between(1, uint64_t{1} << 62);
    if (sw.learn) {
      sw.mac_table_size = static_cast<uint32_t>(between(1, uint64_t{1} << 20));
      sw.learn_rate = coin() ? 0 : between(1, 1'000'000'000);
      sw.mac_age_ns = coin() ? 0 : between(1, 1'000'000) * 1'000'000;
    }
    if (sw.lossless == 0 && !sw.ecn) sw.input_queued = coin();
    if (coin()) sw.max_frame_bytes = static_cast<uint32_t>(between(64, 16'000));
    sw.catch_up_ns = between(1, 1000) * 1'000'000;
    return sw;
  }

  api::RunSpec run() {
    api::RunSpec r;
    r.drain_ns = below(uint64_t{1} << 50);
    r.live = coin();
    if (coin()) {
      r.timeline_bin_ns = between(1000, uint64_t{1} << 32);
      if (coin()) r.timeline_span_ns = r.timeline_bin_ns * below(api::kMaxTimelineBins + 1);
    }
    r.tx_buffers = static_cast<api::TxBuffers>(below(3));
    return r;
  }

 private:
  uint64_t between(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_); }
  uint64_t below(uint64_t n) { return between(0, n - 1); }
  bool coin() { return below(2) == 1; }
  double share(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  std::string pick(std::initializer_list<const char*> names) { return *(names.begin() + below(names.size())); }
  std::vector<unsigned> lcores() {
    std::vector<unsigned> out;
    for (uint64_t n = between(1, 4); n > 0; --n) out.push_back(static_cast<unsigned>(below(1024)));
    return out;
  }
  std::map<uint8_t, uint8_t> dscp_map() {
    std::map<uint8_t, uint8_t> out;
    for (uint64_t n = below(4); n > 0; --n) out[static_cast<uint8_t>(below(64))] = static_cast<uint8_t>(below(8));
    return out;
  }

  std::mt19937_64 rng_;
};

// What a read spec knows of places: nothing, as its JSON form came from no file.
template <class Spec>
Spec without_places(Spec spec) {
  spec.loc = {};
  spec.key_locs.clear();
  if constexpr (std::is_same_v<Spec, api::SwitchSpec>)
    for (api::SwitchPortSpec& p : spec.ports) p.loc = {};
  return spec;
}

TEST(SectionSpecJson, EveryPortSwitchAndRunReadsBackAsItWasWritten) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    Draw draw(seed);
    for (size_t i = 0; i < 1000; ++i) {
      const api::PortSpec port = draw.port(i);
      api::PortSpec port_read;
      ASSERT_NO_THROW(port_read = port_spec_from_json(to_json(port), "test")) << to_json(port).dump();
      ASSERT_EQ(without_places(port_read), port) << "seed " << seed << ": " << to_json(port).dump();
      const api::SwitchSpec sw = draw.switch_spec(i);
      api::SwitchSpec sw_read;
      ASSERT_NO_THROW(sw_read = switch_spec_from_json(to_json(sw), "test")) << to_json(sw).dump();
      ASSERT_EQ(without_places(sw_read), sw) << "seed " << seed << ": " << to_json(sw).dump();
      const api::RunSpec run = draw.run();
      api::RunSpec run_read;
      ASSERT_NO_THROW(run_read = run_spec_from_json(to_json(run), "test")) << to_json(run).dump();
      ASSERT_EQ(run_read, run) << "seed " << seed << ": " << to_json(run).dump();
    }
  }
}

TEST(SectionSpecJson, AProfilesPortIsWrittenWithItsOwnKeys) {
  const Profile profile = load_profile_text(R"(
[[port]]
name = "p0"
device = "net_ring0"
speed = "40G"
pfc = [3]
pfc_honour = true
pfc_reaction_delay = "2us"
)",
                                            "lab.toml");
  const json form = to_json(profile.ports.at(0));
  EXPECT_EQ(form["speed"], "40000Mbps");
  EXPECT_EQ(form["pfc"], json::array({3}));
  EXPECT_EQ(form["pfc_honour"], true);
  EXPECT_EQ(form["pfc_reaction_delay"], "2000ns");
  EXPECT_EQ(form["rx_queues"], 1);
  EXPECT_FALSE(form.contains("fec"));
}

template <class Read>
std::string refusal(Read read, const json& form) {
  try {
    read(form, "params");
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "accepted";
}

TEST(SectionSpecJson, BadValuesAreRefusedAtTheirKey) {
  const json port = {{"name", "p0"}, {"device", "net_null0"}};
  EXPECT_EQ(refusal(port_spec_from_json, port), "accepted");
  json bad = port;
  bad["fec"] = "reed-solomon";
  EXPECT_EQ(refusal(port_spec_from_json, bad), "params: key 'port.fec': 'reed-solomon' is not one of off, baser, rs, llrs, auto");
  bad = port;
  bad["pfc_reaction_delay"] = 10;
  EXPECT_EQ(refusal(port_spec_from_json, bad), "params: key 'port.pfc_reaction_delay': needs pfc_honour = true");
  EXPECT_EQ(refusal(port_spec_from_json, json::array()),
            "params: key 'port': expected an object with a [[port]] table's keys, found array");

  const json sw = {{"name", "sw"},
                   {"ports", {{{"name", "a"}, {"device", "cable:a"}}, {{"name", "b"}, {"device", "cable:b"}}}},
                   {"forward", "learn"}};
  EXPECT_EQ(refusal(switch_spec_from_json, sw), "accepted");
  bad = sw;
  bad["xon"] = 50'000;
  EXPECT_EQ(refusal(switch_spec_from_json, bad), "params: key 'switch.xon': 50000 bytes is not below xoff (40000 "
                                                 "bytes): XON must come after the buffer drained");
  bad = sw;
  bad["ports"][1]["shape"] = "5Mpps";
  EXPECT_EQ(refusal(switch_spec_from_json, bad),
            "params: key 'switch.ports[1].shape': '5Mpps' is not an egress rate: write a share of the port's speed "
            "('50%') or an L1 bit rate ('5Gbps')");

  EXPECT_EQ(refusal(run_spec_from_json, json{{"timeline", "10us"}}), "accepted");
  EXPECT_EQ(refusal(run_spec_from_json, json{{"timeline", "100ns"}}),
            "params: key 'run.timeline': a bin is at least 1us (e.g. '1ms')");
  EXPECT_EQ(refusal(run_spec_from_json, json{{"drain", 5}}),
            "params: key 'run.drain': expected a duration: write e.g. '500ns', '20us', '100ms', '5s' or '2m', found an "
            "integer");
  EXPECT_EQ(refusal(run_spec_from_json, json{{"tx_buffers", "shared"}}), "accepted");
  EXPECT_EQ(run_spec_from_json(json{{"tx_buffers", "per_stream"}}, "params").tx_buffers, api::TxBuffers::kPerStream);
  EXPECT_EQ(refusal(run_spec_from_json, json{{"tx_buffers", "pooled"}}),
            "params: key 'run.tx_buffers': 'pooled' is not one of auto, per_stream, shared");
  EXPECT_EQ(refusal(run_spec_from_json, json{{"timline", "1ms"}}),
            "params: key 'run.timline': unknown key: did you mean 'timeline'? (see config/README.md for the schema)");
}

}  // namespace
}  // namespace lr::profile
