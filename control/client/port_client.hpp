#pragma once
// A port's controls on the data plane as typed calls over the contract: the link, FEC,
// link history and merged counters, read back as api/ types. Optics qualification, the
// exporter and the CLI's port commands read ports through it. Throws RpcCallError or
// ConnectionError, as DataplaneClient does.

#include <string>
#include <vector>

#include "control/client/dataplane_client.hpp"
#include "lib/api/port_control_report.hpp"
#include "lib/api/run_report.hpp"

namespace lr::ctl {

class PortClient {
 public:
  explicit PortClient(DataplaneClient& client) : client_(client) {}

  api::LinkReport link(const std::string& port);
  /// Brings the link up or down (port.link.set {up}); the link read back.
  api::LinkReport set_link_up(const std::string& port, bool up);
  /// The link changes the data plane saw on the port, oldest first (port.link.history).
  std::vector<api::LinkEventReport> link_history(const std::string& port);
  api::FecReport fec(const std::string& port);
  /// Sets the FEC mode (off, baser, rs, llrs, auto); returns it read back.
  api::FecReport set_fec(const std::string& port, const std::string& mode);
  /// Sets PFC on `priorities` (none: off); returns it read back.
  api::PfcReport set_pfc(const std::string& port, const std::vector<unsigned>& priorities);
  /// Sets 802.3x pause (rx, tx, both or off); returns it read back.
  api::PauseReport set_pause(const std::string& port, const std::string& mode);
  /// Every counter from every source, this run and total (port.counters); with `filter`,
  /// those whose name holds it.
  std::vector<api::NicCounter> counters(const std::string& port, const std::string& filter = "");
  /// The module's EEPROM bytes (port.module).
  api::ModuleEeprom module_eeprom(const std::string& port);

 private:
  DataplaneClient& client_;
};

}  // namespace lr::ctl
