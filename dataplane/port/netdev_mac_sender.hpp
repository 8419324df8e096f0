#pragma once
// MAC Control frames sent through a port's kernel netdev, for a port whose PMD cannot send
// them (i40e drops EtherType 0x8808 on transmit) but which has a netdev beside it (a
// bifurcated mlx5 port, an af_packet port). The stream's TX lanes stay on their worker
// lcores, paced, numbered and timestamped as any lane: they send into a net_ring "sink"
// ethdev (one TX queue per queue of the port, all into one multi-producer ring), and a
// thread of this object takes the frames from that ring and writes each to an AF_PACKET
// socket bound to the netdev. So the lcores make no system call, and a sender that falls
// behind fills the ring and shows as the lanes' full TX queue, as a slow NIC would.
// Thread: mgmt creates and destroys it; its own thread sends.

#include <rte_ring.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "lib/common/result.hpp"

namespace lr::dp {

class NetdevMacSender {
 public:
  struct Counts {
    uint64_t sent = 0;          ///< frames the kernel took
    uint64_t send_failures = 0; ///< frames it refused (each freed, not retried)
    int last_errno = 0;         ///< of the last refusal
  };

  /// A sender for port `port` (its name, for messages) through netdev `ifname`, with a
  /// sink of `tx_queues` TX queues. Errors: kNoDevice (no such netdev), kNotSupported (no
  /// packet socket: not root, or no CAP_NET_RAW), kNoMemory.
  static Result<std::unique_ptr<NetdevMacSender>> open(const std::string& port, const std::string& ifname,
                                                       uint16_t tx_queues);
  ~NetdevMacSender();
  NetdevMacSender(const NetdevMacSender&) = delete;
  NetdevMacSender& operator=(const NetdevMacSender&) = delete;

  /// The ethdev the lanes send into, instead of the port's own.
  uint16_t sink_port_id() const noexcept { return sink_port_id_; }
  const std::string& ifname() const noexcept { return ifname_; }
  Counts counts() const noexcept;

 private:
  NetdevMacSender() = default;
  void run() noexcept;
  void send_from_ring() noexcept;

  std::string ifname_;
  int fd_ = -1;
  rte_ring* ring_ = nullptr;
  uint16_t sink_port_id_ = 0;
  bool sink_created_ = false;
  bool sink_started_ = false;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> sent_{0};
  std::atomic<uint64_t> send_failures_{0};
  std::atomic<int> last_errno_{0};
  std::thread thread_;
};

}  // namespace lr::dp
