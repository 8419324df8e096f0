#include "dataplane/hosts/host_service.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <utility>

#include "dataplane/hosts/host_port.hpp"
#include "lib/hosts/slow_path_frame.hpp"

namespace lr::dp {

namespace {

constexpr unsigned kRingSize = 1024;        // frames a port's workers may hand over between two polls
constexpr unsigned kPoolMbufs = 8191;       // frames the hosts send, in flight at once
constexpr uint16_t kBurst = 32;
constexpr unsigned kBurstsPerPoll = 16;     // at most 512 frames a port and millisecond: a storm waits on the ring
constexpr auto kPollInterval = std::chrono::milliseconds(1);
// A link that comes back is seen within this (a sysfs read a port): the hosts announce
// themselves that soon after, which a re-resolution time after a flap includes.
constexpr uint64_t kLinkCheckNs = 5'000'000;
constexpr size_t kEventsSaidPerPoll = 8;

// The port's link now: its kernel netdev's carrier where it has one, else the PMD's view.
std::optional<bool> link_up(const HostPortSetup& port) {
  if (!port.netdev.empty()) {
    std::ifstream carrier("/sys/class/net/" + port.netdev + "/carrier");
    char c = '0';
    return carrier.get(c) && c == '1';  // an interface set down has no carrier to read
  }
  rte_eth_link link{};
  if (rte_eth_link_get_nowait(port.ethdev->port_id(), &link) != 0) return std::nullopt;
  return link.link_status == RTE_ETH_LINK_UP;
}

}  // namespace

HostService::HostService() : thread_([this] { run(); }) {}

HostService::~HostService() {
  stop();
  ports_.clear();
  rte_mempool_free(pool_);
}

void HostService::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  // The frames the workers handed over last go back to the ports' pools before they close.
  std::lock_guard lock(mutex_);
  for (auto& p : ports_) p->free_handed_frames();
}

Result<void> HostService::set_hosts(std::vector<HostPortSetup> setups) {
  std::lock_guard lock(mutex_);
  if (stopping_) return make_error(Errc::kInvalid, "the emulated hosts' thread has stopped (the ports are closing)");
  if (!setups.empty() && pool_ == nullptr) {
    // Its users are plain threads (no lcore cache); sized for several hosts' queues holding
    // their sent frames until a later burst frees them.
    pool_ = rte_pktmbuf_pool_create("lr_hosts_tx", kPoolMbufs, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
    if (pool_ == nullptr) return make_error(Errc::kNoMemory, "the emulated hosts' pool of frames to send", -rte_errno);
  }
  // A port whose hosts are the same as before keeps them as they are, resolved (another
  // port's hosts changed: these have no reason to start over, and their device may have no
  // room to answer them again). The new hosts made whole first: a failure leaves the old
  // ones serving.
  const auto same_as_before = [this](const HostPortSetup& setup) -> HostPort* {
    for (auto& p : ports_)
      if (p->setup.ethdev == setup.ethdev && p->setup.tx_queue == setup.tx_queue && p->setup.poll_rx == setup.poll_rx &&
          p->setup.netdev == setup.netdev && p->setup.hosts == setup.hosts)
        return p.get();
    return nullptr;
  };
  std::vector<std::unique_ptr<HostPort>> made(setups.size());
  std::vector<HostPort*> kept(setups.size(), nullptr);
  for (size_t i = 0; i < setups.size(); ++i) {
    kept[i] = same_as_before(setups[i]);
    if (kept[i] != nullptr) continue;
    auto port = HostPort::create(std::move(setups[i]), generation_ + 1, kRingSize);
    if (!port) return std::unexpected(port.error());
    made[i] = std::move(*port);
  }
  ++generation_;
  for (size_t i = 0; i < setups.size(); ++i)
    for (auto& p : ports_)
      if (kept[i] != nullptr && p.get() == kept[i]) made[i] = std::move(p);
  ports_ = std::move(made);
  const uint64_t now = hosts_now_ns();
  for (size_t i = 0; i < ports_.size(); ++i) {
    if (kept[i] != nullptr) continue;
    auto& p = ports_[i];
    std::lock_guard port_lock(p->setup.ethdev->queues_lock());
    std::vector<hosts::Frame> frames = p->hosts->start(now);
    if (p->setup.ethdev->accepts_bursts()) send(*p, frames);  // else the resolution's retries go later
    note_events(*p, now);
  }
  wake_.notify_all();
  return {};
}

fast::SlowPath* HostService::slow_path(uint16_t port_id) {
  std::lock_guard lock(mutex_);
  for (auto& p : ports_)
    if (p->setup.ethdev->port_id() == port_id) return &p->slow_path;
  return nullptr;
}

void HostService::hand_rx_to_workers() {
  std::lock_guard lock(mutex_);
  workers_hold_rx_ = true;
}

void HostService::take_rx_back() {
  std::lock_guard lock(mutex_);
  workers_hold_rx_ = false;
}

void HostService::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (ports_.empty()) {
      wake_.wait(lock, [this] { return stopping_ || !ports_.empty(); });
      continue;
    }
    const uint64_t now = hosts_now_ns();
    for (auto& p : ports_) serve(*p, now);
    say_events(lock);
    wake_.wait_for(lock, kPollInterval, [this] { return stopping_; });
  }
}

void HostService::serve(HostPort& port, uint64_t now) {
  // Never a burst on a port the mgmt thread is stopping or reconfiguring: it waits a poll.
  std::unique_lock port_lock(port.setup.ethdev->queues_lock(), std::try_to_lock);
  if (!port_lock.owns_lock() || !port.setup.ethdev->accepts_bursts()) return;
  std::array<rte_mbuf*, kBurst> pkts;
  const auto take = [&](rte_mbuf** got, unsigned n) {
    for (unsigned i = 0; i < n; ++i) {
      rte_mbuf* m = got[i];
      // Between runs the service sees every frame the port receives: only the hosts' are read.
      if (hosts::is_slow_path_frame(rte_pktmbuf_mtod(m, const uint8_t*), m->data_len)) {
        std::array<uint8_t, RTE_MBUF_DEFAULT_DATAROOM> copy;
        const uint32_t len = std::min<uint32_t>(m->pkt_len, copy.size());
        const auto* bytes = static_cast<const uint8_t*>(rte_pktmbuf_read(m, 0, len, copy.data()));
        if (bytes != nullptr) send(port, port.hosts->on_frame({bytes, len}, now));
      }
      rte_pktmbuf_free(m);
    }
  };
  for (unsigned b = 0; b < kBurstsPerPoll; ++b) {
    const unsigned n =
        rte_ring_sc_dequeue_burst(port.slow_path.ring, reinterpret_cast<void**>(pkts.data()), kBurst, nullptr);
    take(pkts.data(), n);
    if (n < kBurst) break;
  }
  if (!workers_hold_rx_ && port.setup.poll_rx) {
    for (uint16_t q = 0; q < port.setup.ethdev->cfg().rx_queues; ++q) {
      for (unsigned b = 0; b < kBurstsPerPoll; ++b) {
        const uint16_t n = rte_eth_rx_burst(port.setup.ethdev->port_id(), q, pkts.data(), kBurst);
        take(pkts.data(), n);
        if (n < kBurst) break;
      }
    }
  }
  if (now >= port.next_link_check_ns) {
    port.next_link_check_ns = now + kLinkCheckNs;
    if (const std::optional<bool> up = link_up(port.setup)) {
      if (*up && !port.link_up) send(port, port.hosts->link_up(now));
      port.link_up = *up;
    }
  }
  send(port, port.hosts->poll(now));
  note_events(port, now);
}

// The caller holds the port's queues lock, and the port accepts bursts.
void HostService::send(HostPort& port, const std::vector<hosts::Frame>& frames) {
  for (const hosts::Frame& frame : frames) {
    rte_mbuf* m = rte_pktmbuf_alloc(pool_);
    if (m == nullptr) {
      // A PMD that frees sent mbufs only in a later burst holds them: ask it for them back.
      (void)rte_eth_tx_done_cleanup(port.setup.ethdev->port_id(), port.setup.tx_queue, 0);
      m = rte_pktmbuf_alloc(pool_);
    }
    char* at = m == nullptr ? nullptr : rte_pktmbuf_append(m, static_cast<uint16_t>(frame.size()));
    if (at == nullptr) {
      rte_pktmbuf_free(m);
      ++port.send_failed;
      continue;
    }
    std::memcpy(at, frame.data(), frame.size());
    if (rte_eth_tx_burst(port.setup.ethdev->port_id(), port.setup.tx_queue, &m, 1) == 1) {
      ++port.sent;
    } else {
      rte_pktmbuf_free(m);
      ++port.send_failed;
    }
  }
}

void HostService::note_events(HostPort& port, uint64_t now) {
  std::vector<hosts::HostEvent> events = port.hosts->take_events();
  size_t said = 0;
  for (hosts::HostEvent& e : events) {
    // Said on stderr: what needs a look (a neighbour lost or changed, an address taken), a few
    // at a time; a resolution is in neighbors.list. Written after the lock is let go.
    if (e.kind != hosts::HostEvent::Kind::kResolved && said++ < kEventsSaidPerPoll) log_.push_back(e.message);
    port.remember(std::move(e), now);
  }
  if (said > kEventsSaidPerPoll)
    log_.push_back(fmt::format("port '{}': {} more events like these (linerate neighbors {} lists them)",
                               port.setup.ethdev->name(), said - kEventsSaidPerPoll, port.setup.ethdev->name()));
}

void HostService::say_events(std::unique_lock<std::mutex>& lock) {
  if (log_.empty()) return;
  std::vector<std::string> lines = std::exchange(log_, {});
  lock.unlock();  // stderr may be a pipe nobody reads for a while: never block the hosts' callers on it
  for (const std::string& line : lines) std::fprintf(stderr, "linerate-dataplane: hosts: %s\n", line.c_str());
  lock.lock();
}

HostPort* HostService::port_named(const std::string& name) {
  for (auto& p : ports_)
    if (p->setup.ethdev->name() == name) return p.get();
  return nullptr;
}

bool HostService::has_hosts(const std::string& port) const {
  std::lock_guard lock(mutex_);
  return std::any_of(ports_.begin(), ports_.end(), [&](const auto& p) { return p->setup.ethdev->name() == port; });
}

std::vector<api::PortNeighbors> HostService::neighbors(const std::optional<std::string>& port) const {
  std::lock_guard lock(mutex_);
  std::vector<api::PortNeighbors> out;
  for (const auto& p : ports_)
    if (!port || p->setup.ethdev->name() == *port) out.push_back(p->report());
  return out;
}

}  // namespace lr::dp
