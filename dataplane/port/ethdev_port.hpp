#pragma once
// One port's ethdev side, owned once: its profile settings, ethdev identity, RX mempool,
// link, started / closed state and the frames left after a drain (the run's counter
// baseline is its PortControl's). The engine owns these (one per profile port) and so
// does, through them, port control: a link or link-speed change goes to the port
// itself, whoever asks. Thread: mgmt.

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "dataplane/port/port.hpp"
#include "lib/common/result.hpp"
#include "lib/host/port_settings.hpp"
#include "lib/profile/profile.hpp"

struct rte_mempool;

namespace lr::dp {

/// The ethdev operations port control needs from a port's owner: link up / down and new
/// link_speeds (the port is reconfigured). A seam, so port control is tested without a
/// configured port.
class EthdevLink {
 public:
  virtual ~EthdevLink() = default;
  /// Asks for the link up or down; does not wait for it.
  virtual Result<void> set_link_up(bool up) = 0;
  /// Reconfigures the stopped-and-restarted port with `link_speeds` (RTE_ETH_LINK_SPEED_*
  /// bits); does not wait for its link. Errors: kBusy (a run uses the port), kNotSupported.
  virtual Result<void> set_link_speeds(uint32_t link_speeds) = 0;
  /// The link_speeds the port was configured with.
  virtual uint32_t link_speeds() const = 0;
  /// Sets the MTU (stopping and restarting a started port). Errors: kBusy, kNotSupported.
  virtual Result<void> set_mtu(uint16_t mtu) = 0;
  virtual Result<void> set_promiscuous(bool on) = 0;
};

class EthdevPort final : public EthdevLink {
 public:
  EthdevPort(api::PortSpec cfg, PortInfo info) : cfg_(std::move(cfg)), info_(std::move(info)) {}
  ~EthdevPort() override;
  EthdevPort(const EthdevPort&) = delete;
  EthdevPort& operator=(const EthdevPort&) = delete;

  /// Whether bring_up fails on a link still down after its wait: a tester's port must
  /// be up to measure anything; a switch's port may wait for its peer (a memif server).
  enum class LinkAtStart : uint8_t { kRequired, kMayComeLater };

  /// Creates the RX mempool for `rx_mbufs` on the port's socket, configures and starts
  /// the port, and waits up to `link_wait_ms` for its link. Errors: kNoMemory, kInvalid
  /// (link down, when required), the PMD's.
  Result<PortSetup> bring_up(const std::string& pool_name, uint32_t rx_mbufs, uint32_t pool_cache, uint32_t link_wait_ms,
                             LinkAtStart link_at_start = LinkAtStart::kRequired);

  const api::PortSpec& cfg() const noexcept { return cfg_; }
  /// The delay of its software PFC reaction (`pfc_reaction_delay`), for the next run.
  void set_pfc_reaction_delay(std::optional<uint32_t> quanta, uint64_t ns) noexcept {
    cfg_.pfc_reaction_delay_quanta = quanta;
    cfg_.pfc_reaction_delay_ns = ns;
  }
  const std::string& name() const noexcept { return cfg_.name; }
  const PortInfo& info() const noexcept { return info_; }
  uint16_t port_id() const noexcept { return info_.port_id; }
  const LinkStatus& link() const noexcept { return link_; }
  /// What rates are computed against: the profile's speed, else the link's (bit/s).
  /// Set at bring-up, so a link that later drops does not change a run's rates.
  uint64_t speed_bps() const noexcept { return speed_bps_; }
  bool tx_checksum_offload() const noexcept { return tx_checksum_offload_; }
  bool started() const noexcept { return started_; }
  bool closed() const noexcept { return closed_; }
  rte_mempool* rx_pool() const noexcept { return rx_pool_; }

  /// A run uses the port (set by the engine around each run): no reconfiguration then.
  void set_in_run(bool in_run) noexcept { in_run_ = in_run; }
  /// Asks the PMD to free the mbufs its TX queues have sent (rte_eth_tx_done_cleanup);
  /// a PMD without the operation keeps them until the port stops.
  void release_sent_mbufs();

  /// A TX queue for the emulated hosts after the lanes' (cfg().tx_queues), added once:
  /// before bring_up it is configured with the others; after it, the port is reconfigured
  /// (stopped and started: its link goes down and up). Its id. Errors: kNotSupported (the
  /// PMD has no queue to spare, and what to do), kBusy (a run), the PMD's.
  Result<uint16_t> add_host_tx_queue();
  /// The hosts' TX queue, none until add_host_tx_queue.
  std::optional<uint16_t> host_tx_queue() const noexcept {
    return host_tx_queues_ != 0 ? std::optional<uint16_t>(cfg_.tx_queues) : std::nullopt;
  }
  /// Held around every change of the port's queues (stop, configure, start, close) and, by
  /// the emulated hosts' thread, around its bursts: it never bursts on a port mid-change.
  std::mutex& queues_lock() const noexcept { return queues_lock_; }
  /// Whether a burst may go to the port now (started, not closed): read under queues_lock.
  bool accepts_bursts() const noexcept { return configured_ && started_ && !closed_; }

  Result<void> set_link_up(bool up) override;
  Result<void> set_link_speeds(uint32_t link_speeds) override;
  uint32_t link_speeds() const override { return link_speeds_; }
  /// Reads the link now (and keeps it). False on a closed port.
  bool refresh_link();
  Result<void> set_promiscuous(bool on) override;
  /// Stopped around the change when started (many PMDs change the MTU only then).
  Result<void> set_mtu(uint16_t mtu) override;
  Result<void> set_started(bool started);
  /// Stops (a service keeps the port for the next run) or closes it (the end of a one-shot run).
  void stop();
  void close();

  /// Frames still queued on the RX queues after a drain: freed (so their mbufs return)
  /// and counted in rx_after_drain.
  void drain_rx_queues(uint32_t slack_mbufs, uint16_t burst);
  uint64_t rx_after_drain() const noexcept { return rx_after_drain_; }
  void clear_rx_after_drain() noexcept { rx_after_drain_ = 0; }

 private:
  Result<void> op_result(int rc, const char* what) const;

  api::PortSpec cfg_;
  PortInfo info_;
  LinkStatus link_;
  rte_mempool* rx_pool_ = nullptr;
  bool configured_ = false;
  bool started_ = false;
  bool closed_ = false;
  bool in_run_ = false;
  bool tx_checksum_offload_ = false;
  uint32_t link_speeds_ = 0;
  uint64_t speed_bps_ = 0;
  uint64_t rx_after_drain_ = 0;
  uint16_t host_tx_queues_ = 0;  ///< 1: a TX queue after the lanes' for the emulated hosts
  mutable std::mutex queues_lock_;
};

}  // namespace lr::dp
