#include "dataplane/port/port.hpp"

#include <fmt/format.h>
#include <rte_ethdev.h>
#include <rte_flow.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "dataplane/eal/eal_args.hpp"
#include "dataplane/port/cable.hpp"

namespace lr::dp {

Result<PortInfo> find_port(const api::PortSpec& cfg) {
  const auto cable = profile::cable_name(cfg.device);
  const std::string name = cable ? cable_ethdev_name(cfg.name) : device_port_name(cfg.device);
  uint16_t port_id = 0;
  if (rte_eth_dev_get_port_by_name(name.c_str(), &port_id) != 0)
    return make_error(Errc::kNoDevice,
                      fmt::format("port '{}': no ethdev port for device '{}' (is the PCI device bound to a DPDK "
                                  "driver, or the vdev name right?)",
                                  cfg.name, cfg.device));
  rte_eth_dev_info dev_info{};
  if (int rc = rte_eth_dev_info_get(port_id, &dev_info); rc != 0)
    return make_error(Errc::kNoDevice, fmt::format("port '{}': rte_eth_dev_info_get", cfg.name), -rc);
  PortInfo info;
  info.port_id = port_id;
  info.driver = dev_info.driver_name != nullptr ? dev_info.driver_name : "unknown";
  info.socket = rte_eth_dev_socket_id(port_id);
  info.max_rx_queues = dev_info.max_rx_queues;
  info.max_tx_queues = dev_info.max_tx_queues;
  info.rss_offloads = dev_info.flow_type_rss_offloads;
  info.tx_offload_capa = dev_info.tx_offload_capa;
  return info;
}

namespace {

// The rte_eth_conf configure_port uses, so that a reconfiguration keeps it.
rte_eth_conf port_conf(const PortInfo& info, const api::PortSpec& cfg, bool tx_checksum_offload, PortSetup* setup) {
  rte_eth_conf conf{};
  if (cfg.rx_queues > 1) {
    const uint64_t rss_hf = (RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP) & info.rss_offloads;
    if (rss_hf != 0) {
      conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
      conf.rx_adv_conf.rss_conf.rss_hf = rss_hf;
    } else if (setup != nullptr) {
      setup->warning = fmt::format("port '{}' ({}) has no RSS: each RX queue gets what the device puts there", cfg.name,
                                   info.driver);
    }
  }
  if (tx_checksum_offload) conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
  return conf;
}

}  // namespace

Result<uint32_t> link_speeds_bits(std::optional<bool> autoneg, uint32_t speed_mbps) {
  if (!autoneg || (*autoneg && speed_mbps == 0)) return RTE_ETH_LINK_SPEED_AUTONEG;
  const uint32_t bit = rte_eth_speed_bitflag(speed_mbps, RTE_ETH_LINK_FULL_DUPLEX);
  if (bit == 0) return make_error(Errc::kInvalid, fmt::format("{} Mb/s is not a link speed ethdev knows", speed_mbps));
  return *autoneg ? bit : (bit | RTE_ETH_LINK_SPEED_FIXED);
}

Result<PortSetup> configure_port(const PortInfo& info, const api::PortSpec& cfg, rte_mempool* rx_pool,
                                 uint16_t host_tx_queues) {
  const uint16_t tx_queues = cfg.tx_queues + host_tx_queues;
  PortSetup setup;
  const uint16_t port_id = info.port_id;
  if (cfg.rx_queues > info.max_rx_queues || tx_queues > info.max_tx_queues)
    return make_error(Errc::kInvalid,
                      fmt::format("port '{}' ({}) has at most {} RX and {} TX queues; the profile asks {} and {}{}",
                                  cfg.name, info.driver, info.max_rx_queues, info.max_tx_queues, cfg.rx_queues,
                                  cfg.tx_queues, host_tx_queues != 0 ? " (and one for the emulated hosts)" : ""));
  constexpr uint64_t kCsumOffloads = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
  setup.tx_checksum_offload = cfg.checksum_offload && (info.tx_offload_capa & kCsumOffloads) == kCsumOffloads;
  rte_eth_conf conf = port_conf(info, cfg, setup.tx_checksum_offload, &setup);
  auto speeds = link_speeds_bits(cfg.autoneg, static_cast<uint32_t>(cfg.speed_bps / 1'000'000));
  if (!speeds) return std::unexpected(Error{Errc::kInvalid, 0, fmt::format("port '{}': {}", cfg.name, speeds.error().context)});
  conf.link_speeds = *speeds;
  // Isolated mode is taken before configuration by most PMDs (mlx5 among them).
  if (cfg.flow_isolate) {
    rte_flow_error error{};
    if (int rc = rte_flow_isolate(port_id, 1, &error); rc != 0)
      return make_error(Errc::kNotSupported, fmt::format("port '{}': flow_isolate: {} says: {}", cfg.name, info.driver,
                                                         error.message != nullptr ? error.message : "refused"), -rc);
  }
  if (int rc = rte_eth_dev_configure(port_id, cfg.rx_queues, tx_queues, &conf); rc != 0)
    return make_error(Errc::kInvalid, fmt::format("port '{}': rte_eth_dev_configure", cfg.name), -rc);
  uint16_t rx_desc = cfg.rx_descriptors;
  uint16_t tx_desc = cfg.tx_descriptors;
  if (int rc = rte_eth_dev_adjust_nb_rx_tx_desc(port_id, &rx_desc, &tx_desc); rc != 0)
    return make_error(Errc::kInvalid, fmt::format("port '{}': descriptor counts", cfg.name), -rc);
  if (cfg.mtu != 0) {
    int rc = rte_eth_dev_set_mtu(port_id, cfg.mtu);
    if (rc == -ENOTSUP) {
      // A PMD without an MTU operation (net_ring, whose frames only the mbuf bounds)
      // takes it at configuration, within its max_mtu; it has no kernel state to restore.
      conf.rxmode.mtu = cfg.mtu;
      rc = rte_eth_dev_configure(port_id, cfg.rx_queues, tx_queues, &conf);
    }
    if (rc != 0)
      return make_error(rc == -ENOTSUP ? Errc::kNotSupported : Errc::kInvalid,
                        fmt::format("port '{}': setting MTU {} on {}", cfg.name, cfg.mtu, info.driver), -rc);
  }
  const auto socket = static_cast<unsigned>(info.socket < 0 ? SOCKET_ID_ANY : info.socket);
  for (uint16_t q = 0; q < cfg.rx_queues; ++q) {
    if (int rc = rte_eth_rx_queue_setup(port_id, q, rx_desc, socket, nullptr, rx_pool); rc != 0)
      return make_error(Errc::kNoMemory, fmt::format("port '{}': RX queue {} setup", cfg.name, q), -rc);
  }
  for (uint16_t q = 0; q < tx_queues; ++q) {
    // The hosts' queue sends a few frames a second: a short ring holds few of their mbufs
    // (PMDs that free sent mbufs only in a later burst keep up to a ring's worth).
    const uint16_t desc = q < cfg.tx_queues ? tx_desc : std::min<uint16_t>(tx_desc, kHostTxDescriptors);
    if (int rc = rte_eth_tx_queue_setup(port_id, q, desc, socket, nullptr); rc != 0)
      return make_error(Errc::kNoMemory, fmt::format("port '{}': TX queue {} setup", cfg.name, q), -rc);
  }
  if (int rc = rte_eth_dev_start(port_id); rc != 0)
    return make_error(Errc::kInvalid, fmt::format("port '{}': rte_eth_dev_start", cfg.name), -rc);
  if (cfg.promiscuous) {
    if (int rc = rte_eth_promiscuous_enable(port_id); rc != 0 && rc != -ENOTSUP)
      return make_error(Errc::kInvalid, fmt::format("port '{}': promiscuous mode", cfg.name), -rc);
  }
  return setup;
}

Result<void> reconfigure_link_speeds(const PortInfo& info, const api::PortSpec& cfg, bool tx_checksum_offload,
                                     uint32_t link_speeds, uint16_t host_tx_queues) {
  rte_eth_conf conf = port_conf(info, cfg, tx_checksum_offload, nullptr);
  conf.link_speeds = link_speeds;
  if (int rc = rte_eth_dev_stop(info.port_id); rc != 0)
    return make_error(Errc::kInvalid, fmt::format("port '{}': stopping it to change link speeds", cfg.name), -rc);
  const int rc = rte_eth_dev_configure(info.port_id, cfg.rx_queues, cfg.tx_queues + host_tx_queues, &conf);
  const int start_rc = rte_eth_dev_start(info.port_id);
  if (rc != 0)
    return make_error(rc == -ENOTSUP || rc == -EINVAL ? Errc::kNotSupported : Errc::kInvalid,
                      fmt::format("port '{}': {} refuses link_speeds 0x{:x}", cfg.name, info.driver, link_speeds), -rc);
  if (start_rc != 0)
    return make_error(Errc::kInvalid, fmt::format("port '{}': restarting it after the link change", cfg.name), -start_rc);
  return {};
}

Result<void> set_ethdev_link(const PortInfo& info, const std::string& port_name, bool up) {
  const char* what = up ? "link up" : "link down";
  const int rc = up ? rte_eth_dev_set_link_up(info.port_id) : rte_eth_dev_set_link_down(info.port_id);
  if (rc == -ENOTSUP)
    return make_error(Errc::kNotSupported, fmt::format("{} is not supported by {} on port {} ('{}')", what, info.driver,
                                                       info.port_id, port_name));
  if (rc != 0) return make_error(Errc::kInvalid, fmt::format("port '{}': {}", port_name, what), -rc);
  return {};
}

Result<LinkStatus> read_ethdev_link(uint16_t port_id) {
  rte_eth_link link{};
  if (int rc = rte_eth_link_get_nowait(port_id, &link); rc != 0)
    return make_error(Errc::kNoDevice, fmt::format("link of port {}", port_id), -rc);
  LinkStatus status;
  status.up = link.link_status == RTE_ETH_LINK_UP;
  status.speed_mbps = link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ? 0 : link.link_speed;
  status.full_duplex = link.link_duplex == RTE_ETH_LINK_FULL_DUPLEX;
  status.autoneg = link.link_autoneg == RTE_ETH_LINK_AUTONEG;
  return status;
}

LinkStatus wait_link(uint16_t port_id, uint32_t wait_ms) {
  for (uint32_t waited = 0;; waited += 100) {
    const auto link = read_ethdev_link(port_id);
    if ((link && link->up) || waited >= wait_ms) return link.value_or(LinkStatus{});
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

Result<PortCounters> read_port_counters(uint16_t port_id) {
  rte_eth_stats stats{};
  if (int rc = rte_eth_stats_get(port_id, &stats); rc != 0)
    return make_error(Errc::kNotSupported, fmt::format("port {}: rte_eth_stats_get", port_id), -rc);
  return PortCounters{stats.ipackets, stats.opackets, stats.ibytes, stats.obytes,
                      stats.imissed,  stats.ierrors,  stats.oerrors, stats.rx_nombuf};
}

Result<std::vector<std::pair<std::string, uint64_t>>> read_xstats(uint16_t port_id) {
  const int n = rte_eth_xstats_get_names(port_id, nullptr, 0);
  if (n < 0) return make_error(Errc::kNotSupported, fmt::format("port {}: xstats names", port_id), -n);
  std::vector<rte_eth_xstat_name> names(static_cast<size_t>(n));
  std::vector<rte_eth_xstat> values(static_cast<size_t>(n));
  if (rte_eth_xstats_get_names(port_id, names.data(), static_cast<unsigned>(n)) != n ||
      rte_eth_xstats_get(port_id, values.data(), static_cast<unsigned>(n)) != n)
    return make_error(Errc::kNotSupported, fmt::format("port {}: xstats changed while being read", port_id));
  std::vector<std::pair<std::string, uint64_t>> out;
  for (int i = 0; i < n; ++i) out.emplace_back(names[values[i].id].name, values[i].value);
  return out;
}


}  // namespace lr::dp
