#include "dataplane/port/netdev_mac_sender.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <vector>

namespace lr::dp {

namespace {

// Frames in flight between the lanes and the kernel: a PFC stream's refresh is a few
// thousand frames a second; a storm is bounded by what the kernel takes.
constexpr unsigned kSinkRingSize = 4096;
// Between empty polls of the ring: a MAC Control frame waits at most about this long
// (plus the scheduler's wake-up) before it is handed to the kernel.
constexpr auto kIdlePoll = std::chrono::microseconds(20);

int sink_index() {
  static std::atomic<int> next{0};
  return next++;
}

}  // namespace

Result<std::unique_ptr<NetdevMacSender>> NetdevMacSender::open(const std::string& port, const std::string& ifname,
                                                                 uint16_t tx_queues) {
  std::unique_ptr<NetdevMacSender> s(new NetdevMacSender());
  s->ifname_ = ifname;
  const unsigned ifindex = if_nametoindex(ifname.c_str());
  if (ifindex == 0)
    return make_error(Errc::kNoDevice, fmt::format("port '{}': its kernel netdev {} is gone", port, ifname), errno);
  s->fd_ = socket(AF_PACKET, SOCK_RAW, 0);  // protocol 0: this socket receives nothing
  if (s->fd_ < 0)
    return make_error(Errc::kNotSupported,
                      fmt::format("port '{}': a packet socket on {} to send MAC Control frames (needs root or "
                                  "CAP_NET_RAW)", port, ifname),
                      errno);
  // Straight to the driver, past the qdisc: a pause frame does not queue behind the
  // kernel's own traffic, and other packet sockets on the netdev (an af_packet port's
  // own RX) do not hear it as outgoing traffic.
  const int one = 1;
  if (setsockopt(s->fd_, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof one) != 0)
    return make_error(Errc::kNotSupported, fmt::format("port '{}': PACKET_QDISC_BYPASS on {}", port, ifname), errno);
  sockaddr_ll at{};
  at.sll_family = AF_PACKET;
  at.sll_ifindex = static_cast<int>(ifindex);
  if (bind(s->fd_, reinterpret_cast<const sockaddr*>(&at), sizeof at) != 0)
    return make_error(Errc::kNoDevice, fmt::format("port '{}': binding a packet socket to {}", port, ifname), errno);

  const int index = sink_index();
  const std::string ring_name = fmt::format("lr_mcsink{}", index);
  if (rte_ring* old = rte_ring_lookup(ring_name.c_str())) rte_ring_free(old);
  s->ring_ = rte_ring_create(ring_name.c_str(), kSinkRingSize, SOCKET_ID_ANY, RING_F_SC_DEQ);
  if (s->ring_ == nullptr)
    return make_error(Errc::kNoMemory, fmt::format("port '{}': the ring to its netdev sender", port), rte_errno);
  // Every TX queue into the one ring (multi-producer), so a lane keeps the queue number it
  // has on the port, and its lcore.
  // The ring PMD wants an RX queue too; it is never configured, so nothing reads the
  // ring but this object.
  std::vector<rte_ring*> tx(tx_queues, s->ring_);
  rte_ring* rx = s->ring_;
  const std::string name = fmt::format("lr_mcsink{}", index);
  const int id = rte_eth_from_rings(name.c_str(), &rx, 1, tx.data(), tx_queues, SOCKET_ID_ANY);
  if (id < 0) return make_error(Errc::kNoMemory, fmt::format("port '{}': the sink ethdev {}", port, name), rte_errno);
  s->sink_port_id_ = static_cast<uint16_t>(id);
  s->sink_created_ = true;
  rte_eth_conf conf{};
  if (int rc = rte_eth_dev_configure(s->sink_port_id_, 0, tx_queues, &conf); rc != 0)
    return make_error(Errc::kNoDevice, fmt::format("port '{}': configuring the sink ethdev", port), -rc);
  for (uint16_t q = 0; q < tx_queues; ++q)
    if (int rc = rte_eth_tx_queue_setup(s->sink_port_id_, q, kSinkRingSize, SOCKET_ID_ANY, nullptr); rc != 0)
      return make_error(Errc::kNoDevice, fmt::format("port '{}': the sink ethdev's TX queue {}", port, q), -rc);
  if (int rc = rte_eth_dev_start(s->sink_port_id_); rc != 0)
    return make_error(Errc::kNoDevice, fmt::format("port '{}': starting the sink ethdev", port), -rc);
  s->sink_started_ = true;
  NetdevMacSender* self = s.get();
  s->thread_ = std::thread([self] { self->run(); });
  return s;
}

void NetdevMacSender::send_from_ring() noexcept {
  std::array<void*, 32> frames;
  unsigned n;
  while ((n = rte_ring_dequeue_burst(ring_, frames.data(), frames.size(), nullptr)) != 0) {
    for (unsigned i = 0; i < n; ++i) {
      auto* m = static_cast<rte_mbuf*>(frames[i]);
      if (send(fd_, rte_pktmbuf_mtod(m, const void*), m->data_len, 0) == static_cast<ssize_t>(m->data_len)) {
        sent_.fetch_add(1, std::memory_order_relaxed);
      } else {
        send_failures_.fetch_add(1, std::memory_order_relaxed);
        last_errno_.store(errno, std::memory_order_relaxed);
      }
      rte_pktmbuf_free(m);
    }
  }
}

void NetdevMacSender::run() noexcept {
  while (!stop_.load(std::memory_order_acquire)) {
    send_from_ring();
    std::this_thread::sleep_for(kIdlePoll);
  }
  send_from_ring();  // what the lanes handed over before they stopped
}

NetdevMacSender::Counts NetdevMacSender::counts() const noexcept {
  return {sent_.load(std::memory_order_relaxed), send_failures_.load(std::memory_order_relaxed),
          last_errno_.load(std::memory_order_relaxed)};
}

NetdevMacSender::~NetdevMacSender() {
  stop_.store(true, std::memory_order_release);
  if (thread_.joinable()) thread_.join();
  if (sink_started_) rte_eth_dev_stop(sink_port_id_);
  if (sink_created_) rte_eth_dev_close(sink_port_id_);
  if (ring_ != nullptr) {
    void* left;
    while (rte_ring_dequeue(ring_, &left) == 0) rte_pktmbuf_free(static_cast<rte_mbuf*>(left));
    rte_ring_free(ring_);
  }
  if (fd_ >= 0) close(fd_);
}

}  // namespace lr::dp
