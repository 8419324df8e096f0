#pragma once
// A tester port as the two programs agree on it: the device, its queues and lcores, and
// the link, FEC, pause, PFC and steering settings applied at start-up. The profile's
// [[port]] tables become PortSpecs; port.list sends each port's (profile/port_spec_json.hpp
// gives the JSON form), so a client can see how a serving data plane's ports are set.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/api/stream_spec.hpp"
#include "lib/common/port_modes.hpp"

namespace lr::api {

/// The path a port's MAC Control frames take on transmit.
enum class MacControlTx : uint8_t { kAuto, kPmd, kNetdev };

struct PortSpec {
  std::string name;
  std::string device;               ///< PCI address, or a vdev string such as "net_ring0"
  /// A port of a data plane on another host, "ENGINE;PORT" (ENGINE: HOST:PORT it serves TCP
  /// on; PORT: its port's name), in place of `device`: `linerate run` drives that data plane.
  std::string location;
  uint16_t rx_queues = 1;
  uint16_t tx_queues = 1;
  uint16_t rx_descriptors = 1024;
  uint16_t tx_descriptors = 1024;
  uint16_t mtu = 0;                 ///< 0: leave the port's MTU as it is
  bool promiscuous = true;
  bool checksum_offload = true;     ///< let the port compute IPv4/UDP checksums when it can
  uint64_t speed_bps = 0;           ///< 0: use the link speed the port reports
  std::vector<unsigned> rx_lcores;  ///< RX queue q -> rx_lcores[q % size]; empty: automatic
  std::vector<unsigned> tx_lcores;  ///< TX queue q -> tx_lcores[q % size]; empty: automatic
  /// Link speed negotiation at configuration: unset leaves the port's default (autoneg,
  /// every speed); false forces `speed`; true advertises `speed` only (or every speed).
  std::optional<bool> autoneg;
  // Port control applied at start-up (after the port is up), each read back:
  std::optional<FecMode> fec;       ///< none: as the port has it
  std::optional<PauseMode> pause;   ///< 802.3x; none: as the port has it
  std::optional<std::vector<unsigned>> pfc_priorities;  ///< PFC on these priorities ([]: PFC off)
  /// React in software to PFC / PAUSE frames received here: a priority's XOFF holds the
  /// port's TX lanes of that priority (PAUSE: all of them) for the time its quanta ask.
  bool pfc_honour = false;
  /// How its MAC Control streams (PFC, PAUSE) leave: through the PMD, through the port's
  /// kernel netdev (AF_PACKET), or automatically (the PMD unless it is known to drop them).
  MacControlTx mac_control_tx = MacControlTx::kAuto;
  /// Between a frame's arrival and the pause taking effect: as quanta at the port's speed,
  /// or as nanoseconds (one of the two).
  std::optional<uint32_t> pfc_reaction_delay_quanta;
  uint64_t pfc_reaction_delay_ns = 0;
  /// DSCP -> priority, for the streams without a VLAN tag (whose PCP is their priority).
  std::map<uint8_t, uint8_t> dscp_to_priority;
  std::vector<std::string> flow_rules;  ///< rte_flow rules in the flow language (dataplane/port/flow)
  bool flow_isolate = false;        ///< only traffic the rules steer reaches the queues
  bool keep = false;                ///< the settings above stay on the host after exit (else restored)
  SourceLoc loc;
  std::map<std::string, SourceLoc, std::less<>> key_locs;  ///< each key's own place in the file
  SourceLoc loc_of(std::string_view key) const {
    const auto it = key_locs.find(key);
    return it == key_locs.end() ? loc : it->second;
  }

  bool operator==(const PortSpec&) const = default;
};

}  // namespace lr::api
