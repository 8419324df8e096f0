#pragma once
// The emulated hosts of one port, indexed for O(1) lookup by (VLAN, IPv4 address) and by
// (VLAN, IPv6 address), link-local addresses included: a port may carry thousands, and the
// responder looks one up per received frame. Each IPv6 address carries its DAD state
// (RFC 4862): tentative until DAD ends, preferred after, duplicate when another node
// holds it (then never used). Thread: the control path's one thread.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "lib/api/host_spec.hpp"

namespace lr::hosts {

enum class AddressState : uint8_t { kTentative, kPreferred, kDuplicate };

/// Which of a host's IPv6 addresses.
enum class Ipv6Slot : uint8_t { kLinkLocal, kGlobal };

struct Host {
  api::HostSpec spec;
  api::Ipv6Addr link_local{};  ///< fe80::/64 from the MAC (EUI-64)
  AddressState link_local_state = AddressState::kTentative;
  AddressState global_state = AddressState::kTentative;  ///< meaningful when spec.ipv6 is set

  const api::Ipv6Addr& address(Ipv6Slot slot) const noexcept {
    return slot == Ipv6Slot::kLinkLocal ? link_local : spec.ipv6->address;
  }
  AddressState state(Ipv6Slot slot) const noexcept {
    return slot == Ipv6Slot::kLinkLocal ? link_local_state : global_state;
  }
};

struct Ipv6Match {
  uint32_t host = 0;
  Ipv6Slot slot = Ipv6Slot::kGlobal;
};

/// A frame's VLAN as hosts are keyed by it: its VID, none untagged (VID 0, a priority
/// tag, counts as untagged).
std::optional<uint16_t> frame_vlan(std::optional<uint16_t> tci) noexcept;

class HostTable {
 public:
  /// Hosts already checked distinct (check_distinct). `ipv6_state`: every IPv6 address's
  /// state at the start (tentative, for DAD to run; preferred, to skip it).
  explicit HostTable(std::vector<api::HostSpec> hosts, AddressState ipv6_state = AddressState::kTentative);

  size_t size() const noexcept { return hosts_.size(); }
  const Host& host(uint32_t i) const noexcept { return hosts_[i]; }
  void set_state(Ipv6Match at, AddressState state) noexcept;

  /// The host with this IPv4 address on this VLAN (none: untagged).
  std::optional<uint32_t> find_ipv4(std::optional<uint16_t> vlan, uint32_t address) const;
  /// The host and address slot with this IPv6 address on this VLAN, whatever its state.
  std::optional<Ipv6Match> find_ipv6(std::optional<uint16_t> vlan, const api::Ipv6Addr& address) const;

 private:
  struct V6Key {
    int vlan;
    api::Ipv6Addr address;
    bool operator==(const V6Key&) const = default;
  };
  struct V6Hash {
    size_t operator()(const V6Key& k) const noexcept;
  };
  static uint64_t v4_key(std::optional<uint16_t> vlan, uint32_t address) noexcept;

  std::vector<Host> hosts_;
  std::unordered_map<uint64_t, uint32_t> by_ipv4_;
  std::unordered_map<V6Key, Ipv6Match, V6Hash> by_ipv6_;
};

}  // namespace lr::hosts
