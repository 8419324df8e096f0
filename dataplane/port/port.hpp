#pragma once
// Port bring-up and counters over ethdev. Thread: mgmt (main lcore) only.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lib/api/run_report.hpp"
#include "lib/common/result.hpp"
#include "lib/host/port_settings.hpp"
#include "lib/profile/profile.hpp"

struct rte_mempool;

namespace lr::dp {

struct PortInfo {
  uint16_t port_id = 0;
  std::string driver;
  int socket = -1;          ///< NUMA socket, -1 for none (vdevs)
  uint16_t max_rx_queues = 0;
  uint16_t max_tx_queues = 0;
  uint64_t rss_offloads = 0;
  uint64_t tx_offload_capa = 0;
};

/// What configure_port settled on.
struct PortSetup {
  bool tx_checksum_offload = false;  ///< the port computes IPv4 and UDP checksums
  std::string warning;               ///< e.g. no RSS for several RX queues
};

using api::PortCounters;  ///< what the port itself counted (rte_eth_stats)

/// Finds the ethdev port EAL made for `cfg.device`. Errors: kNoDevice.
Result<PortInfo> find_port(const api::PortSpec& cfg);

/// Descriptors of the emulated hosts' TX queue, at most (the lanes' count when smaller).
inline constexpr uint16_t kHostTxDescriptors = 256;

/// Configures queues (RSS across RX queues when there are several), TX checksum
/// offload (when the port has it and the profile allows it), MTU and promiscuous mode,
/// and starts the port. Errors: kInvalid, kNotSupported, kNoMemory.
/// `host_tx_queues`: queues after the lanes' (cfg.tx_queues) for the emulated hosts (0 or 1),
/// of at most kHostTxDescriptors descriptors.
Result<PortSetup> configure_port(const PortInfo& info, const api::PortSpec& cfg, rte_mempool* rx_pool,
                                 uint16_t host_tx_queues = 0);

/// The ethdev link_speeds bits: 0 (autoneg, every speed) when `autoneg` is unset or true
/// without a speed; the speed alone when advertised; FIXED | the speed when forced.
/// Errors: kInvalid for a speed ethdev has no bit for.
Result<uint32_t> link_speeds_bits(std::optional<bool> autoneg, uint32_t speed_mbps);

/// Reconfigures a configured port with new link_speeds (stopped, configured with the same
/// queues and offloads, started). The port's queues stay set up. Errors: kInvalid,
/// kNotSupported with the driver's refusal.
Result<void> reconfigure_link_speeds(const PortInfo& info, const api::PortSpec& cfg, bool tx_checksum_offload,
                                     uint32_t link_speeds, uint16_t host_tx_queues = 0);

/// Sets the link up or down through ethdev. Errors: kNotSupported ("link up is not
/// supported by net_null on port 0 ('p0')"), kInvalid with the PMD's errno.
Result<void> set_ethdev_link(const PortInfo& info, const std::string& port_name, bool up);

/// The ethdev's link now, without waiting: up, speed (0 when unknown), duplex, autoneg.
/// Errors: kNoDevice.
Result<LinkStatus> read_ethdev_link(uint16_t port_id);

/// Link state, waiting up to `wait_ms` for the link to come up.
LinkStatus wait_link(uint16_t port_id, uint32_t wait_ms);

Result<PortCounters> read_port_counters(uint16_t port_id);

/// The port's extended statistics, name and value, in the driver's order.
/// Errors: kNotSupported.
Result<std::vector<std::pair<std::string, uint64_t>>> read_xstats(uint16_t port_id);


}  // namespace lr::dp
