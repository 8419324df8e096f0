#pragma once
// What `linerate optics watch` reads from one port at each interval: the link, the
// module (who it is, its monitors with their thresholds and flags) and the counters under
// their canonical names. Read from a kernel netdev directly (the production case, where no
// data plane owns the NIC) or from a port of a serving data plane. Each part that cannot be
// read is said on the reading: what the driver lacks (`unsupported`, metric absent, not
// zero) apart from what failed this time (`problems`).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lib/host/module/module_identity.hpp"

namespace lr::dp {
class KernelNetdev;
}

namespace lr::ctl {
class PortClient;
}

namespace lr::optics {

/// The module in the cage when the port was read.
struct ModuleReading {
  std::string type;  ///< "QSFP28", "SFP/SFP+/SFP28", ...
  std::string vendor;
  std::string part;
  std::string revision;
  std::string serial;
  std::vector<module::Monitor> monitors;  ///< empty: the module has no diagnostics
  std::string checksum_problem;            ///< "" when the serial ID's checksums hold
};

struct PortReading {
  std::string port;
  std::string source;  ///< "netdev" or "dataplane"
  double time_s = 0;   ///< when the read began, seconds since the Unix epoch
  std::optional<bool> link_up;
  uint64_t speed_bps = 0;                    ///< 0: unknown or down
  std::map<std::string, uint64_t> counters;  ///< canonical name -> cumulative value
  std::optional<ModuleReading> module;
  /// Parts the port cannot give ("module EEPROM", "FEC statistics"), each with why:
  /// the same every interval, said once by the watch.
  std::map<std::string, std::string> unsupported;
  /// What failed in this read ("module: page 03h read failed ..."): said each time.
  std::vector<std::string> problems;
};

/// The module of an EEPROM image, or why it could not be decoded (a module answering
/// garbage, or a read that stopped half way).
struct DecodedReading {
  std::optional<ModuleReading> module;
  std::string problem;
};
DecodedReading module_reading(const std::vector<uint8_t>& eeprom);

/// Reads a kernel netdev: link, `ethtool -S`, FEC statistics and the module EEPROM.
PortReading read_netdev(dp::KernelNetdev& netdev, double now_s);

/// Reads `port` of a serving data plane: port.link, port.counters and port.module. Throws
/// ConnectionError when the data plane is gone (the caller says so for every port).
PortReading read_dataplane_port(ctl::PortClient& client, const std::string& port, double now_s);

}  // namespace lr::optics
