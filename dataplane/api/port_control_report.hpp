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

struct PauseReport {
  ServedBy served;
  std::string mode;  ///< rx, tx, both or off
  bool rx = false;
  bool tx = false;
  bool autoneg = false;
};

struct PfcReport {
  ServedBy served;
  std::vector<int> priorities;      ///< with PFC on
  uint32_t capable_tcs = 0;         ///< traffic classes that may have PFC (0: not reported)
  std::vector<uint64_t> requests;   ///< PFC frames sent, per priority
  std::vector<uint64_t> indications;  ///< PFC frames received, per priority
  std::optional<bool> read_back;    ///< a set's: false when the backend cannot read it back
};

/// A port's module EEPROM as port.module answers: its bytes (hex on the wire) and how they
/// were read.
struct ModuleEeprom {
  std::string port;
  std::string backend;  ///< ethdev or kernel
  std::vector<uint8_t> bytes;
};

nlohmann::json to_json(const LinkReport& r);
nlohmann::json to_json(const FecReport& r);
nlohmann::json to_json(const PauseReport& r);
nlohmann::json to_json(const PfcReport& r);
/// Throws nlohmann::json::exception on a field of the wrong type.
LinkReport link_report_from_json(const nlohmann::json& j);
FecReport fec_report_from_json(const nlohmann::json& j);
PauseReport pause_report_from_json(const nlohmann::json& j);
PfcReport pfc_report_from_json(const nlohmann::json& j);
nlohmann::json to_json(const ModuleEeprom& e);
/// Throws nlohmann::json::exception on a field of the wrong type, std::invalid_argument on
/// `eeprom_hex` that is not pairs of hex digits.
ModuleEeprom module_eeprom_from_json(const nlohmann::json& j);

}  // namespace lr::api
