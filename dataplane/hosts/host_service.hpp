#pragma once
// The emulated hosts' control path: one thread (not a worker lcore) that drives each port's
// hosts (lib/hosts/port_hosts.hpp) every millisecond. It reads their frames from the port's
// RX queues itself between runs, and from the slow-path ring the workers fill during a run
// (fastpath/slow_path.hpp); it sends through a TX queue of the port's own that no lane
// uses, from a small pool of its own. A link that comes back makes the hosts announce
// themselves and resolve every neighbour again. Events (resolved, failed, a MAC changed, a
// duplicate address) are kept for neighbors.list and said on stderr.
// Thread: its own; every public call takes the lock it serves under (mgmt calls them).

#include <rte_mempool.h>
#include <rte_ring.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "dataplane/fastpath/slow_path.hpp"
#include "dataplane/port/ethdev_port.hpp"
#include "lib/api/host_spec.hpp"
#include "lib/api/neighbor_report.hpp"
#include "lib/common/result.hpp"
#include "lib/hosts/port_hosts.hpp"

namespace lr::dp {

class HostPort;  // host_port.hpp

/// One port's hosts as the engine hands them over.
struct HostPortSetup {
  /// The port (its name, id, RX queues and socket are read from it); its queues lock is held
  /// around every burst. Outlives the service's use of it.
  EthdevPort* ethdev = nullptr;
  uint16_t tx_queue = 0;    ///< the hosts' own
  bool poll_rx = true;      ///< false: a port whose RX is not polled (net_null's endless source)
  /// The port's kernel netdev, "" if none: its carrier is the link (a PMD such as
  /// net_af_packet reports its link up whatever the interface does).
  std::string netdev;
  std::vector<api::HostSpec> hosts;  ///< expanded, checked distinct
};

/// The MACs a stream with eth.src / eth.dst "auto" is sent with.
struct StreamMacs {
  api::MacAddr src{};
  api::MacAddr dst{};
};

class HostService {
 public:
  HostService();
  ~HostService();  // stops the thread; frees the rings and the pool (after it)
  HostService(const HostService&) = delete;
  HostService& operator=(const HostService&) = delete;

  /// Replaces every port's hosts; the new ones start at once (announcements, DAD, their
  /// gateways' resolution). Not while workers hold RX. Errors: kNoMemory (ring, pool: the
  /// old hosts go on), kInvalid (stopped).
  Result<void> set_hosts(std::vector<HostPortSetup> ports);
  /// The ring the RX queues of `port_id` hand frames to, none if the port has no hosts.
  fast::SlowPath* slow_path(uint16_t port_id);

  /// A run starts: RX is the workers' until take_rx_back (the service reads the rings).
  void hand_rx_to_workers();
  /// The workers have returned (and the ports' queues are drained).
  void take_rx_back();
  /// Stops the thread (ports about to close): nothing is sent or received after, and
  /// set_hosts is refused.
  void stop();

  /// Whether `port` has hosts.
  bool has_hosts(const std::string& port) const;
  /// Each port's hosts, counts and neighbours; `port` given: that one.
  std::vector<api::PortNeighbors> neighbors(const std::optional<std::string>& port = std::nullopt) const;

  /// Starts resolving what `stream` (eth.src / eth.dst "auto") needs; an error names why it
  /// cannot be sent (no host with its source address, no next hop).
  Result<void> prepare_stream(const api::StreamSpec& stream);
  /// The MACs of a stream prepared (prepare_stream first): waits up to `wait` while its
  /// next hop is still being resolved. Errors: kInvalid naming the stream, port, host, neighbour and why.
  Result<StreamMacs> stream_macs(const api::StreamSpec& stream, std::chrono::milliseconds wait);

 private:
  void run();
  void serve(HostPort& port, uint64_t now_ns);
  void send(HostPort& port, const std::vector<hosts::Frame>& frames);
  void note_events(HostPort& port, uint64_t now_ns);
  void say_events(std::unique_lock<std::mutex>& lock);
  HostPort* port_named(const std::string& name);

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::unique_ptr<HostPort>> ports_;
  std::vector<std::string> log_;  ///< lines for stderr, written outside the lock
  rte_mempool* pool_ = nullptr;  ///< the frames the hosts send
  bool workers_hold_rx_ = false;
  bool stopping_ = false;
  uint32_t generation_ = 0;  ///< rings and pools are named apart per set_hosts
  std::thread thread_;
};

}  // namespace lr::dp
