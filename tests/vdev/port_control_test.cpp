// PortControl on virtual ports: which backend serves each operation, read back after a
// set and undo when the port does not take it, the clear "not supported" errors, and the
// merged counter view with per-run deltas. The kernel netdev is the fake mlx5 one.

#include "dataplane/port/port_control.hpp"

#include <gtest/gtest.h>
#include <linux/ethtool.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>

#include <algorithm>

#include "dataplane/port/port.hpp"
#include "dataplane/port/port_controls.hpp"
#include "tests/support/eal_env.hpp"
#include "tests/support/fake_kernel_io.hpp"

namespace lr::test {

std::vector<std::string> eal_test_args() {
  return {"vdev_port_control", "--lcores=0@0", "--no-huge", "-m", "256", "--no-pci", "--no-shconf",
          "--log-level", "lib.eal:warning", "--vdev=net_null0", "--vdev=net_ring0"};
}

namespace {

uint16_t port_of(const char* name) {
  uint16_t id = 0;
  EXPECT_EQ(rte_eth_dev_get_port_by_name(name, &id), 0) << name;
  return id;
}

// The port's ethdev side for port control, without configuring the port: link up / down
// through ethdev as EthdevPort does it, and link_speeds recorded instead of applied.
class FakeEthdevLink final : public dp::EthdevLink {
 public:
  FakeEthdevLink(const char* vdev, const char* name, const char* driver) : name_(name) {
    info_.port_id = port_of(vdev);
    info_.driver = driver;
  }
  Result<void> set_link_up(bool up) override { return dp::set_ethdev_link(info_, name_, up); }
  Result<void> set_link_speeds(uint32_t bits) override {
    if (!speeds_supported) return make_error(Errc::kNotSupported, "link_speeds");
    calls.push_back(bits);
    link_speeds_ = bits;
    return {};
  }
  uint32_t link_speeds() const override { return link_speeds_; }
  // As af_packet and mlx5 do: ethdev's MTU is the kernel netdev's.
  Result<void> set_mtu(uint16_t mtu) override {
    if (kernel == nullptr) return make_error(Errc::kNotSupported, "MTU");
    if (kernel->set_mtu(kernel->ifname, mtu) != 0) return make_error(Errc::kInvalid, "MTU");
    return {};
  }
  Result<void> set_promiscuous(bool on) override {
    if (kernel == nullptr) return make_error(Errc::kNotSupported, "promiscuous");
    kernel->set_flags(kernel->ifname, on ? kernel->flags | 0x100u : kernel->flags & ~0x100u);
    return {};
  }
  FakeKernelIo* kernel = nullptr;  ///< the netdev behind this port, if any
  std::vector<uint32_t> calls;
  bool speeds_supported = true;  ///< false: as a PMD without link_speeds (the ring's own)

 private:
  dp::PortInfo info_;
  std::string name_;
  uint32_t link_speeds_ = 0;
};

struct PortControlTest : ::testing::Test {
  FakeKernelIo io;
  FakeEthdevLink null_link{"net_null0", "p0", "net_null"};
  FakeEthdevLink ring_link{"net_ring0", "r0", "net_ring"};
  dp::PortControl port{"p0", port_of("net_null0"), "net_null", std::make_unique<dp::KernelNetdev>("eth9", io), &null_link};
  dp::PortControl bare{"r0", port_of("net_ring0"), "net_ring", nullptr, &ring_link};
  PortControlTest() { null_link.kernel = &io; }
};

TEST_F(PortControlTest, FecFallsBackToTheKernelAndIsReadBack) {
  auto fec = port.fec();
  ASSERT_TRUE(fec) << to_string(fec.error());
  EXPECT_EQ(fec->backend, dp::Backend::kKernel);
  EXPECT_EQ(dp::fec_names(fec->value.configured), "auto");
  auto set = port.set_fec(dp::kFecRs);
  ASSERT_TRUE(set) << to_string(set.error());
  EXPECT_EQ(set->backend, dp::Backend::kKernel);
  EXPECT_EQ(dp::fec_names(set->value.configured), "rs");
}

TEST_F(PortControlTest, ASetThePortDoesNotTakeIsUndoneAndReported) {
  ASSERT_TRUE(port.set_fec(dp::kFecRs));
  io.ignore_sets = true;
  io.sets = 0;
  const auto set = port.set_fec(dp::kFecBaseR);
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().code, Errc::kInvalid);
  EXPECT_EQ(set.error().context,
            "FEC set baser on port 'p0': the port reads back rs; the previous mode (rs) was restored");
  EXPECT_EQ(io.sets, 2);  // the set, then the restore
  io.ignore_sets = false;
  bool read_back = true;
  ASSERT_TRUE(port.set_pfc(0x08, read_back));
  EXPECT_TRUE(read_back);
  io.ignore_sets = true;
  const auto pfc = port.set_pfc(0x18, read_back);
  ASSERT_FALSE(pfc);
  EXPECT_NE(pfc.error().context.find("reads back priorities 0x08, not 0x18"), std::string::npos);
}

TEST_F(PortControlTest, PauseAndPfcFromTheKernel) {
  auto pause = port.set_pause(dp::PauseStatus{true, true, false});
  ASSERT_TRUE(pause) << to_string(pause.error());
  EXPECT_EQ(pause->backend, dp::Backend::kKernel);
  EXPECT_TRUE(pause->value.rx && pause->value.tx);
  bool read_back = false;
  auto pfc = port.set_pfc(0x08, read_back);
  ASSERT_TRUE(pfc);
  EXPECT_EQ(pfc->backend, dp::Backend::kKernel);
  EXPECT_EQ(io.pfc_enabled, 0x08);
}

TEST_F(PortControlTest, NeitherBackendSaysSoPlainly) {
  io.dcb_supported = false;
  bool read_back = true;
  const auto pfc = port.set_pfc(0x08, read_back);
  ASSERT_FALSE(pfc);
  EXPECT_EQ(pfc.error().code, Errc::kNotSupported);
  EXPECT_EQ(pfc.error().context,
            "PFC set is not supported by net_null on port " + std::to_string(port.port_id()) +
                " ('p0'), nor by its kernel netdev eth9 (mlx5_core)");
  const auto fec = bare.set_fec(dp::kFecRs);
  ASSERT_FALSE(fec);
  EXPECT_EQ(fec.error().code, Errc::kNotSupported);
  EXPECT_EQ(fec.error().context, "FEC set is not supported by net_ring on port " + std::to_string(bare.port_id()) +
                                     " ('r0') (it has no kernel netdev to fall back on)");
  const auto eeprom = bare.module_eeprom();
  ASSERT_FALSE(eeprom);
  EXPECT_EQ(eeprom.error().code, Errc::kNotSupported);
  dp::LinkRequest speed;
  speed.speed_mbps = 50000;
  ring_link.speeds_supported = false;
  const auto link = bare.set_link(speed, "test");
  ASSERT_FALSE(link);
  EXPECT_EQ(link.error().context.rfind("link speed / autoneg set is not supported by net_ring", 0), 0u);
}

TEST_F(PortControlTest, LinkModesComeFromTheKernelAndASetIsUndoneWhenIgnored) {
  auto link = port.link();
  ASSERT_TRUE(link);
  EXPECT_EQ(link->backend, dp::Backend::kKernel);
  EXPECT_EQ(link->value.advertised, (std::vector<std::string>{"50000baseCR2/Full", "50000baseCR/Full"}));
  dp::LinkRequest request;
  request.advertise = std::vector<std::string>{"50000baseCR/Full"};
  auto set = port.set_link(request, "test");
  ASSERT_TRUE(set) << to_string(set.error());
  EXPECT_EQ(set->value.advertised, (std::vector<std::string>{"50000baseCR/Full"}));
  io.ignore_sets = true;
  request.advertise = std::vector<std::string>{"25000baseCR/Full"};
  const auto ignored = port.set_link(request, "test");
  ASSERT_FALSE(ignored);
  EXPECT_NE(ignored.error().context.find("the previous settings were restored"), std::string::npos);
}

TEST_F(PortControlTest, MergedCountersCarryTheirSourceCanonicalNameAndRunDelta) {
  port.mark_baseline();
  for (auto& [name, value] : io.stats)
    if (name == "rx_prio3_pause") value += 5;
  io.fec_corrected[1] += 9;
  std::vector<std::string> errors;
  const auto counters = port.counters(&errors);
  EXPECT_TRUE(errors.empty());
  const auto find = [&](const std::string& source, const std::string& name) {
    const auto it = std::find_if(counters.begin(), counters.end(), [&](const dp::MergedCounter& c) {
      return c.counter.source == source && c.counter.name == name;
    });
    EXPECT_NE(it, counters.end()) << source << "/" << name;
    return it == counters.end() ? dp::MergedCounter{} : *it;
  };
  EXPECT_EQ(find("ethdev", "ipackets").canonical, "rx_packets");
  EXPECT_EQ(find("xstats", "rx_good_packets").canonical, "rx_packets");
  const dp::MergedCounter pause = find("ethtool", "rx_prio3_pause");
  EXPECT_EQ(pause.canonical, "rx_pause_prio3");
  EXPECT_EQ(pause.counter.value, 22u);
  EXPECT_EQ(pause.since_baseline, 5u);
  const dp::MergedCounter lane0 = find("fec", "corrected_blocks_lane0");
  EXPECT_EQ(lane0.canonical, "fec_corrected_blocks_lane0");
  EXPECT_EQ(lane0.since_baseline, 9u);
  EXPECT_EQ(find("fec", "corrected_blocks").since_baseline, 0u);  // the fake's total did not move
}

TEST_F(PortControlTest, ALinkEventIsOnTheRunsClockFromItsStartOn) {
  bare.poll_link();  // first seen, before the run
  const bool was_up = bare.link_history()[0].up;
  const uint64_t tsc_hz = rte_get_tsc_hz();
  const dp::RunClock run{rte_rdtsc(), tsc_hz};
  dp::LinkRequest request;
  request.up = !was_up;
  const uint64_t called_tsc = rte_rdtsc();
  ASSERT_TRUE(bare.set_link(request, "set by test"));
  const uint64_t answered_tsc = rte_rdtsc();
  const std::vector<api::LinkEventReport> events = dp::link_events(bare, run);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_FALSE(events[0].run_s);  // before the run's start
  ASSERT_TRUE(events[1].run_s);
  // As of the set's call, in TSC cycles at tsc_hz since the start: between the call and its answer.
  EXPECT_GE(*events[1].run_s, static_cast<double>(called_tsc - run.start_tsc) / static_cast<double>(tsc_hz));
  EXPECT_LE(*events[1].run_s, static_cast<double>(answered_tsc - run.start_tsc) / static_cast<double>(tsc_hz));
  // Without a run (port.link.history), or before a run starting later: none.
  EXPECT_FALSE(dp::link_events(bare)[1].run_s);
  EXPECT_FALSE(dp::link_events(bare, dp::RunClock{answered_tsc, tsc_hz})[1].run_s);
  request.up = was_up;  // the ring as the other tests find it
  ASSERT_TRUE(bare.set_link(request, "set by test"));
}

TEST_F(PortControlTest, LinkHistoryRecordsChangesOnly) {
  bare.poll_link();
  bare.poll_link();
  ASSERT_EQ(bare.link_history().size(), 1u);
  EXPECT_EQ(bare.link_history()[0].cause, "first seen");
  EXPECT_FALSE(bare.link_history()[0].up);  // a ring that was never started
  dp::LinkRequest request;
  request.up = true;
  const auto up = bare.set_link(request, "set by test");  // net_ring has link up / down
  ASSERT_TRUE(up) << to_string(up.error());
  ASSERT_EQ(bare.link_history().size(), 2u);
  EXPECT_TRUE(bare.link_history()[1].up);
  EXPECT_EQ(bare.link_history()[1].cause, "set by test");
  bare.poll_link();  // still up: nothing new
  EXPECT_EQ(bare.link_history().size(), 2u);
  request.up = false;
  ASSERT_TRUE(bare.set_link(request, "set by test"));
  ASSERT_EQ(bare.link_history().size(), 3u);
  EXPECT_FALSE(bare.link_history()[2].up);
  // net_null has no link up / down: its kernel netdev's administrative state serves, and
  // is put back like any other setting linerate changed.
  const auto down = port.set_link(request, "set by test");
  ASSERT_TRUE(down) << to_string(down.error());
  EXPECT_EQ(down->backend, dp::Backend::kKernel);
  EXPECT_EQ(io.flags & 1u, 0u);
  ASSERT_EQ(port.settings_changed().size(), 1u);
  EXPECT_EQ(port.settings_changed()[0].setting, "admin");
  EXPECT_EQ(port.settings_changed()[0].before, "up");
  EXPECT_EQ(port.restore_settings()[0].restore, "restored");
  EXPECT_EQ(io.flags & 1u, 1u);
}

TEST_F(PortControlTest, EthdevLinkSpeedsWithoutANetdevAreReadBackAndRestored) {
  dp::LinkRequest request;
  request.up = true;
  ASSERT_TRUE(bare.set_link(request, "test"));  // net_ring: up at 10G
  request = dp::LinkRequest{};
  request.autoneg = false;
  request.speed_mbps = 10000;
  ASSERT_TRUE(bare.set_link(request, "test"));
  ASSERT_TRUE(bare.verify_link_set());  // up at 10G, as asked
  request.autoneg = true;
  request.speed_mbps = 25000;  // advertised only 25G, but the ring stays at 10G
  ASSERT_TRUE(bare.set_link(request, "test"));  // applied; the read-back waits for the link
  const auto refused = bare.verify_link_set();
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().context, "link set on port 'r0': net_ring came up at 10000 Mb/s, not 25000; the previous "
                                     "link settings were restored");
  request.speed_mbps.reset();
  ASSERT_TRUE(bare.set_link(request, "test"));  // autoneg, every speed
  EXPECT_EQ(ring_link.calls, (std::vector<uint32_t>{RTE_ETH_LINK_SPEED_FIXED | RTE_ETH_LINK_SPEED_10G, RTE_ETH_LINK_SPEED_25G,
                                          RTE_ETH_LINK_SPEED_FIXED | RTE_ETH_LINK_SPEED_10G, RTE_ETH_LINK_SPEED_AUTONEG}));
}

const api::SettingChange* change_of(const dp::PortControl& port, const std::string& setting) {
  for (const api::SettingChange& c : port.settings_changed())
    if (c.setting == setting) return &c;
  return nullptr;
}

TEST_F(PortControlTest, EverySettingChangedIsPutBackAsThePortHadIt) {
  ASSERT_TRUE(port.set_fec(dp::kFecRs));
  ASSERT_TRUE(port.set_fec(dp::kFecBaseR));  // `before` stays what the port had first
  ASSERT_TRUE(port.set_pause(dp::PauseStatus{true, true, false}));
  bool read_back = false;
  ASSERT_TRUE(port.set_pfc(0x18, read_back));
  dp::LinkRequest fixed;
  fixed.autoneg = false;
  fixed.speed_mbps = 25000;
  ASSERT_TRUE(port.set_link(fixed, "test"));
  ASSERT_TRUE(port.set_mtu(9000));
  EXPECT_EQ(io.mtu, 9000u);
  ASSERT_TRUE(port.set_promiscuous(true));

  ASSERT_EQ(port.settings_changed().size(), 6u);
  const api::SettingChange* fec = change_of(port, "fec");
  ASSERT_NE(fec, nullptr);
  EXPECT_EQ(fec->before, "auto");
  EXPECT_EQ(fec->set_to, "baser");
  EXPECT_EQ(fec->restore, "at_exit");
  EXPECT_EQ(change_of(port, "pause")->before, "off");
  EXPECT_EQ(change_of(port, "pause")->set_to, "both");
  EXPECT_EQ(change_of(port, "pfc")->before, "off");
  EXPECT_EQ(change_of(port, "pfc")->set_to, "3,4");
  EXPECT_EQ(change_of(port, "link")->before, "autoneg on, advertising 50000baseCR2/Full 50000baseCR/Full");
  EXPECT_EQ(change_of(port, "link")->set_to, "autoneg off, 25000 Mb/s");
  EXPECT_EQ(change_of(port, "mtu")->before, "1500");
  EXPECT_EQ(change_of(port, "mtu")->set_to, "9000");
  EXPECT_EQ(change_of(port, "promiscuous")->before, "off");
  EXPECT_EQ(change_of(port, "promiscuous")->set_to, "on");

  for (const api::SettingChange& c : port.restore_settings()) {
    EXPECT_EQ(c.restore, "restored") << c.setting << ": " << c.error;
    EXPECT_EQ(c.error, "");
  }
  EXPECT_EQ(io.fec_configured, uint32_t{ETHTOOL_FEC_AUTO});
  EXPECT_FALSE(io.pause_rx || io.pause_tx);
  EXPECT_EQ(io.pfc_enabled, 0);
  EXPECT_TRUE(io.autoneg);
  EXPECT_EQ(port.link()->value.advertised, (std::vector<std::string>{"50000baseCR2/Full", "50000baseCR/Full"}));
  EXPECT_EQ(io.mtu, 1500u);
  EXPECT_EQ(io.flags & 0x100u, 0u);
  // A second restore has nothing left to do, and says what was done.
  io.sets = 0;
  EXPECT_EQ(port.restore_settings().size(), 6u);
  EXPECT_EQ(io.sets, 0);
}

TEST_F(PortControlTest, AKeptSettingStaysAndASetBackToTheStartIsNoChange) {
  ASSERT_TRUE(port.set_fec(dp::kFecRs, /*keep=*/true));
  ASSERT_TRUE(port.set_mtu(2000));
  ASSERT_TRUE(port.set_mtu(1500));  // back where it was: recorded, nothing to put back
  ASSERT_TRUE(port.set_pause(dp::PauseStatus{false, false, false}));  // what it had: no change at all
  EXPECT_EQ(change_of(port, "pause"), nullptr);
  port.restore_settings();
  EXPECT_EQ(change_of(port, "fec")->restore, "kept");
  EXPECT_EQ(io.fec_configured, uint32_t{ETHTOOL_FEC_RS});
  EXPECT_EQ(change_of(port, "mtu")->restore, "unchanged");
  EXPECT_EQ(io.mtu, 1500u);
}

TEST_F(PortControlTest, ARestoreThePortRefusesIsReportedNotIgnored) {
  ASSERT_TRUE(port.set_fec(dp::kFecRs));
  ASSERT_TRUE(port.set_mtu(9000));
  io.ignore_sets = true;  // the driver now accepts every set and changes nothing
  port.restore_settings();
  const api::SettingChange* fec = change_of(port, "fec");
  EXPECT_EQ(fec->restore, "failed");
  EXPECT_EQ(fec->error, "FEC set auto on port 'p0': the port reads back rs; the previous mode (rs) was restored");
  EXPECT_EQ(change_of(port, "mtu")->restore, "failed");
  EXPECT_EQ(change_of(port, "mtu")->error, "eth9 reads back MTU 9000");
  // Once the driver takes sets again, the next restore retries what failed.
  io.ignore_sets = false;
  port.restore_settings();
  EXPECT_EQ(change_of(port, "fec")->restore, "restored");
  EXPECT_EQ(change_of(port, "fec")->error, "");  // the failed attempt's reason goes with it
  EXPECT_EQ(change_of(port, "mtu")->restore, "restored");
  EXPECT_EQ(change_of(port, "mtu")->error, "");
  EXPECT_EQ(io.mtu, 1500u);
}

TEST_F(PortControlTest, ALinkOrPromiscuousModeNotPutBackSaysWhatThePortReads) {
  dp::LinkRequest fixed;
  fixed.autoneg = false;
  fixed.speed_mbps = 25000;
  ASSERT_TRUE(port.set_link(fixed, "test"));
  ASSERT_TRUE(port.set_promiscuous(true));
  io.ignore_sets = true;
  port.restore_settings();
  EXPECT_EQ(change_of(port, "link")->restore, "failed");
  EXPECT_EQ(change_of(port, "link")->error, "eth9 accepted the link settings but reads back autoneg off, 25000 Mb/s");
  EXPECT_EQ(change_of(port, "promiscuous")->restore, "failed");
  EXPECT_EQ(change_of(port, "promiscuous")->error, "eth9 reads back promiscuous mode on");
}

}  // namespace
}  // namespace lr::test
