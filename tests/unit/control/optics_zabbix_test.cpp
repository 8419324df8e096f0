// `linerate optics zabbix`'s answers from a state file of `linerate optics watch`: every item
// of a fully read port, against values worked out by hand from the fixture (dBm from mW with
// a calculator, not the code's own conversion); every absent value answered as its absence,
// where and why, never as 0; a state file older than three intervals, and one that is not a
// state file, refused naming the file.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "control/cli/optics_zabbix_items.hpp"

namespace lr::ctl {
namespace {

constexpr double kWritten = 1765100000.5;
constexpr const char* kPath = "/var/lib/linerate/optics/watch.json";

// eth2: read, with a QSFP28 of four lanes (lane 2 near its low warning, flags raised), FEC;
// eth3: a driver without FEC statistics and a cage without module; eth4: its read missed;
// eth5: link down, a module with no diagnostics; eth6: a module without thresholds, a dark lane.
const std::string kState = R"({"time": 1765100000.5, "interval_s": 10, "ports": [
 {"port": "eth2", "current": true, "source": "netdev", "time": 1765100000.2,
  "link": {"up": true, "speed_bps": 100000000000, "flaps": 2, "last_change": 1765000000.0},
  "module": {"type": "QSFP28", "vendor": "ACME OPTICS", "part": "QSFP28-SR4", "revision": "A0", "serial": "QSN42",
   "changes": 1, "monitors": [
    {"quantity": "temperature", "value": 35.5, "unit": "C", "alarm_flag": false, "warning_flag": false, "beyond": ""},
    {"quantity": "voltage", "value": 3.29, "unit": "V", "alarm_flag": false, "warning_flag": false, "beyond": ""},
    {"quantity": "bias", "lane": 1, "value": 6.5, "unit": "mA", "alarm_flag": false, "warning_flag": false},
    {"quantity": "bias", "lane": 2, "value": 6.25, "unit": "mA", "alarm_flag": false, "warning_flag": false},
    {"quantity": "tx_power", "lane": 1, "value": 0.55, "unit": "mW", "dbm": -2.6, "alarm_flag": false,
     "warning_flag": false},
    {"quantity": "tx_power", "lane": 2, "value": 0.5, "unit": "mW", "dbm": -3.0, "alarm_flag": true,
     "warning_flag": false},
    {"quantity": "rx_power", "lane": 1, "value": 0.6, "unit": "mW", "dbm": -2.2, "alarm_flag": false,
     "warning_flag": false, "beyond": ""},
    {"quantity": "rx_power", "lane": 2, "value": 0.05, "unit": "mW", "dbm": -13.0, "alarm_flag": false,
     "warning_flag": true, "beyond": "low warning"}],
   "thresholds": {"rx_power": {"unit": "mW", "high_alarm": 3.4674, "high_warning": 1.7378, "low_warning": 0.0708,
                               "low_alarm": 0.0355}}},
  "fec": {"corrected_codewords": 123, "uncorrectable_codewords": 7, "corrected_bits": 456,
          "corrected_per_second": 12.3, "uncorrectable_per_second": 0, "pre_fec_ber": 1e-9,
          "pre_fec_ber_method": "corrected_bits"},
  "symbol_errors": 0, "unsupported": {}, "problems": []},
 {"port": "eth3", "current": true, "source": "netdev", "time": 1765100000.2, "link": {"up": true,
  "speed_bps": 25000000000, "flaps": 0}, "module": null, "fec": {},
  "unsupported": {"FEC statistics": "ethtool --show-fec: Operation not supported"},
  "problems": ["module EEPROM: read failed: No such device"]},
 {"port": "eth4", "current": false, "missed": "did not finish within 5 s"},
 {"port": "eth5", "current": true, "source": "dataplane", "time": 1765100000.2, "link": {"up": false, "flaps": 0},
  "module": {"type": "SFP", "vendor": "OLD", "part": "SFP-LR", "revision": "", "serial": "", "changes": 0,
             "monitors": [], "thresholds": {}},
  "fec": {"corrected_codewords": 5}, "unsupported": {}, "problems": []},
 {"port": "eth6", "current": true, "source": "netdev", "time": 1765100000.2, "link": {"up": true,
  "speed_bps": 10000000000, "flaps": 0},
  "module": {"type": "SFP", "vendor": "ACME", "part": "SFP-SR", "revision": "", "serial": "S1", "changes": 0,
             "monitors": [{"quantity": "rx_power", "lane": 1, "value": 0, "unit": "mW", "alarm_flag": true,
                           "warning_flag": true}], "thresholds": {}},
  "fec": {}, "unsupported": {}, "problems": []}]})";

ZabbixAnswer get(std::string port, std::string item, std::string lane = "", const std::string& state = kState,
                 double now_s = kWritten + 1) {
  return zabbix_answer(kPath, state, now_s,
                       ZabbixQuery{.discover = std::nullopt, .port = port, .item = item, .lane = lane});
}

std::string error_of(const ZabbixAnswer& answer) { return answer ? "answered '" + *answer + "'" : answer.error(); }

TEST(OpticsZabbix, EveryItemOfAFullyReadPort) {
  const struct {
    const char* item;
    const char* lane;
    const char* value;
  } expected[] = {
      {"port.current", "", "1"},
      {"link.up", "", "1"},
      {"link.flaps", "", "2"},
      {"link.speed", "", "100000000000"},
      {"fec.corrected_per_second", "", "12.3"},
      {"fec.uncorrectable_total", "", "7"},
      {"fec.pre_fec_ber", "", "1e-09"},
      {"module.serial", "", "QSN42"},
      {"module.temperature", "", "35.5"},
      {"module.voltage", "", "3.29"},
      {"module.alarm_flags", "", "1"},    // tx_power lane 2
      {"module.warning_flags", "", "1"},  // rx_power lane 2
      {"module.changes", "", "1"},
      {"lane.rx_power_dbm", "1", "-2.22"},          // 10 log10(0.6) = -2.2185
      {"lane.rx_power_dbm", "2", "-13.01"},         // 10 log10(0.05) = -13.0103
      {"lane.tx_power_dbm", "1", "-2.6"},           // 10 log10(0.55) = -2.5964
      {"lane.tx_power_dbm", "2", "-3.01"},          // 10 log10(0.5) = -3.0103
      {"lane.bias_ma", "1", "6.5"},
      {"lane.bias_ma", "2", "6.25"},
      {"lane.rx_power_margin_db", "1", "9.28"},     // -2.2185 - 10 log10(0.0708) = -2.2185 + 11.4997
      {"lane.rx_power_margin_db", "2", "-1.51"},    // -13.0103 + 11.4997
  };
  for (const auto& e : expected) {
    const ZabbixAnswer answer = get("eth2", e.item, e.lane);
    ASSERT_TRUE(answer.has_value()) << e.item << " " << e.lane << ": " << answer.error();
    EXPECT_EQ(*answer, e.value) << e.item << " " << e.lane;
  }
}

TEST(OpticsZabbix, EveryItemIsInTheFixtureTest) {
  // A new item needs its line above: the registry and the test list the same names.
  std::set<std::string> tested{"port.current",
                               "link.up",
                               "link.flaps",
                               "link.speed",
                               "fec.corrected_per_second",
                               "fec.uncorrectable_total",
                               "fec.pre_fec_ber",
                               "module.serial",
                               "module.temperature",
                               "module.voltage",
                               "module.alarm_flags",
                               "module.warning_flags",
                               "module.changes",
                               "lane.rx_power_dbm",
                               "lane.tx_power_dbm",
                               "lane.bias_ma",
                               "lane.rx_power_margin_db"};
  std::set<std::string> registered;
  for (const ZabbixItem& item : zabbix_items()) registered.emplace(item.name);
  EXPECT_EQ(registered, tested);
}

TEST(OpticsZabbix, DiscoversEveryPort) {
  const ZabbixAnswer answer = zabbix_answer(
      kPath, kState, kWritten, ZabbixQuery{.discover = Discovery::kPorts, .port = {}, .item = {}, .lane = {}});
  ASSERT_TRUE(answer.has_value()) << answer.error();
  EXPECT_EQ(*answer, R"([{"{#PORT}":"eth2"},{"{#PORT}":"eth3"},{"{#PORT}":"eth4"},{"{#PORT}":"eth5"},)"
                     R"({"{#PORT}":"eth6"}])");
}

TEST(OpticsZabbix, DiscoversEveryLaneWithAMonitor) {
  const ZabbixAnswer answer = zabbix_answer(
      kPath, kState, kWritten, ZabbixQuery{.discover = Discovery::kLanes, .port = {}, .item = {}, .lane = {}});
  ASSERT_TRUE(answer.has_value()) << answer.error();
  EXPECT_EQ(*answer, R"([{"{#LANE}":"1","{#PORT}":"eth2"},{"{#LANE}":"2","{#PORT}":"eth2"},)"
                     R"({"{#LANE}":"1","{#PORT}":"eth6"}])");
}

TEST(OpticsZabbix, ADriverWithoutFecStatisticsGivesNoFecValues) {
  EXPECT_EQ(error_of(get("eth3", "fec.corrected_per_second")),
            "eth3: no FEC corrected rate (the driver lacks FEC statistics: ethtool --show-fec: Operation not "
            "supported)");
  EXPECT_EQ(error_of(get("eth3", "fec.uncorrectable_total")),
            "eth3: no FEC uncorrectable count (the driver lacks FEC statistics: ethtool --show-fec: Operation not "
            "supported)");
  EXPECT_EQ(error_of(get("eth3", "fec.pre_fec_ber")),
            "eth3: no pre-FEC BER (the driver lacks FEC statistics: ethtool --show-fec: Operation not supported)");
}

TEST(OpticsZabbix, AModuleNotReadGivesNoModuleValuesSayingWhy) {
  for (const char* item : {"module.serial", "module.temperature", "module.alarm_flags", "module.changes"})
    EXPECT_EQ(error_of(get("eth3", item)),
              "eth3: no module read (its last read failed: module EEPROM: read failed: No such device)")
        << item;
  EXPECT_EQ(error_of(get("eth3", "lane.rx_power_dbm", "1")),
            "eth3: no module read (its last read failed: module EEPROM: read failed: No such device)");
}

TEST(OpticsZabbix, AModuleWithoutDiagnosticsGivesNoMonitorsOrFlags) {
  EXPECT_EQ(error_of(get("eth5", "module.temperature")),
            "eth5: no temperature (the module (OLD SFP-LR) has no diagnostics)");
  EXPECT_EQ(error_of(get("eth5", "module.alarm_flags")),
            "eth5: no alarm flags (the module (OLD SFP-LR) has no diagnostics)");
  EXPECT_EQ(error_of(get("eth5", "module.serial")),
            "eth5: no module serial number (the module (OLD SFP-LR) gives none)");
  EXPECT_EQ(error_of(get("eth5", "lane.bias_ma", "1")),
            "eth5: no lane 1 (the module (OLD SFP-LR) monitors lanes: none)");
}

TEST(OpticsZabbix, ALinkDownHasNoSpeedAndARateNeedsTwoReadings) {
  EXPECT_EQ(*get("eth5", "link.up"), "0");
  EXPECT_EQ(error_of(get("eth5", "link.speed")), "eth5: no link speed (the link is down)");
  EXPECT_EQ(error_of(get("eth5", "fec.corrected_per_second")),
            "eth5: no FEC corrected rate (none yet: a rate needs the previous interval's reading too)");
  EXPECT_EQ(error_of(get("eth5", "fec.uncorrectable_total")),
            "eth5: no FEC uncorrectable count (the driver counts no uncorrectable FEC codewords)");
}

TEST(OpticsZabbix, APortNotReadAtTheLastIntervalAnswersOnlyThat) {
  EXPECT_EQ(*get("eth4", "port.current"), "0");
  for (const char* item : {"link.up", "link.flaps", "module.serial", "fec.uncorrectable_total"})
    EXPECT_EQ(error_of(get("eth4", item)), "eth4: not read at the last interval (did not finish within 5 s)") << item;
}

TEST(OpticsZabbix, ADarkLaneIsAtTheMonitorsFloorAndBelowItsThresholds) {
  EXPECT_EQ(*get("eth6", "lane.rx_power_dbm", "1"), "-40");
  EXPECT_EQ(*get("eth6", "module.alarm_flags"), "1");
  EXPECT_EQ(error_of(get("eth6", "lane.rx_power_margin_db", "1")),
            "eth6 lane 1: no rx power margin (the module (ACME SFP-SR) sets no rx_power thresholds)");
  EXPECT_EQ(error_of(get("eth6", "lane.tx_power_dbm", "1")),
            "eth6 lane 1: no tx_power (the module (ACME SFP-SR) has no tx_power monitor on it)");
}

TEST(OpticsZabbix, ADarkPortCountsOnlyTheModulesOwnFlagsAndHasNoMargin) {
  // eth2's module on a link that is down: its lanes' flags and margin stand down, as the
  // Prometheus alerts do; the module's own temperature flag still counts.
  std::string down = kState;
  const auto swap_first = [&down](const std::string& from, const std::string& to) {
    down.replace(down.find(from), from.size(), to);
  };
  swap_first(R"("link": {"up": true, "speed_bps": 100000000000,)", R"("link": {"up": false,)");
  swap_first(R"("unit": "C", "alarm_flag": false)", R"("unit": "C", "alarm_flag": true)");
  EXPECT_EQ(*get("eth2", "link.up", "", down), "0");
  EXPECT_EQ(*get("eth2", "module.alarm_flags", "", down), "1");    // temperature, not tx_power lane 2
  EXPECT_EQ(*get("eth2", "module.warning_flags", "", down), "0");  // rx_power lane 2 stands down
  EXPECT_EQ(error_of(get("eth2", "lane.rx_power_margin_db", "2", down)),
            "eth2 lane 2: no rx power margin (the link is down)");
  EXPECT_EQ(*get("eth2", "module.alarm_flags"), "1");  // up: tx_power lane 2 counts
}

TEST(OpticsZabbix, UnknownPortsItemsAndLanesAreSaid) {
  EXPECT_EQ(error_of(get("eth9", "link.up")),
            "eth9: not a port of the watch (its ports: eth2, eth3, eth4, eth5, eth6)");
  EXPECT_EQ(error_of(get("eth2", "link.upp")), "eth2: no item 'link.upp' (did you mean 'link.up'?)");
  EXPECT_EQ(error_of(get("eth2", "lane.rx_power_dbm", "5")),
            "eth2: no lane 5 (the module (ACME OPTICS QSFP28-SR4) monitors lanes: 1-2)");
  EXPECT_EQ(
      error_of(get("eth2", "lane.rx_power_dbm")),
      "eth2: lane.rx_power_dbm is an item of a lane: give its LANE (linerate.optics.get[eth2,lane.rx_power_dbm,1])");
  EXPECT_EQ(error_of(get("eth2", "lane.rx_power_dbm", "x")), "eth2: 'x' is not a lane number (1, 2, ...)");
  EXPECT_EQ(error_of(get("eth2", "link.up", "1")), "eth2: link.up is an item of the port: it takes no lane ('1')");
  EXPECT_EQ(error_of(get("", "link.up")), "no port given");
}

TEST(OpticsZabbix, AStateFileOlderThanThreeIntervalsAnswersNothing) {
  EXPECT_EQ(*get("eth2", "link.up", "", kState, kWritten + 30), "1");
  EXPECT_EQ(error_of(get("eth2", "link.up", "", kState, kWritten + 45)),
            "/var/lib/linerate/optics/watch.json: stale: written 45 s ago, more than 3 intervals of 10 s "
            "(`linerate optics watch` is not running, or not with this --dir)");
  EXPECT_FALSE(zabbix_answer(kPath, kState, kWritten + 45,
                             ZabbixQuery{.discover = Discovery::kPorts, .port = {}, .item = {}, .lane = {}})
                   .has_value());
}

TEST(OpticsZabbix, AFileThatIsNotAStateFileIsRefusedNamingIt) {
  EXPECT_EQ(error_of(get("eth2", "link.up", "", "{\"time\": 1765100000.5, \"interval_s\": 10, \"ports\": [")),
            "/var/lib/linerate/optics/watch.json: not a state file of `linerate optics watch`: not JSON: "
            "[json.exception.parse_error.101] parse error at line 1, column 52: syntax error while parsing value - "
            "unexpected end of input; expected '[', '{', or a literal");
  EXPECT_EQ(error_of(get("eth2", "link.up", "", "")).substr(0, 95),
            "/var/lib/linerate/optics/watch.json: not a state file of `linerate optics watch`: not JSON: [js");
  EXPECT_EQ(error_of(get("eth2", "link.up", "", R"({"time": 1765100000.5, "ports": []})")),
            "/var/lib/linerate/optics/watch.json: not a state file of `linerate optics watch`: interval_s: missing");
  EXPECT_EQ(error_of(get("eth2", "link.up", "",
                         R"({"time": 1765100000.5, "interval_s": 10, "ports": [{"port": "eth2", "current": true,
                             "link": {"flaps": -1}}]})")),
            "/var/lib/linerate/optics/watch.json: not a state file of `linerate optics watch`: "
            "ports[0].link.flaps: not a count (-1)");
  EXPECT_EQ(error_of(get("eth2", "link.up", "", R"([1, 2])")),
            "/var/lib/linerate/optics/watch.json: not a state file of `linerate optics watch`: its top level: not an "
            "object ([1,2])");
}

}  // namespace
}  // namespace lr::ctl
