#pragma once
// A port's controls on the data plane as typed calls over the contract: the link, FEC,
// pause, PFC, link history, settings and merged counters, read back as api/ types. Optics
// qualification, the exporter, the benchmarks and the CLI's port commands read and change
// ports through it. Throws RpcCallError or ConnectionError, as DataplaneClient does.
//
// A method `X_json` returns the data plane's answer as sent, for a front end that prints
// it as-is (--json); `X` reads that same answer into the contract's struct. Each RPC is
// called in one place.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "control/client/dataplane_client.hpp"
#include "lib/api/port_control_report.hpp"
#include "lib/api/run_report.hpp"

namespace lr::ctl {

/// Whether a setting stays after the data plane exits (kYes), or the port's own is put
/// back then (kNo).
enum class Keep : bool { kNo, kYes };

/// What port.link.set changes; each field left empty is left as it is.
struct LinkChange {
  std::optional<bool> up;
  std::optional<bool> autoneg;
  std::string speed;                   ///< "50G"; "": unchanged
  std::vector<std::string> advertise;  ///< link modes; empty: unchanged
  Keep keep = Keep::kNo;
  bool empty() const noexcept { return !up && !autoneg && speed.empty() && advertise.empty(); }
};

/// What port.config.set changes; each field left empty is left as it is.
struct PortConfigChange {
  std::optional<bool> promiscuous;
  std::optional<int> mtu;                         ///< bytes, 68-9600
  std::string state;                              ///< started or stopped; "": unchanged
  std::string pfc_reaction_delay;                 ///< a duration ("20us"); "": unchanged
  std::optional<uint32_t> pfc_reaction_delay_quanta;  ///< 0-65535
  Keep keep = Keep::kNo;
};

class PortClient {
 public:
  explicit PortClient(DataplaneClient& client) : client_(client) {}

  api::LinkReport link(const std::string& port);
  nlohmann::json link_json(const std::string& port);
  /// Brings the link up or down (port.link.set {up}); the link read back.
  api::LinkReport set_link_up(const std::string& port, bool up);
  /// Changes the link (port.link.set); the link read back, as sent.
  nlohmann::json set_link_json(const std::string& port, const LinkChange& change);
  /// The link changes the data plane saw on the port, oldest first (port.link.history).
  std::vector<api::LinkEventReport> link_history(const std::string& port);
  nlohmann::json link_history_json(const std::string& port);

  api::FecReport fec(const std::string& port);
  nlohmann::json fec_json(const std::string& port);
  /// Sets the FEC mode (off, baser, rs, llrs, auto); returns it read back.
  api::FecReport set_fec(const std::string& port, const std::string& mode, Keep keep = Keep::kNo);
  nlohmann::json set_fec_json(const std::string& port, const std::string& mode, Keep keep = Keep::kNo);

  nlohmann::json pause_json(const std::string& port);
  /// Sets 802.3x pause (rx, tx, both or off); returns it read back.
  api::PauseReport set_pause(const std::string& port, const std::string& mode, Keep keep = Keep::kNo);
  nlohmann::json set_pause_json(const std::string& port, const std::string& mode, Keep keep = Keep::kNo);

  nlohmann::json pfc_json(const std::string& port);
  /// Sets PFC on `priorities` (none: off); returns it read back.
  api::PfcReport set_pfc(const std::string& port, const std::vector<unsigned>& priorities, Keep keep = Keep::kNo);
  nlohmann::json set_pfc_json(const std::string& port, const std::vector<unsigned>& priorities, Keep keep = Keep::kNo);

  /// The host settings linerate changed on the port: before, now, restore (port.settings);
  /// its `settings_changed` items read with api::setting_change_from_json.
  nlohmann::json settings_json(const std::string& port);
  /// Puts back what the port had before linerate changed it (port.settings.restore).
  nlohmann::json restore_settings_json(const std::string& port);
  /// Changes the port's settings (port.config.set); with no change, the port as it now is.
  /// The port, as port.list lists it, as sent.
  nlohmann::json set_config_json(const std::string& port, const PortConfigChange& change);

  /// Every counter from every source, this run and total (port.counters); with `filter`,
  /// those whose name holds it.
  std::vector<api::NicCounter> counters(const std::string& port, const std::string& filter = "");
  api::PortCounterView counter_view(const std::string& port, const std::string& filter = "");
  nlohmann::json counter_view_json(const std::string& port, const std::string& filter = "");
  /// The module's EEPROM bytes (port.module).
  api::ModuleEeprom module_eeprom(const std::string& port);

 private:
  DataplaneClient& client_;
};

}  // namespace lr::ctl
