// MAC Control streams (kind = "pfc" / "pause"): the profile keys and their refusals, the
// frames byte for byte against IEEE 802.3 Annex 31B / 802.1Qbb, and the pause time and
// refresh rate from the quanta at the link's speed.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "lib/wire/packet_writer.hpp"
#include "dataplane/plan/rate.hpp"
#include "lib/frames/stream_builder.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/wire/mac_control.hpp"
#include "tests/support/hex_string.hpp"

namespace lr::plan {
namespace {

constexpr const char* kPort = R"(
[[port]]
name = "p0"
device = "net_ring0"
speed = "40G"
[[stream]]
name = "s"
tx_port = "p0"
)";

api::StreamSpec stream_of(const std::string& keys) {
  return profile::load_profile_text(std::string(kPort) + keys, "test.toml").streams.at(0);
}

std::string error_of(const std::string& keys) {
  try {
    profile::load_profile_text(std::string(kPort) + keys, "test.toml");
  } catch (const profile::ConfigError& error) {
    return error.what();
  }
  return "";
}

using test::hex;

// The frame as sent (sequence 0), without the signature's 14 bytes at its end.
std::string frame_of(const std::string& keys) {
  const wire::TxStreamPlan plan = build_stream_plan(stream_of(keys), 0);
  std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
  uint16_t last_sig = 0;
  fast::write_frame(buffer.data(), plan, plan.sizes[0], last_sig, wire::Signature{0, 0, 0, 0}, fast::FrameCursor{});
  EXPECT_EQ(buffer.size(), 60u) << "64 bytes with the FCS";
  return hex(buffer.data(), buffer.size() - wire::kSignatureBytes);
}

TEST(MacControl, PfcFrameBytes) {
  // DA 01:80:C2:00:00:01, SA, 0x8808, opcode 0x0101, class-enable vector (bits 3 and 5),
  // eight quanta, zero padding up to the signature.
  EXPECT_EQ(frame_of("kind = \"pfc\"\npriorities = [3, 5]\neth = { src = \"02:00:00:00:00:0a\" }\n"),
            "0180c2000001" "02000000000a" "8808" "0101" "0028"
            "0000" "0000" "0000" "ffff" "0000" "ffff" "0000" "0000"
            "000000000000000000000000");
  // Per-priority quanta; XON (0) for priority 1 with its bit set.
  EXPECT_EQ(frame_of("kind = \"pfc\"\npriorities = [0, 1]\nquanta = [256, 0, 0, 0, 0, 0, 0, 7]\n").substr(28, 40),
            "0101" "0003" "0100" "0000" "0000" "0000" "0000" "0000" "0000" "0007");
}

TEST(MacControl, PauseFrameBytes) {
  EXPECT_EQ(frame_of("kind = \"pause\"\nquanta = 4096\n"),
            "0180c2000001" "020000000001" "8808" "0001" "1000" + std::string(2 * 28, '0'));
}

// The robustness cases: each changes exactly its own bytes.
TEST(MacControl, MalformedFramesForDeviceRobustness) {
  const std::string good = frame_of("kind = \"pfc\"\npriorities = [3]\n");
  EXPECT_EQ(frame_of("kind = \"pfc\"\npriorities = [3]\neth = { src = \"00:00:00:00:00:00\" }\n"),
            good.substr(0, 12) + "000000000000" + good.substr(24));
  EXPECT_EQ(frame_of("kind = \"pfc\"\npriorities = [3]\nclass_enable = [3, 6]\n").substr(32, 4), "0048");
  EXPECT_EQ(frame_of("kind = \"pfc\"\npriorities = [3]\nreserved_bits = true\n").substr(32, 4), "ff08");
  EXPECT_EQ(frame_of("kind = \"pfc\"\npriorities = [3]\nopcode = 1\n").substr(28, 4), "0001");
  EXPECT_EQ(frame_of("kind = \"pause\"\nopcode = 0x0101\n").substr(28, 4), "0101");
}

// The same frames against scapy's MAC Control layers (tests/fixtures/frames/
// make_reference_frames.py): 60 bytes, of which linerate's signature takes the padding's
// last 14, so the first 46 are compared.
constexpr const char* kPfcPriorities3And5 =
    "0180c200000102000000000a880801010028000000000000ffff0000ffff000000000000000000000000000000000000000000000000000000000000";
constexpr const char* kPause4096 =
    "0180c2000001020000000001880800011000000000000000000000000000000000000000000000000000000000000000000000000000000000000000";
constexpr const char* kPfcZeroSource =
    "0180c2000001000000000000880801010008000000000000ffff00000000000000000000000000000000000000000000000000000000000000000000";
constexpr const char* kPfcExtraEnableBit =
    "0180c2000001020000000001880801010048000000000000ffff00000000000000000000000000000000000000000000000000000000000000000000";
constexpr const char* kPfcReservedBits =
    "0180c200000102000000000188080101ff08000000000000ffff00000000000000000000000000000000000000000000000000000000000000000000";
constexpr const char* kPfcWithPauseOpcode =
    "0180c2000001020000000001880800010008000000000000ffff00000000000000000000000000000000000000000000000000000000000000000000";
constexpr const char* kPauseWithPfcOpcode =
    "0180c200000102000000000188080101ffff000000000000000000000000000000000000000000000000000000000000000000000000000000000000";

TEST(MacControl, FramesMatchScapysMacControlLayers) {
  const auto head = [](const char* reference) { return std::string(reference).substr(0, 2 * 46); };
  EXPECT_EQ(frame_of("kind = \"pfc\"\npriorities = [3, 5]\neth = { src = \"02:00:00:00:00:0a\" }\n"),
            head(kPfcPriorities3And5));
  EXPECT_EQ(frame_of("kind = \"pause\"\nquanta = 4096\n"), head(kPause4096));
  EXPECT_EQ(frame_of("kind = \"pfc\"\npriorities = [3]\neth = { src = \"00:00:00:00:00:00\" }\n"),
            head(kPfcZeroSource));
  EXPECT_EQ(frame_of("kind = \"pfc\"\npriorities = [3]\nclass_enable = [3, 6]\n"), head(kPfcExtraEnableBit));
  EXPECT_EQ(frame_of("kind = \"pfc\"\npriorities = [3]\nreserved_bits = true\n"), head(kPfcReservedBits));
  EXPECT_EQ(frame_of("kind = \"pfc\"\npriorities = [3]\nopcode = 1\n"), head(kPfcWithPauseOpcode));
  EXPECT_EQ(frame_of("kind = \"pause\"\nopcode = 0x0101\n"), head(kPauseWithPfcOpcode));
}

TEST(MacControl, PauseTimeAndRefreshFollowTheLinkSpeed) {
  EXPECT_NEAR(pause_ns(65535, 40'000'000'000), 838'848.0, 0.01);
  EXPECT_NEAR(pause_ns(65535, 50'000'000'000), 671'078.4, 0.01);
  EXPECT_EQ(pause_ns(0, 40'000'000'000), 0.0);
  const api::StreamSpec storm = stream_of("kind = \"pfc\"\npriorities = [3]\nquanta = 4096\nrefresh = \"auto\"\n");
  // 4096 quanta at 40G are 52.4288 us: refreshed every 26.2144 us.
  EXPECT_NEAR(*stream_pps(storm, 40'000'000'000, "p0"), 1e9 / 26'214.4, 1e-6);
  const auto unknown = stream_pps(storm, 0, "p0");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().context.find("reports no link speed"), std::string::npos);
}

TEST(MacControl, KeysThatDoNotFitAreRefusedAtTheirLine) {
  EXPECT_EQ(error_of("kind = \"pfc\"\n"),
            "test.toml:6:1: key 'stream[0].priorities': a PFC stream names the priorities it pauses, e.g. priorities = [3]");
  EXPECT_EQ(error_of("kind = \"pfc\"\npriorities = [3, 3]\n"),
            "test.toml:10:18: key 'stream[0].priorities': priority 3 is listed twice");
  EXPECT_EQ(error_of("kind = \"pfc\"\npriorities = [8]\n"),
            "test.toml:10:15: key 'stream[0].priorities': 8 is out of range [0, 7]");
  EXPECT_EQ(error_of("kind = \"pfc\"\npriorities = [3]\nquanta = [1, 2]\n"),
            "test.toml:11:10: key 'stream[0].quanta': a list of quanta has one per priority 0-7: 8 values, not 2");
  EXPECT_EQ(error_of("kind = \"pause\"\npriorities = [3]\n"),
            "test.toml:10:14: key 'stream[0].priorities': PAUSE (802.3x) pauses the whole link; this key is for kind = \"pfc\"");
  EXPECT_EQ(error_of("kind = \"pfc\"\npriorities = [3]\nvlan = { id = 5 }\n"),
            "test.toml:11:8: key 'stream[0].vlan': a pfc stream sends MAC Control frames, which have no VLAN, IP or UDP header");
  EXPECT_EQ(error_of("kind = \"pause\"\nframe_size = 128\n"),
            "test.toml:10:14: key 'stream[0].frame_size': MAC Control frames are 64 bytes (leave frame_size out)");
  EXPECT_EQ(error_of("kind = \"pause\"\nrefresh = \"auto\"\nrate = \"1kpps\"\n"),
            "test.toml:11:8: key 'stream[0].rate': give rate or refresh = \"auto\", not both");
  EXPECT_EQ(error_of("kind = \"pause\"\nquanta = 0\nrefresh = \"auto\"\n"),
            "test.toml:11:11: key 'stream[0].refresh': every quanta is 0 (XON): there is no pause to hold; give a rate");
  EXPECT_EQ(error_of("kind = \"cnp\"\n"), "test.toml:9:8: key 'stream[0].kind': 'cnp' is not udp, pfc or pause");
  EXPECT_EQ(error_of("quanta = 5\n"),
            "test.toml:9:10: key 'stream[0].quanta': applies to MAC Control streams only (kind = \"pfc\" or \"pause\")");
}

TEST(MacControl, DefaultsAndPlanFlags) {
  const api::StreamSpec s = stream_of("kind = \"pause\"\n");
  EXPECT_EQ(s.eth_dst, wire::kMacControlDst);
  EXPECT_EQ(s.mac_control.quanta[0], 65535);
  EXPECT_EQ(s.frame.smallest(), 64);
  const wire::TxStreamPlan plan = build_stream_plan(s, 0);
  EXPECT_TRUE(plan.mac_control);
  EXPECT_TRUE(fast::headers_fixed(plan));
  // A signature-only writer fills the same frame as the whole one, in a frame the pool's
  // filling wrote whole (sequence 0).
  std::vector<uint8_t> whole(plan.template_bytes.begin(), plan.template_bytes.end());
  std::vector<uint8_t> fixed = whole;
  fixed.resize(whole.size() + fast::kTxTailroom);  // as a TX buffer has
  uint16_t none = 0;
  fast::write_frame(fixed.data(), plan, plan.sizes[0], none, wire::Signature{0, 0, 0, 0}, fast::FrameCursor{});
  const fast::FixedBurst burst = fast::fixed_burst(plan, 2, 777);
  fast::FixedFrameBytes bytes;
  fast::fixed_frame_bytes<false>(burst, 12345, 1, bytes);
  fast::store_fixed_frame<false>(fixed.data(), burst, bytes, 0);
  uint16_t last_sig = 0;
  fast::write_frame(whole.data(), plan, plan.sizes[0], last_sig, wire::Signature{0, 2, 12345, 777}, fast::FrameCursor{});
  fixed.resize(whole.size());
  EXPECT_EQ(fixed, whole);
}

}  // namespace
}  // namespace lr::plan
