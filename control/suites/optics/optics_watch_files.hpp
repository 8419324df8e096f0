#pragma once
// Where `linerate optics watch` keeps what it writes, shared by the watch and by the
// commands that read it (`optics history`, `optics zabbix`): DIR/watch.json (the last
// interval, whole) and DIR/history/ (each port's ring).

namespace lr::optics {

inline constexpr const char* kOpticsWatchDir = "/var/lib/linerate/optics";  ///< `optics watch --dir`'s default
inline constexpr const char* kWatchStateName = "watch.json";                ///< the state file in that folder
inline constexpr const char* kHistoryFolder = "history";                    ///< the rings, in that folder

}  // namespace lr::optics
