#pragma once
// A stream as the two programs agree on it: what frames, from which port to which, how
// fast and how many. The profile's [[stream]] tables, the RPC's stream.load and the
// suites' trials all become a StreamSpec; its JSON form (profile/stream_spec_json.hpp)
// has the profile's keys, so one schema (config/README.md) holds in a file and on the wire.

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lr::api {

/// Where a value came from, for error messages that a person can act on.
struct SourceLoc {
  uint32_t line = 0;
  uint32_t column = 0;

  bool operator==(const SourceLoc&) const = default;
};

enum class RateKind : uint8_t { kPercentOfLine, kL1Bps, kL2Bps, kPps, kMax };

struct Rate {
  RateKind kind = RateKind::kPercentOfLine;
  double value = 100.0;  ///< percent, bit/s or packets/s according to kind

  bool operator==(const Rate&) const = default;
};

enum class FrameSizeKind : uint8_t { kFixed, kImix, kRange };
enum class RangeOrder : uint8_t { kRandom, kIncrement };

struct FrameSizeSpec {
  FrameSizeKind kind = FrameSizeKind::kFixed;
  std::vector<uint16_t> sizes{64};   ///< bytes incl. FCS; one entry for kFixed
  std::vector<uint32_t> weights;     ///< kImix: relative weight of each size
  uint16_t min = 64;                 ///< kRange
  uint16_t max = 64;                 ///< kRange
  RangeOrder order = RangeOrder::kRandom;

  uint16_t smallest() const noexcept;
  uint16_t largest() const noexcept;
  /// Mean frame size of the mix (bytes incl. FCS), for rate conversions.
  double mean() const noexcept;

  bool operator==(const FrameSizeSpec&) const = default;
};

struct BurstSpec {
  uint32_t packets = 0;     ///< frames sent back to back
  uint64_t interval_ns = 0; ///< from one burst start to the next

  bool operator==(const BurstSpec&) const = default;
};

/// kUdpSrc / kUdpDst are the L4 ports: a TCP stream's too ("tcp.src", "tcp.dst").
enum class VaryField : uint8_t {
  kEthSrc, kEthDst, kVlanId, kIpSrc, kIpDst, kUdpSrc, kUdpDst,
};
enum class VaryOp : uint8_t { kIncrement, kDecrement, kRandom, kList };

inline constexpr size_t kMaxVaryValues = 65536;  ///< the longest list of values a field takes

struct VarySpec {
  VaryField field = VaryField::kIpSrc;
  VaryOp op = VaryOp::kIncrement;
  uint32_t count = 1;  ///< distinct values, starting at the header's own value (kList: values.size())
  uint32_t step = 1;
  /// kList: the field's values in turn, frame n taking values[n mod size]: a MAC as 48
  /// bits, an IPv4 address, an IPv6 address's low 32 bits (its high 96 are the header's),
  /// a VLAN id or a UDP port.
  std::vector<uint64_t> values;

  bool operator==(const VarySpec&) const = default;
};

using MacAddr = std::array<uint8_t, 6>;
using Ipv6Addr = std::array<uint8_t, 16>;

struct VlanSpec {
  uint16_t id = 0;
  uint8_t pcp = 0;

  bool operator==(const VlanSpec&) const = default;
};

struct Ipv4Spec {
  uint32_t src = 0xC6120001;  ///< 198.18.0.1 (RFC 2544 benchmarking range), host order
  uint32_t dst = 0xC6130001;  ///< 198.19.0.1
  uint8_t dscp = 0;
  uint8_t ecn = 0;
  uint8_t ttl = 64;

  bool operator==(const Ipv4Spec&) const = default;
};

struct Ipv6Spec {
  Ipv6Addr src{0x20, 0x01, 0x02, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};  ///< 2001:200::1 (RFC 5180)
  Ipv6Addr dst{0x20, 0x01, 0x02, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
  uint8_t dscp = 0;
  uint8_t ecn = 0;
  uint8_t hop_limit = 64;
  uint32_t flow_label = 0;

  bool operator==(const Ipv6Spec&) const = default;
};

struct UdpSpec {
  uint16_t src = 1024;
  uint16_t dst = 1024;

  bool operator==(const UdpSpec&) const = default;
};

/// `tcp = { ... }`: the stream's L4 header is TCP instead of UDP, the same in every frame
/// (a stateless segment: no handshake, one sequence number), the signature ending its
/// payload. For fabrics that hash, police or count TCP apart from UDP.
struct TcpSpec {
  uint16_t src = 1024;
  uint16_t dst = 1024;
  uint32_t seq = 0;
  uint32_t ack = 0;
  uint8_t flags = 0x10;     ///< FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08, ACK 0x10, URG 0x20, ECE 0x40, CWR 0x80
  uint16_t window = 65535;

  bool operator==(const TcpSpec&) const = default;
};

enum class IpVersion : uint8_t { kV4, kV6 };

/// What a stream's frames are: signed UDP over IPv4 / IPv6 (the default), or MAC Control
/// frames: 802.1Qbb priority flow control or 802.3x PAUSE.
enum class StreamKind : uint8_t { kUdp, kPfc, kPause };

/// The MAC Control frame of a `kind = "pfc"` or `"pause"` stream. One quantum is 512 bit
/// times at the link's speed; quanta 0 is XON (resume).
struct MacControlSpec {
  std::array<uint16_t, 8> quanta{};  ///< PFC: per priority; PAUSE: [0]
  uint8_t class_enable = 0;          ///< PFC: bit n set = priority n's quanta apply
  bool refresh_auto = false;         ///< rate: often enough to hold the pause (half its time)
  uint16_t opcode = 0;               ///< 0: the kind's own (0x0101 PFC, 0x0001 PAUSE)
  bool reserved_bits = false;        ///< PFC: the class-enable vector's reserved high byte set

  uint16_t max_quanta() const noexcept;

  bool operator==(const MacControlSpec&) const = default;
};


/// `roce = { ... }` on a UDP stream: its datagrams are RoCEv2 packets to UDP port 4791,
/// one whole message each (a *-only opcode): BTH, RETH (writes) or DETH (UD), the
/// payload with the signature at its end, and the ICRC.
struct RoceSpec {
  uint8_t opcode = 0x04;        ///< BTH opcode (wire::kRoceOpcodes)
  uint16_t pkey = 0xFFFF;       ///< the default partition
  uint32_t dest_qp = 1;         ///< 24 bits
  uint32_t psn = 0;             ///< the first frame's; each next frame of a lane the next (24 bits)
  uint64_t va = 0;              ///< RETH: virtual address
  uint32_t rkey = 0;            ///< RETH: R_Key
  uint32_t qkey = 0;            ///< DETH: Q_Key
  uint32_t src_qp = 1;          ///< DETH: source QP, 24 bits

  uint16_t extended_bytes() const noexcept;  ///< RETH or DETH, by the opcode

  bool operator==(const RoceSpec&) const = default;
};


struct StreamSpec {
  std::string name;
  std::string tx_port;
  std::optional<std::string> rx_port;  ///< none: transmit-only, the receiver is elsewhere
  StreamKind kind = StreamKind::kUdp;
  MacControlSpec mac_control;           ///< kind kPfc / kPause
  FrameSizeSpec frame;
  Rate rate;
  uint64_t count = 0;        ///< frames in total; 0 with duration_ns 0: continuous
  uint64_t duration_ns = 0;
  uint64_t start_after_ns = 0;  ///< begins this long after the run's start (paced streams only)
  std::optional<BurstSpec> burst;
  uint16_t lanes = 1;        ///< TX queues (and so lcores) the stream is spread over
  /// After its lcore was held up, a paced stream sends what it owes at once (up to 100 us
  /// of frames, at least 64); false: at most 4 frames more, then its rate from then on (RFC
  /// 2889's learning frames: a burst of new addresses is not the rate asked).
  bool catch_up = true;
  uint64_t late_ns = 10'000'000;  ///< a frame slower than this counts as late
  /// Sent by another data plane (its TX port is there): this one only receives and counts
  /// it, as the stream of that id. Its lanes never send; tx_port names one of this data
  /// plane's ports, for its place in the plan only.
  bool receive_only = false;
  /// A received stream's frames carry its sender's clock: this (our latency clock's offset
  /// from UTC minus the sender's) puts them on ours, so its latency is one-way across data
  /// planes. Set by a controller that found both clocks on one PTP grandmaster (receive_only
  /// only); none: the stamps are not on our clock, and its latency is withheld.
  std::optional<int64_t> latency_shift_ns;
  MacAddr eth_src{0x02, 0, 0, 0, 0, 1};
  MacAddr eth_dst{0x02, 0, 0, 0, 0, 2};
  /// eth.src = "auto": the MAC of the emulated host whose address is the stream's IP source
  /// on its TX port (a [[device]]); eth.dst = "auto": the MAC its next hop resolved to (the
  /// destination on the host's subnet, else the host's gateway). The data plane writes
  /// them into eth_src / eth_dst at each start.
  bool eth_src_auto = false;
  bool eth_dst_auto = false;
  std::optional<VlanSpec> vlan;
  IpVersion ip_version = IpVersion::kV4;
  Ipv4Spec ipv4;
  Ipv6Spec ipv6;
  UdpSpec udp;
  std::optional<TcpSpec> tcp;  ///< TCP instead of UDP (then `udp` is not used)
  std::optional<RoceSpec> roce;
  std::vector<VarySpec> vary;
  SourceLoc loc;
  std::map<std::string, SourceLoc, std::less<>> key_locs;  ///< each key's own place in the file
  std::string file;  ///< the file (or RPC text) it was read from, for errors found later
  SourceLoc loc_of(std::string_view key) const {
    const auto it = key_locs.find(key);
    return it == key_locs.end() ? loc : it->second;
  }

  bool operator==(const StreamSpec&) const = default;
};

/// The mean frame of a mix: sizes weighted by their share.
double weighted_mean(const std::vector<uint16_t>& sizes, const std::vector<uint32_t>& weights) noexcept;

}  // namespace lr::api
