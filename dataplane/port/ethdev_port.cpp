#include "dataplane/port/ethdev_port.hpp"

#include <fmt/format.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <algorithm>
#include <bit>
#include <vector>

#include "dataplane/port/pmd_log.hpp"

namespace lr::dp {

EthdevPort::~EthdevPort() {
  close();
  rte_mempool_free(rx_pool_);
}

Result<PortSetup> EthdevPort::bring_up(const std::string& pool_name, uint32_t rx_mbufs, uint32_t pool_cache,
                                       uint32_t link_wait_ms, LinkAtStart link_at_start) {
  const int socket = info_.socket < 0 ? SOCKET_ID_ANY : info_.socket;
  const uint32_t data_room = RTE_PKTMBUF_HEADROOM + std::max<uint32_t>(2048, cfg_.mtu + 26u);
  rx_pool_ = rte_pktmbuf_pool_create(pool_name.c_str(), rx_mbufs, pool_cache, 0,
                                     static_cast<uint16_t>(std::min<uint32_t>(data_room, UINT16_MAX)), socket);
  if (rx_pool_ == nullptr)
    return make_error(Errc::kNoMemory, fmt::format("port '{}': RX mempool of {} mbufs", cfg_.name, rx_mbufs), rte_errno);
  configured_ = true;  // from here on the port must be closed
  auto setup = configure_port(info_, cfg_, rx_pool_, host_tx_queues_);
  if (!setup) return std::unexpected(setup.error());
  started_ = true;
  tx_checksum_offload_ = setup->tx_checksum_offload;
  link_speeds_ = link_speeds_bits(cfg_.autoneg, static_cast<uint32_t>(cfg_.speed_bps / 1'000'000)).value_or(0);
  link_ = wait_link(info_.port_id, link_wait_ms);
  if (!link_.up && link_at_start == LinkAtStart::kRequired)
    return make_error(Errc::kInvalid,
                      fmt::format("port '{}' ({}): link is down after {} s", cfg_.name, cfg_.device, link_wait_ms / 1000));
  speed_bps_ = cfg_.speed_bps != 0 ? cfg_.speed_bps : uint64_t{link_.speed_mbps} * 1'000'000;
  return setup;
}

Result<void> EthdevPort::op_result(int rc, const char* what) const {
  if (rc == 0) return {};
  if (rc == -ENOTSUP)
    return make_error(Errc::kNotSupported,
                      fmt::format("{} is not supported by {} on port {} ('{}')", what, info_.driver, info_.port_id, cfg_.name));
  return make_error(Errc::kInvalid, fmt::format("port '{}': {}", cfg_.name, what), -rc);
}

Result<void> EthdevPort::set_link_up(bool up) {
  if (auto ok = set_ethdev_link(info_, cfg_.name, up); !ok) return ok;
  link_ = wait_link(info_.port_id, 0);  // no wait: the caller polls refresh_link (mgmt: on a timer)
  return {};
}

bool EthdevPort::refresh_link() {
  if (closed_) return false;
  link_ = wait_link(info_.port_id, 0);
  return link_.up;
}

Result<void> EthdevPort::set_link_speeds(uint32_t link_speeds) {
  if (in_run_) return make_error(Errc::kBusy, "traffic is running: stop it before changing link speeds");
  if (closed_ || !started_) return make_error(Errc::kInvalid, fmt::format("port '{}' is not started", cfg_.name));
  std::lock_guard lock(queues_lock_);
  if (auto ok = reconfigure_link_speeds(info_, cfg_, tx_checksum_offload_, link_speeds, host_tx_queues_); !ok)
    return ok;
  link_speeds_ = link_speeds;
  link_ = wait_link(info_.port_id, 0);  // no wait: the caller polls refresh_link (mgmt: on a timer)
  return {};
}

Result<uint16_t> EthdevPort::add_host_tx_queue() {
  const uint16_t queue = cfg_.tx_queues;
  if (host_tx_queues_ != 0) return queue;
  if (info_.max_tx_queues <= cfg_.tx_queues)
    return make_error(
        Errc::kNotSupported,
        fmt::format("port '{}' ({}) has {} TX queue{} and its lanes use {}: the emulated hosts need one "
                    "of their own{}",
                    cfg_.name, info_.driver, info_.max_tx_queues, info_.max_tx_queues == 1 ? "" : "s", cfg_.tx_queues,
                    info_.driver == "net_af_packet"
                        ? fmt::format(" (give the device qpairs={0} and the port rx_queues = {0}: each "
                                      "qpair's socket receives a share of the frames)",
                                      cfg_.tx_queues + 1)
                        : ""));
  if (in_run_) return make_error(Errc::kBusy, "traffic is running: stop it before adding emulated hosts to a port");
  if (closed_) return make_error(Errc::kInvalid, fmt::format("port '{}' is closed", cfg_.name));
  if (!configured_) {  // bring_up configures it with the others
    host_tx_queues_ = 1;
    return queue;
  }
  // Reconfigured stopped, from the profile's settings: its link goes down and up.
  std::lock_guard lock(queues_lock_);
  if (started_) rte_eth_dev_stop(info_.port_id);
  started_ = false;
  auto setup = configure_port(info_, cfg_, rx_pool_, 1);
  if (!setup) {
    // Back as it was, without the hosts' queue; both refusals said if that fails too.
    auto restored = configure_port(info_, cfg_, rx_pool_, 0);
    started_ = restored.has_value();
    if (!restored) setup.error().context += "; restoring the port without it: " + restored.error().context;
    return std::unexpected(setup.error());
  }
  host_tx_queues_ = 1;
  started_ = true;
  link_ = wait_link(info_.port_id, 0);
  return queue;
}

Result<void> EthdevPort::set_promiscuous(bool on) {
  const int rc = on ? rte_eth_promiscuous_enable(info_.port_id) : rte_eth_promiscuous_disable(info_.port_id);
  if (auto ok = op_result(rc, on ? "promiscuous mode on" : "promiscuous mode off"); !ok) return ok;
  cfg_.promiscuous = on;
  return {};
}

Result<void> EthdevPort::set_mtu(uint16_t mtu) {
  if (in_run_) return make_error(Errc::kBusy, "traffic is running: stop it before changing an MTU");
  // Many PMDs change the MTU only on a stopped port: stop it (no worker uses it between
  // runs), set, start it again.
  std::lock_guard lock(queues_lock_);
  const bool was_started = started_;
  if (was_started) rte_eth_dev_stop(info_.port_id);
  PmdLogCapture pmd_log;
  const int rc = rte_eth_dev_set_mtu(info_.port_id, mtu);
  const std::string reason = pmd_log.text();
  if (was_started) rte_eth_dev_start(info_.port_id);
  if (auto ok = op_result(rc, "setting the MTU"); !ok) {
    if (!reason.empty()) ok.error().context += fmt::format(" (the PMD says: {})", reason);
    return ok;
  }
  cfg_.mtu = mtu;
  return {};
}

Result<void> EthdevPort::set_started(bool started) {
  if (in_run_) return make_error(Errc::kBusy, "traffic is running: stop it before starting or stopping a port");
  if (closed_) return make_error(Errc::kInvalid, fmt::format("port '{}' is closed", cfg_.name));
  if (started == started_) return {};
  std::lock_guard lock(queues_lock_);
  const int rc = started ? rte_eth_dev_start(info_.port_id) : rte_eth_dev_stop(info_.port_id);
  if (auto ok = op_result(rc, started ? "starting the port" : "stopping the port"); !ok) return ok;
  started_ = started;
  link_ = wait_link(info_.port_id, 0);  // no wait: the caller polls refresh_link
  return {};
}

void EthdevPort::stop() {
  std::lock_guard lock(queues_lock_);
  if (configured_ && started_ && !closed_) rte_eth_dev_stop(info_.port_id);
  started_ = false;
}

void EthdevPort::close() {
  if (!configured_ || closed_) return;
  std::lock_guard lock(queues_lock_);
  if (started_) rte_eth_dev_stop(info_.port_id);
  rte_eth_dev_close(info_.port_id);
  started_ = false;
  closed_ = true;
}

void EthdevPort::release_sent_mbufs() {
  if (closed_ || !started_) return;
  for (uint16_t q = 0; q < cfg_.tx_queues; ++q) (void)rte_eth_tx_done_cleanup(info_.port_id, q, 0);
}

void EthdevPort::drain_rx_queues(uint32_t slack_mbufs, uint16_t burst) {
  if (closed_) return;
  std::vector<rte_mbuf*> pkts(burst);
  for (uint16_t q = 0; q < cfg_.rx_queues; ++q) {
    // Bounded: a source such as net_null never runs dry.
    uint32_t bursts = (cfg_.rx_descriptors + slack_mbufs) / burst + 1;
    for (uint16_t n; bursts-- != 0 && (n = rte_eth_rx_burst(info_.port_id, q, pkts.data(), burst)) != 0;) {
      rx_after_drain_ += n;
      rte_pktmbuf_free_bulk(pkts.data(), n);
    }
  }
}

}  // namespace lr::dp
