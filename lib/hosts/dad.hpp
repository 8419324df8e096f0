#pragma once
// Duplicate address detection (RFC 4862 section 5.4) for the IPv6 addresses of a port's
// hosts, link-local and global, on an explicit clock (the caller passes now_ns; nothing
// sleeps). Each tentative address sends `transmits` probes (NS from :: to its
// solicited-node group), `retrans_ns` apart; `retrans_ns` after the last with nobody
// claiming it, it becomes preferred and is announced (unsolicited NA to all-nodes, O set).
// During that window an NA for it (section 5.4.4), or an NS from :: for it sent by another
// MAC (5.4.3; our own probe looped back is not one), makes it a duplicate: reported, and
// the address is never used (the responder does not answer for it).
// Thread: the control path's one thread.

#include <cstdint>
#include <string>
#include <vector>

#include "lib/hosts/host_frames.hpp"
#include "lib/hosts/host_table.hpp"
#include "lib/hosts/neighbor_frame.hpp"

namespace lr::hosts {

struct DadConfig {
  uint32_t transmits = 1;                ///< RFC 4862 DupAddrDetectTransmits
  uint64_t retrans_ns = 1'000'000'000;   ///< RFC 4861 RetransTimer
};

struct DuplicateAddress {
  uint32_t host = 0;
  Ipv6Slot slot = Ipv6Slot::kGlobal;
  api::Ipv6Addr address{};
  wire::Mac by_mac{};   ///< the other node's MAC
  uint64_t at_ns = 0;
  std::string message;  ///< "port 'p0', host d[3]: IPv6 address ... is a duplicate: ..."
};

class Dad {
 public:
  /// `hosts` outlives this; its tentative addresses are the ones checked.
  Dad(HostTable& hosts, DadConfig config);

  /// The first probe of every tentative address not being probed already. (RFC 4862 delays the first by up to 1 s
  /// at random when many start at once; the caller paces the frames it sends instead.)
  std::vector<Frame> start(uint64_t now_ns);
  /// The probes due at `now_ns`, and the announcements of the addresses that became preferred.
  std::vector<Frame> poll(uint64_t now_ns);
  /// A received frame: an NS or NA that claims a tentative address makes it a duplicate.
  void on_frame(const NeighborFrame& frame, uint64_t now_ns);

  /// The duplicates found since the last call.
  std::vector<DuplicateAddress> take_duplicates();
  /// Addresses still tentative.
  size_t pending() const noexcept { return pending_; }

 private:
  struct Probe {
    bool active = false;
    uint32_t sent = 0;
    uint64_t next_ns = 0;  ///< the next probe, or (all sent) the end of the window
  };
  static size_t slot_index(Ipv6Match at) noexcept {
    return size_t{at.host} * 2 + (at.slot == Ipv6Slot::kGlobal ? 1 : 0);
  }
  void duplicate(Ipv6Match at, const wire::Mac& by, const char* how, uint64_t now_ns);

  HostTable& hosts_;
  DadConfig config_;
  std::vector<Probe> probes_;  ///< by slot_index
  size_t pending_ = 0;
  std::vector<DuplicateAddress> duplicates_;
};

}  // namespace lr::hosts
