#pragma once
// What a port's controls answer (port.link, port.fec, port.pause, port.pfc and their
// sets): each as the port reads it back, with the backend that served it (ethdev, or the
// kernel netdev). Built by the data plane, read back by the CLI.

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lr::api {

// Each report's JSON form is declared after it; X_from_json throws nlohmann::json::exception
// on a field of the wrong type.

/// Who answered, for every control: the port, its backend, its kernel netdev ("": none).
struct ServedBy {
  std::string port;
  std::string backend;  ///< ethdev or kernel
  std::string netdev;
};

struct LinkReport {
  ServedBy served;
  bool up = false;
  uint32_t speed_mbps = 0;
  bool full_duplex = true;
  bool autoneg = false;
  std::vector<std::string> supported;   ///< link modes ("50000baseCR/Full")
  std::vector<std::string> advertised;
  std::vector<std::string> partner;
};
nlohmann::json to_json(const LinkReport& r);
LinkReport link_report_from_json(const nlohmann::json& j);

struct FecCapabilityReport {
  uint32_t speed_mbps = 0;  ///< 0: any speed
  std::vector<std::string> modes;
};

struct FecReport {
  ServedBy served;
  std::vector<std::string> configured;
  std::optional<std::string> active;  ///< none: link down or not reported
  std::vector<FecCapabilityReport> capability;
};
nlohmann::json to_json(const FecReport& r);
FecReport fec_report_from_json(const nlohmann::json& j);

struct PauseReport {
  ServedBy served;
  std::string mode;  ///< rx, tx, both or off
  bool rx = false;
  bool tx = false;
  bool autoneg = false;
};
nlohmann::json to_json(const PauseReport& r);
PauseReport pause_report_from_json(const nlohmann::json& j);

struct PfcReport {
  ServedBy served;
  std::vector<int> priorities;      ///< with PFC on
  uint32_t capable_tcs = 0;         ///< traffic classes that may have PFC (0: not reported)
  std::vector<uint64_t> requests;   ///< PFC frames sent, per priority
  std::vector<uint64_t> indications;  ///< PFC frames received, per priority
  std::optional<bool> read_back;    ///< a set's: false when the backend cannot read it back
};
nlohmann::json to_json(const PfcReport& r);
PfcReport pfc_report_from_json(const nlohmann::json& j);

/// A port's module EEPROM as port.module answers: its bytes (hex on the wire) and how they
/// were read.
struct ModuleEeprom {
  std::string port;
  std::string backend;  ///< ethdev or kernel
  std::vector<uint8_t> bytes;
};
nlohmann::json to_json(const ModuleEeprom& e);
/// Also throws std::invalid_argument on `eeprom_hex` that is not pairs of hex digits.
ModuleEeprom module_eeprom_from_json(const nlohmann::json& j);

}  // namespace lr::api
