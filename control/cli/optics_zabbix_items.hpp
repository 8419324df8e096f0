#pragma once
// `linerate optics zabbix`'s answers, pure: the state file `linerate optics watch` writes
// (DIR/watch.json) and the time now become a Zabbix low-level discovery list or one item's
// value, or why there is none. A value the port does not have is never answered as 0: the
// answer is its absence, saying where and why, which the Zabbix template turns into an
// unsupported item with that reason (docker/zabbix/linerate-optics-template.yaml).

#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "control/cli/watch_state_file.hpp"

namespace lr::ctl {

enum class Discovery : uint8_t {
  kPorts,  ///< [{"{#PORT}": "eth2"}, ...]: every port of the state file
  kLanes,  ///< [{"{#PORT}": "eth2", "{#LANE}": "1"}, ...]: every lane with a monitor
};
/// Zabbix low-level discovery JSON (an array of objects of LLD macros).
std::string discovery_json(const WatchState& state, Discovery what);

enum class ItemScope : uint8_t { kPort, kLane };
enum class ZabbixValueType : uint8_t { kUnsigned, kFloat, kChar };  ///< the template's value_type
const char* value_type_name(ZabbixValueType type) noexcept;          ///< "UNSIGNED", "FLOAT", "CHAR"

/// An answer: the text Zabbix reads, or why there is none, saying where.
using ZabbixAnswer = std::expected<std::string, std::string>;

/// An item `linerate optics zabbix get PORT ITEM [LANE]` answers: a registry, so that
/// `linerate optics zabbix items` lists them with what the template needs to know.
struct ZabbixItem {
  std::string_view name;  ///< "lane.rx_power_margin_db"
  ItemScope scope;        ///< kLane: it takes a LANE
  ZabbixValueType value_type;
  std::string_view units;  ///< as Zabbix's item units ("bps", "dBm", "" for none)
  std::string_view help;
  /// Its value from a port read at the last interval (`lane` 0 for an item of the port).
  ZabbixAnswer (*value)(const WatchedPort& port, unsigned lane);
};
std::span<const ZabbixItem> zabbix_items();

/// The text Zabbix reads for `item` of `port` (`lane` "" for an item of the port, a lane
/// number for one of a lane), or why there is none, saying where:
/// "eth2: no FEC corrected rate (the driver lacks FEC statistics: ...)". Optical power in dBm
/// is rounded to 0.01 dB, and a reading of 0 mW is answered as -40 dBm, the monitors'
/// resolution (0.1 uW), so that a dark lane still crosses its thresholds.
ZabbixAnswer zabbix_item_value(const WatchState& state, std::string_view port, std::string_view item,
                               std::string_view lane);

/// What a command line asks: a discovery, or an item's value.
struct ZabbixQuery {
  std::optional<Discovery> discover;  ///< set: a discovery; unset: `get`
  std::string port, item, lane;
};

/// The whole answer from the state file's text (`state_path` names it in what is said):
/// parsed, judged fresh at `now_s`, then the query answered.
ZabbixAnswer zabbix_answer(const std::string& state_path, std::string_view state_text, double now_s,
                           const ZabbixQuery& query);

}  // namespace lr::ctl
