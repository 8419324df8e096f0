#pragma once
// One port's emulated hosts inside the host service: the hosts themselves, the ring the
// workers hand their frames over, what was sent, the link as last seen, and the latest
// events; and what neighbors.list says of them. Thread: the host service's lock.

#include <rte_ring.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "dataplane/fastpath/slow_path.hpp"
#include "dataplane/hosts/host_service.hpp"
#include "lib/api/neighbor_report.hpp"
#include "lib/common/result.hpp"
#include "lib/hosts/port_hosts.hpp"

namespace lr::dp {

/// The clock the hosts run on (lib/hosts takes it explicitly): steady, in nanoseconds.
inline uint64_t hosts_now_ns() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

class HostPort {
 public:
  /// Its ring is made here (named apart by `generation`). Errors: kNoMemory.
  static Result<std::unique_ptr<HostPort>> create(HostPortSetup setup, uint32_t generation, unsigned ring_size);
  ~HostPort();  // frees the frames still on the ring, then the ring
  HostPort(const HostPort&) = delete;
  HostPort& operator=(const HostPort&) = delete;

  /// Frees the frames still on the ring (the service stopped: nobody reads them).
  void free_handed_frames();
  /// Keeps `event` (the latest 64), its time as UTC.
  void remember(hosts::HostEvent event, uint64_t now_ns);
  api::PortNeighbors report() const;

  HostPortSetup setup;
  fast::SlowPath slow_path;
  std::unique_ptr<hosts::PortHosts> hosts;
  bool link_up = true;
  uint64_t next_link_check_ns = 0;
  uint64_t sent = 0;
  uint64_t send_failed = 0;

 private:
  explicit HostPort(HostPortSetup s);
  std::deque<std::string> events_;
};

}  // namespace lr::dp
