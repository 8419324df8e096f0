// The optics watch over readings of the kernel-interface fake (an mlx5 netdev with an
// SFF-8636 module whose live values move): the news it says, its status and the exact
// Prometheus lines, each case with a series that goes bad and, where it matters, the same
// series kept good.

#include "control/suites/optics/port_watch.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "control/suites/optics/port_status_json.hpp"
#include "control/views/optics_metrics.hpp"
#include "lib/host/kernel/kernel_netdev.hpp"
#include "tests/support/fake_kernel_io.hpp"
#include "tests/unit/module/sff8636_image.hpp"

namespace lr::optics {
namespace {

::testing::AssertionResult Has(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "no '" << part << "' in:\n" << text;
}
::testing::AssertionResult Lacks(const std::string& text, const std::string& part) {
  if (text.find(part) == std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' in:\n" << text;
}

constexpr const char* kModule = R"(port="eth9",serial="QSN42",vendor="ACME OPTICS",part="QSFP28-SR4")";

class WatchReplay : public ::testing::Test {
 protected:
  WatchReplay() {
    image.bytes()[10] = 0;  // no latched flags
    set_rx_power_mw(3, 0.6);
    io.stats = {{"rx_packets_phy", 0}, {"link_down_events_phy", 0}, {"rx_symbol_err_phy", 0}};
    io.fec_corrected = {}, io.fec_uncorrectable = {}, io.fec_corrected_bits = {};
  }

  void set_rx_power_mw(int lane, double mw) {
    image.be16(34 + 2 * (lane - 1), static_cast<uint16_t>(std::lround(mw * 1e4)));
  }
  void set_stat(const std::string& name, uint64_t value) {
    for (auto& [n, v] : io.stats)
      if (n == name) v = value;
  }
  void load_eeprom() {
    const auto& b = image.bytes();
    io.eeprom_pages.clear();
    io.eeprom_pages[{0x50, 0, 0}] = {b.begin(), b.begin() + 128};
    for (uint8_t page = 0; page < 4; ++page)
      io.eeprom_pages[{0x50, page, 128}] = {b.begin() + 128 + 128 * page, b.begin() + 256 + 128 * page};
  }

  // One interval: the netdev read at `t` and given to the watch; its news.
  std::vector<std::string> read_at(double t) {
    load_eeprom();
    return watch.update(read_netdev(netdev, t));
  }
  std::string page() { return ctl::optics_metrics_text({watch.status()}); }

  static bool said(const std::vector<std::string>& news, const std::string& part) {
    for (const std::string& line : news)
      if (line.find(part) != std::string::npos) return true;
    return false;
  }

  module::test::Sff8636Image image;
  test::FakeKernelIo io;
  dp::KernelNetdev netdev{"eth9", io};
  PortWatch watch{"eth9"};
};

TEST_F(WatchReplay, FirstReadingSaysTheModuleAndExportsEveryMonitorWithItsThresholds) {
  const std::vector<std::string> news = read_at(100);
  ASSERT_EQ(news.size(), 1u);
  EXPECT_EQ(news[0], "eth9: module ACME OPTICS QSFP28-SR4 QSFP28 (serial QSN42)");
  const std::string text = page();
  EXPECT_TRUE(Has(text, fmt::format("lr_module_info{{{},type=\"QSFP28\",revision=\"A0\"}} 1\n", kModule)));
  EXPECT_TRUE(Has(text, fmt::format("lr_module_temperature_celsius{{{}}} 40.25\n", kModule)));
  EXPECT_TRUE(Has(text, fmt::format("lr_module_supply_voltage_volts{{{}}} 3.2800000000000002\n", kModule)));
  EXPECT_TRUE(Has(text, fmt::format("lr_module_laser_bias_amperes{{{},lane=\"1\"}} 0.0075\n", kModule)));
  // 0.6 mW is 10 log10(0.6) = -2.2184875 dBm.
  EXPECT_TRUE(Has(text, fmt::format("lr_module_rx_power_dbm{{{},lane=\"3\"}} -2.2184874961635637\n", kModule)));
  // The module's own low warning, 0.0708 mW: -11.4997 dBm.
  EXPECT_TRUE(Has(text, fmt::format("lr_module_rx_power_threshold_dbm{{{},level=\"low_warning\"}} "
                                    "-11.49966742310231\n",
                                    kModule)));
  EXPECT_TRUE(Has(text, fmt::format("lr_module_alarm_flag{{{},quantity=\"rx_power\",lane=\"3\"}} 0\n", kModule)));
  EXPECT_TRUE(Has(text, "lr_link_up{port=\"eth9\"} 1\n"));
  EXPECT_TRUE(Has(text, "lr_link_speed_bytes_per_second{port=\"eth9\"} 6250000000\n"));
  EXPECT_TRUE(Has(text, "lr_link_flaps_total{port=\"eth9\"} 0\n"));
  EXPECT_TRUE(Has(text, "lr_link_symbol_errors_total{port=\"eth9\"} 0\n"));
  EXPECT_TRUE(Lacks(text, "lr_link_last_change_timestamp_seconds"));  // none seen yet
  // The first reading has no interval behind it: no rates yet, absent rather than zero.
  EXPECT_TRUE(Lacks(text, "lr_fec_corrected_codewords_per_second"));
  EXPECT_TRUE(Has(text, "lr_fec_corrected_codewords_total{port=\"eth9\"} 0\n"));
}

TEST_F(WatchReplay, RxPowerDriftingDownRaisesTheModulesOwnFlagOnceAndExportsIt) {
  read_at(0);
  for (int t = 1; t <= 5; ++t) {
    set_rx_power_mw(2, 0.6 / std::pow(2.0, t));  // halves each interval: 0.019 mW at the end
    if (t == 4) image.bytes()[9] |= 0x01;        // lane 2 low warning latched (SFF-8636 byte 9 bit 0)
    const std::vector<std::string> news = read_at(t * 10.0);
    EXPECT_EQ(said(news, "rx_power[2] warning flag raised"), t == 4) << "t=" << t;
  }
  EXPECT_TRUE(Has(page(), fmt::format("lr_module_warning_flag{{{},quantity=\"rx_power\",lane=\"2\"}} 1\n", kModule)));
  EXPECT_TRUE(Has(page(), fmt::format("lr_module_warning_flag{{{},quantity=\"rx_power\",lane=\"1\"}} 0\n", kModule)));
}

TEST_F(WatchReplay, FecRatesAndPreFecBerFromCorrectedBitsOverTheLinksRate) {
  read_at(0);
  io.fec_corrected = {1000, 250, 250, 250, 250};
  io.fec_corrected_bits = {5000, 1250, 1250, 1250, 1250};
  const std::vector<std::string> news = read_at(10);
  EXPECT_FALSE(said(news, "uncorrectable"));
  const PortStatus& s = watch.status();
  ASSERT_TRUE(s.corrected_per_s && s.pre_fec_ber);
  EXPECT_DOUBLE_EQ(*s.corrected_per_s, 100.0);
  EXPECT_DOUBLE_EQ(*s.uncorrectable_per_s, 0.0);
  EXPECT_DOUBLE_EQ(*s.pre_fec_ber, 5000.0 / (50e9 * 10));  // 1e-8
  EXPECT_TRUE(Has(page(), "lr_fec_pre_fec_ber{port=\"eth9\",method=\"corrected_bits\"} 1e-08\n"));
  EXPECT_TRUE(Has(page(), "lr_fec_lane_corrected_codewords_total{port=\"eth9\",lane=\"2\"} 250\n"));
  // Up a decade, then an uncorrectable codeword: said, with its count.
  io.fec_corrected[0] += 10'000;
  io.fec_uncorrectable[0] = 3;
  const std::vector<std::string> worse = read_at(20);
  EXPECT_DOUBLE_EQ(*watch.status().corrected_per_s, 1000.0);
  EXPECT_TRUE(said(worse, "eth9: 3 uncorrectable FEC codewords in 10 s")) << worse.front();
  EXPECT_TRUE(Has(page(), "lr_fec_uncorrectable_codewords_total{port=\"eth9\"} 3\n"));
}

TEST_F(WatchReplay, WithoutCorrectedBitsTheBerIsALowerBoundFromCodewordsAndSaysSo) {
  io.stats.push_back({"rx_corrected_bits_phy", 0});  // absent below: the driver lacks it
  io.stats.pop_back();
  read_at(0);
  io.fec_corrected = {500, 0, 0, 0, 0};
  io.fec_corrected_bits = {};
  // The fake counts corrected bits always; a driver without them is one whose netlink
  // answer lacks them: take the counter out of the reading.
  load_eeprom();
  PortReading r = read_netdev(netdev, 10);
  r.counters.erase("fec_corrected_bits");
  watch.update(std::move(r));
  EXPECT_EQ(watch.status().ber_method, BerMethod::kCorrectedCodewordsLowerBound);
  EXPECT_DOUBLE_EQ(*watch.status().pre_fec_ber, 500.0 / (50e9 * 10));
  EXPECT_TRUE(Has(page(), "method=\"corrected_codewords_lower_bound\""));
}

TEST_F(WatchReplay, AFlapIsCountedWhetherSeenOrOnlyCountedByTheDriver) {
  read_at(0);
  io.carrier = false;
  set_stat("link_down_events_phy", 1);  // the driver counts the drop it shows: one flap, not two
  std::vector<std::string> news = read_at(10);
  EXPECT_TRUE(said(news, "eth9: link down (flaps since the watch began: 1)"));
  EXPECT_TRUE(Has(page(), "lr_link_last_change_timestamp_seconds{port=\"eth9\"} 10\n"));
  io.carrier = true;
  news = read_at(20);
  EXPECT_TRUE(said(news, "link up"));
  EXPECT_EQ(watch.status().flaps, 1u);
  // Two drops between readings, up at both: only the driver saw them.
  set_stat("link_down_events_phy", 3);
  news = read_at(30);
  EXPECT_TRUE(said(news, "link dropped 2 time(s) between two readings"));
  EXPECT_EQ(watch.status().flaps, 3u);
  EXPECT_TRUE(Has(page(), "lr_link_flaps_total{port=\"eth9\"} 3\n"));
  // A steady link: no news, no flap.
  news = read_at(40);
  EXPECT_TRUE(news.empty());
  EXPECT_EQ(watch.status().flaps, 3u);
}

TEST_F(WatchReplay, AModuleSwappedIsNoticedAndItsSeriesStartAgainUnderItsSerial) {
  read_at(0);
  image.ascii(196, 16, "QSN77");
  image.fix_checksums();
  const std::vector<std::string> news = read_at(10);
  ASSERT_TRUE(said(news,
                   "module swapped: ACME OPTICS QSFP28-SR4 QSFP28 (serial QSN42) -> ACME OPTICS QSFP28-SR4 "
                   "QSFP28 (serial QSN77)"));
  EXPECT_EQ(watch.status().module_changes, 1u);
  EXPECT_TRUE(Has(page(), "lr_module_changes_total{port=\"eth9\"} 1\n"));
  EXPECT_TRUE(Has(page(), "serial=\"QSN77\""));
  EXPECT_TRUE(Lacks(page(), "serial=\"QSN42\""));
  // The same module again: no news.
  EXPECT_FALSE(said(read_at(20), "swapped"));
}

TEST_F(WatchReplay, AReadThatFailsHalfWayIsSaidOnThePortAndItsModuleMetricsAreAbsentNotStale) {
  read_at(0);
  load_eeprom();
  io.eeprom_pages.erase({0x50, 0, 128});  // the lower page answers, upper page 00h does not
  const std::vector<std::string> news = watch.update(read_netdev(netdev, 10));
  ASSERT_EQ(news.size(), 1u);
  EXPECT_TRUE(Has(news[0], "eth9: module EEPROM: "));
  EXPECT_TRUE(watch.status().current);
  EXPECT_TRUE(Lacks(page(), "lr_module_rx_power_dbm"));
  EXPECT_TRUE(Has(page(), "lr_link_up{port=\"eth9\"} 1\n"));  // the rest of the port still read
  // Back: no swap said (the same module), nothing else new.
  EXPECT_TRUE(read_at(20).empty());
}

TEST_F(WatchReplay, AThresholdPageThatStopsAnsweringIsSaidAndItsThresholdsAreAbsent) {
  read_at(0);
  load_eeprom();
  io.eeprom_pages.erase({0x50, 3, 128});  // the kernel hands back the image without page 03h
  const std::vector<std::string> news = watch.update(read_netdev(netdev, 10));
  ASSERT_EQ(news.size(), 1u);
  EXPECT_EQ(news[0],
            "eth9: module: its threshold page did not answer this read: the threshold metrics are absent "
            "until it does");
  EXPECT_TRUE(Lacks(page(), "lr_module_rx_power_threshold_dbm"));
  EXPECT_TRUE(Has(page(), "lr_module_rx_power_dbm{"));  // the live values were read
  EXPECT_TRUE(read_at(20).empty());
  EXPECT_TRUE(Has(page(), "lr_module_rx_power_threshold_dbm{"));
}

TEST_F(WatchReplay, AModuleAnsweringGarbageIsSaidAsSuch) {
  read_at(0);
  image.bytes()[0] = 0x7E;  // no SFF-8024 identifier this layout knows
  const std::vector<std::string> news = read_at(10);
  ASSERT_EQ(news.size(), 1u);
  EXPECT_TRUE(
      Has(news[0], "eth9: module: the module's EEPROM (256 bytes) does not decode: byte 0 (identifier) is 0x7e"));
}

TEST_F(WatchReplay, ADriverWithoutFecStatisticsIsSaidOnceAndItsMetricsAreAbsent) {
  test::FakeKernelIo veth;
  veth.ifname = "eth9";
  veth.driver = "veth";
  dp::KernelNetdev bare("eth9", veth);
  // The fake's netlink answers FEC for any driver; a driver without it answers EOPNOTSUPP.
  PortReading r = read_netdev(bare, 0);
  r.unsupported["FEC statistics"] = "FEC statistics is not supported by the kernel netdev eth9 (veth)";
  std::erase_if(r.counters, [](const auto& c) { return c.first.starts_with("fec_"); });
  std::vector<std::string> news = watch.update(r);
  EXPECT_TRUE(said(news,
                   "eth9: no FEC statistics: FEC statistics is not supported by the kernel netdev eth9 (veth); "
                   "its metrics are absent"));
  r.time_s = 10;
  news = watch.update(r);
  EXPECT_FALSE(said(news, "no FEC statistics"));  // once
  EXPECT_TRUE(Lacks(page(), "lr_fec_"));
  EXPECT_TRUE(Has(page(), "lr_optics_unsupported{port=\"eth9\",what=\"FEC statistics\"} 1\n"));
}

TEST_F(WatchReplay, ANetdevThatDisappearsIsAReadThatDidNotArrive) {
  read_at(0);
  io.ifname = "eth8";  // eth9 is gone
  const std::vector<std::string> news = read_at(10);
  EXPECT_EQ(news, std::vector<std::string>{"eth9: kernel netdev eth9 is gone"});
  EXPECT_FALSE(watch.status().current);
  EXPECT_TRUE(Has(page(), "lr_optics_port_up{port=\"eth9\",source=\"netdev\"} 0\n"));
  EXPECT_TRUE(Lacks(page(), "lr_link_up{"));
  EXPECT_TRUE(read_at(20).empty());  // said once while it lasts
  EXPECT_EQ(port_status_json(watch.status()), (nlohmann::json{{"port", "eth9"},
                                                              {"current", false},
                                                              {"time", 20.0},
                                                              {"source", "netdev"},
                                                              {"missed", "kernel netdev eth9 is gone"}}));
}

TEST_F(WatchReplay, AFlapAcrossAReadThatFailedIsStillCounted) {
  read_at(0);
  io.ifname = "eth8";
  read_at(10);  // nothing read
  io.ifname = "eth9";
  io.carrier = false;
  const std::vector<std::string> news = read_at(20);
  EXPECT_TRUE(said(news, "eth9: read again"));
  EXPECT_TRUE(said(news, "eth9: link down (flaps since the watch began: 1)"));
  EXPECT_EQ(watch.status().flaps, 1u);
}

// Readings by hand: the link and the driver's link_down_events, each read or not.
PortReading link_reading(double t, std::optional<bool> up, std::optional<uint64_t> downs) {
  PortReading r;
  r.port = "eth9", r.source = "netdev", r.time_s = t, r.link_up = up;
  if (downs) r.counters["link_down_events"] = *downs;
  if (!up) r.problems.push_back("link: link get: timed out");
  if (!downs) r.problems.push_back("ethtool counters: timed out");
  return r;
}

TEST(FlapCount, ADropSeenWhileTheCountersFailedIsNotCountedAgainWhenTheyAreBack) {
  PortWatch w("eth9");
  w.update(link_reading(0, true, 5));
  w.update(link_reading(10, false, std::nullopt));
  EXPECT_EQ(w.status().flaps, 1u);
  w.update(link_reading(20, true, 6));  // the driver's count of that same drop
  EXPECT_EQ(w.status().flaps, 1u);
}

TEST(FlapCount, ADropCountedWhileTheLinkWasNotReadIsCounted) {
  PortWatch w("eth9");
  w.update(link_reading(0, true, 5));
  const std::vector<std::string> news = w.update(link_reading(10, std::nullopt, 6));
  EXPECT_EQ(w.status().flaps, 1u);
  ASSERT_EQ(news.size(), 2u);  // the link's problem, then the drop
  EXPECT_EQ(news[1], "eth9: link dropped 1 time(s) between two readings (the driver's link_down_events) (flaps: 1)");
  w.update(link_reading(20, true, 6));
  EXPECT_EQ(w.status().flaps, 1u);
}

TEST(FlapCount, ACounterResetCountsWhatItHoldsSince) {
  PortWatch w("eth9");
  w.update(link_reading(0, true, 5));
  w.update(link_reading(10, true, 1));  // the driver reset its counters, one drop since
  EXPECT_EQ(w.status().flaps, 1u);
}

TEST_F(WatchReplay, AFailedCounterReadSaysNothingOfTheDriversFecCounters) {
  load_eeprom();
  PortReading r = read_netdev(netdev, 0);
  r.counters.clear();
  r.problems.push_back("FEC statistics: FEC statistics: timed out");
  const std::vector<std::string> news = watch.update(r);
  EXPECT_FALSE(said(news, "counts no corrected FEC codewords"));
}

TEST_F(WatchReplay, AModuleWhoseChecksumsNeverHoldIsTakenWhenTwoReadsAgree) {
  image.bytes()[191] ^= 0xFF;  // the base checksum wrong, the serial the same every read
  std::vector<std::string> news = read_at(0);
  ASSERT_EQ(news.size(), 1u);
  EXPECT_TRUE(Has(news[0], "not taken for a module until the next read says the same"));
  EXPECT_TRUE(Lacks(page(), "lr_module_info"));
  news = read_at(10);
  EXPECT_TRUE(said(news, "eth9: module ACME OPTICS QSFP28-SR4 QSFP28 (serial QSN42)"));
  EXPECT_EQ(watch.status().module_changes, 0u);  // the first module, not a swap
  EXPECT_TRUE(Has(page(), "lr_module_info{"));
  EXPECT_TRUE(read_at(20).empty());
}

TEST_F(WatchReplay, AThresholdPageThatStaysSilentIsSaidAsLongAsItIs) {
  read_at(0);
  for (double t : {10.0, 20.0}) {
    load_eeprom();
    io.eeprom_pages.erase({0x50, 3, 128});
    watch.update(read_netdev(netdev, t));
    ASSERT_FALSE(watch.status().reading->problems.empty()) << t;
    EXPECT_TRUE(Has(watch.status().reading->problems.back(), "its threshold page did not answer")) << t;
  }
}

TEST_F(WatchReplay, ASerialReadWithBadChecksumsIsNotTakenForASwap) {
  read_at(0);
  image.ascii(196, 16, "QSN4?");  // one bad read of the serial: the checksum no longer holds
  std::vector<std::string> news = read_at(10);
  ASSERT_EQ(news.size(), 1u);
  EXPECT_TRUE(Has(news[0],
                  "eth9: module: read as ACME OPTICS QSFP28-SR4 QSFP28 (serial QSN4?), but its serial ID's "
                  "checksums do not hold"));
  EXPECT_EQ(watch.status().module_changes, 0u);
  EXPECT_TRUE(Lacks(page(), "serial=\"QSN4?\""));
  image.ascii(196, 16, "QSN42");
  news = read_at(20);
  EXPECT_TRUE(news.empty()) << news.front();  // the same module, never swapped
  EXPECT_EQ(watch.status().module_changes, 0u);
}

TEST_F(WatchReplay, AReadThatDidNotArriveLeavesOnlyPortUpZero) {
  read_at(0);
  std::vector<std::string> news = watch.missed("read not finished within 5 s", 10);
  EXPECT_EQ(news, std::vector<std::string>{"eth9: read not finished within 5 s"});
  EXPECT_TRUE(watch.missed("read not finished within 5 s", 20).empty());  // said once per outage
  EXPECT_EQ(port_status_json(watch.status())["time"], 20.0);  // the interval's, not the last reading's
  const std::string text = page();
  EXPECT_TRUE(Has(text, "lr_optics_port_up{port=\"eth9\",source=\"netdev\"} 0\n"));
  EXPECT_TRUE(Lacks(text, "lr_module_"));
  EXPECT_TRUE(Lacks(text, "lr_link_"));
  news = read_at(20);
  EXPECT_TRUE(said(news, "eth9: read again"));
  // The status JSON says it too.
  EXPECT_EQ(port_status_json(watch.status())["current"], true);
}

TEST(MonitorNames, LaneFromTheNameAndAnSfpsSingleLaneIsOne) {
  EXPECT_EQ(split_monitor_name("rx_power[3]").quantity, "rx_power");
  EXPECT_EQ(split_monitor_name("rx_power[3]").lane, 3u);
  EXPECT_EQ(split_monitor_name("bias").lane, 1u);
  EXPECT_EQ(split_monitor_name("temperature").lane, 0u);
}

}  // namespace
}  // namespace lr::optics
