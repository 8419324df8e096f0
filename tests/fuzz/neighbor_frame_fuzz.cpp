// libFuzzer target: any bytes as a frame off the wire into the emulated hosts' slow path:
// the parser (parse_neighbor_frame: Ethernet with or without a tag, ARP, IPv4 / IPv6,
// ICMP, ICMPv6 echo, NS / NA and their options), the responder over hosts in every address
// state, and a port's hosts (DAD, the resolver, conflict detection). The frame sits in a
// buffer of exactly its length, so AddressSanitizer catches a read past its end. A finding is a crash, or an answer that
// breaks the responder's contract: replies exactly when the verdict is kAnswered, and each
// reply a frame the parser reads back as a message of its own.
// Built with clang by scripts/fuzz.sh.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "lib/hosts/port_hosts.hpp"
#include "lib/hosts/responder.hpp"

namespace {

namespace hosts = lr::hosts;

// Two hosts untagged (one preferred, one tentative) and one on VLAN 100, with the
// gateways 10.0.0.1 and 2001:db8::1 being resolved: the addresses a seed frame names.
std::vector<lr::api::HostSpec> port_hosts() {
  std::vector<lr::api::HostSpec> out;
  for (uint8_t i = 0; i < 3; ++i) {
    lr::api::HostSpec h;
    h.device = "fuzz";
    h.index = i;
    h.port = "p0";
    h.mac = {0x02, 0, 0, 0, 0, static_cast<uint8_t>(i + 1)};
    if (i == 2) h.vlan = 100;
    h.ipv4 = lr::api::HostIpv4{0x0A000002u + i, 24, 0x0A000001u};
    h.ipv6 = lr::api::HostIpv6{{0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<uint8_t>(2 + i)},
                               64,
                               lr::api::Ipv6Addr{0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}};
    out.push_back(h);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static hosts::HostTable table(port_hosts(), hosts::AddressState::kPreferred);
  static bool once = [] {
    table.set_state({1, hosts::Ipv6Slot::kGlobal}, hosts::AddressState::kTentative);
    return true;
  }();
  (void)once;
  const std::vector<uint8_t> frame(data, data + size);  // exactly its length, on the heap
  const hosts::NeighborFrame parsed = hosts::parse_neighbor_frame(frame);
  const hosts::Response r = hosts::respond(table, parsed);
  if ((r.verdict == hosts::RxVerdict::kAnswered) != !r.replies.empty()) std::abort();
  for (const hosts::Frame& reply : r.replies) {
    const hosts::NeighborFrame back = hosts::parse_neighbor_frame(reply);
    if (back.kind == hosts::FrameKind::kNone) std::abort();
  }
  // The port as the data plane drives it (DAD, the resolver, conflict detection), started
  // afresh so that a frame meets tentative addresses and gateways being asked.
  hosts::PortHosts port(port_hosts(), hosts::PortHostsConfig{});
  port.start(0);
  port.on_frame(frame, 1);
  port.poll(2'000'000'000);
  port.on_frame(frame, 2'000'000'001);
  (void)port.take_events();
  (void)port.unresolved();
  return 0;
}
