#pragma once
// A watched port's status as JSON: a line of its history (control/suites/optics/
// optics_history.hpp) and an entry of the watch's state file, which `linerate optics zabbix`
// answers Zabbix's items from. The format is listed in docs/guide/optics-watch.md.

#include <nlohmann/json.hpp>

#include "control/suites/optics/port_watch.hpp"

namespace lr::optics {

/// {"port", "source", "time", "current", "link": {...}, "module": {...} | null, "fec": {...},
///  "symbol_errors", "unsupported": {...}, "problems": [...]}: keys whose value the port cannot
/// give are left out, never zero. A read that did not arrive: {"port", "source", "time",
/// "current": false, "missed": why}.
nlohmann::json port_status_json(const PortStatus& status);

}  // namespace lr::optics
