#pragma once
// What port control reads and sets, whichever backend (DPDK ethdev or the kernel netdev)
// serves it: link, FEC, 802.3x pause, PFC, and named counters with their source.

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <string>
#include <vector>

#include "lib/common/port_modes.hpp"

namespace lr::dp {

/// Who served a port-control operation.
enum class Backend : uint8_t { kEthdev, kKernel };
inline const char* backend_name(Backend b) { return b == Backend::kEthdev ? "ethdev" : "kernel"; }

struct LinkStatus {
  bool up = false;
  uint32_t speed_mbps = 0;   ///< 0: unknown
  bool full_duplex = true;
  bool autoneg = false;
  std::vector<std::string> supported;   ///< link modes ("50000baseKR2/Full"), kernel only
  std::vector<std::string> advertised;
  std::vector<std::string> partner;     ///< what the link partner advertised (autoneg), kernel only
};

/// A link change; unset fields stay as they are.
struct LinkRequest {
  std::optional<bool> up;
  std::optional<bool> autoneg;
  std::optional<uint32_t> speed_mbps;                 ///< fixed speed (autoneg off) or the one to advertise
  std::optional<std::vector<std::string>> advertise;  ///< exact link modes, e.g. {"50000baseKR/Full"}
};

/// FEC modes as a bit set, bit n for lr::FecMode n (lib/common/port_modes.hpp: its names).
constexpr uint32_t fec_bit(FecMode mode) noexcept { return uint32_t{1} << static_cast<unsigned>(mode); }
enum FecBits : uint32_t {
  kFecOff = fec_bit(FecMode::kOff),
  kFecBaseR = fec_bit(FecMode::kBaseR),
  kFecRs = fec_bit(FecMode::kRs),
  kFecLlrs = fec_bit(FecMode::kLlrs),
  kFecAuto = fec_bit(FecMode::kAuto),
};
std::string fec_names(uint32_t modes);                       ///< "rs|baser", "" for none
std::optional<uint32_t> parse_fec_mode(const std::string& name);  ///< one mode's bit

/// A backend's FEC bits <-> FecMode bits: pairs (theirs, ours), translated both ways.
using FecBitMap = std::span<const std::pair<uint32_t, uint32_t>>;
uint32_t fec_from_backend(uint32_t theirs, FecBitMap map);
uint32_t fec_to_backend(uint32_t ours, FecBitMap map);

struct FecCapability {
  uint32_t speed_mbps = 0;  ///< 0: any speed (the kernel reports one set per port)
  uint32_t modes = 0;
};

struct FecStatus {
  uint32_t configured = 0;  ///< what was asked (may be auto)
  uint32_t active = 0;      ///< what the link runs now; 0 when the link is down or not reported
  std::vector<FecCapability> capability;
};

struct PauseStatus {
  bool rx = false;
  bool tx = false;
  bool autoneg = false;
};

struct PfcStatus {
  uint8_t enabled = 0;      ///< bit p: PFC on priority p
  uint8_t capable = 0;      ///< how many traffic classes may have PFC on (0: not reported)
  std::vector<uint64_t> requests;     ///< per priority: PFC frames sent (kernel DCB), else empty
  std::vector<uint64_t> indications;  ///< per priority: PFC frames received
  /// DSCP -> priority entries of the DCB APP table (mlx5 "trust dscp" fills it; empty: the
  /// port classifies by PCP). Kernel DCB only.
  std::vector<std::pair<uint8_t, uint8_t>> dscp_priority;
};

/// Settings as a report says them: "rx", "both", "off"; "3,4", "off"; "autoneg on,
/// advertising 50000baseCR/Full" or "autoneg off, 50000 Mb/s".
std::string pause_text(const PauseStatus& pause);
std::string pfc_text(uint8_t enabled);
std::string link_settings_text(const LinkStatus& link);

/// One counter in the merged view: "source/name" is unique per port.
struct NamedCounter {
  std::string name;
  std::string source;  ///< "ethdev", "xstats", "ethtool", "fec"
  uint64_t value = 0;
};

}  // namespace lr::dp
