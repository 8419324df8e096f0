#include "dataplane/port/cable.hpp"

#include <fmt/format.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ring.h>

#include <array>
#include <map>

namespace lr::dp {

namespace {

// Frames in flight on a cable in each direction: the wire and the receiver's descriptors.
constexpr unsigned kCableRingSize = 4096;
// Queues each end offers, all on the same two rings: a port may use up to this many.
constexpr unsigned kCableQueues = 8;

// A ring of this name, new and empty: one left by an earlier engine in this process
// may still hold pointers to mbufs of pools that are gone.
Result<rte_ring*> fresh_ring(const std::string& name) {
  if (rte_ring* old = rte_ring_lookup(name.c_str())) rte_ring_free(old);
  rte_ring* ring = rte_ring_create(name.c_str(), kCableRingSize, SOCKET_ID_ANY, 0);
  if (ring == nullptr) return make_error(Errc::kNoMemory, fmt::format("ring {} for a cable", name), rte_errno);
  return ring;
}

}  // namespace

namespace {
// Port name -> the ethdev name of its cable end. rte_eth_from_rings names the ethdev
// "net_ring_" + its name in a ring-name-sized buffer, so ends are numbered, not named.
std::map<std::string, std::string>& cable_ethdevs() {
  static std::map<std::string, std::string> names;
  return names;
}
}  // namespace

std::string cable_ethdev_name(const std::string& port) {
  const auto it = cable_ethdevs().find(port);
  return it == cable_ethdevs().end() ? std::string() : it->second;
}

Result<void> make_cables(const std::vector<CableEnd>& ends) {
  std::map<std::string, std::vector<const CableEnd*>> by_cable;
  for (const CableEnd& end : ends) by_cable[end.cable].push_back(&end);
  unsigned index = 0;
  for (const auto& [cable, pair] : by_cable) {
    if (pair.size() != 2) return make_error(Errc::kInvalid, fmt::format("cable '{}' needs exactly two ends", cable));
    // Ring names are short (RTE_RING_NAMESIZE): numbered, not named after the cable.
    auto a_to_b = fresh_ring(fmt::format("lr_cable{}_ab", index));
    if (!a_to_b) return std::unexpected(a_to_b.error());
    auto b_to_a = fresh_ring(fmt::format("lr_cable{}_ba", index));
    if (!b_to_a) return std::unexpected(b_to_a.error());
    ++index;
    const std::pair<rte_ring*, rte_ring*> directions[2] = {{*b_to_a, *a_to_b}, {*a_to_b, *b_to_a}};  // (rx, tx)
    for (int side = 0; side < 2; ++side) {
      const std::string name = fmt::format("lr_cable{}{}", index - 1, side == 0 ? 'a' : 'b');
      uint16_t port_id = 0;
      if (rte_eth_dev_get_port_by_name(("net_ring_" + name).c_str(), &port_id) == 0)
        return make_error(Errc::kInvalid, fmt::format("cable '{}': an ethdev named net_ring_{} already exists (a port "
                                                      "of an earlier engine still open?)", cable, name));
      // One ring per direction serves every queue (rings are multi-producer, multi-consumer).
      std::array<rte_ring*, kCableQueues> rx;
      std::array<rte_ring*, kCableQueues> tx;
      rx.fill(directions[side].first);
      tx.fill(directions[side].second);
      const int id = rte_eth_from_rings(name.c_str(), rx.data(), kCableQueues, tx.data(), kCableQueues, SOCKET_ID_ANY);
      if (id < 0)
        return make_error(Errc::kNoMemory, fmt::format("cable '{}': the ethdev for port '{}'", cable, pair[side]->port),
                          rte_errno);
      char ethdev[RTE_ETH_NAME_MAX_LEN];
      if (rte_eth_dev_get_name_by_port(static_cast<uint16_t>(id), ethdev) != 0)
        return make_error(Errc::kNoDevice, fmt::format("cable '{}': the ethdev of port '{}' has no name", cable,
                                                       pair[side]->port));
      cable_ethdevs()[pair[side]->port] = ethdev;
    }
  }
  return {};
}

}  // namespace lr::dp
