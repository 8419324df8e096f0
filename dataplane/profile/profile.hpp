#pragma once
// The profile: what the user asked for, as read from TOML and validated. Defaults are
// member initialisers; config/README.md documents every key with its unit and default.
// Its streams are the contract's StreamSpec (api/stream_spec.hpp). Linked by both programs.

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dataplane/api/stream_spec.hpp"

namespace lr::profile {


enum class HugePages : uint8_t { kAuto, kOn, kOff };

struct EalCfg {
  std::string lcores = "0-1";            ///< EAL --lcores; the first lcore is the main (mgmt) lcore
  uint32_t memory_mb = 512;              ///< EAL -m
  std::string file_prefix = "linerate"; ///< EAL --file-prefix (hugepage runs)
  HugePages huge_pages = HugePages::kAuto;  ///< auto: hugepages when /proc/meminfo has free ones
  /// EAL --huge-unlink: the hugepage files go as soon as they are mapped, so the pages
  /// return when the process ends, however it ends; false keeps them for secondary
  /// processes (dpdk-proc-info, dpdk-pdump) and removes them at exit instead.
  bool huge_unlink = true;
  bool allow_cross_numa = false;         ///< accept lcores on another socket than their port
  std::vector<std::string> extra_args;   ///< appended verbatim to the EAL arguments
};

struct ControlCfg {
  std::string socket = "/run/linerate/dataplane.sock";  ///< --serve: the control socket
  std::string group;  ///< also let members of this group connect (root and our own uid always may)
};

/// The most bins a timeline holds: 10 minutes of 1 ms bins, 4.8 MB per stream and lcore.
inline constexpr uint64_t kMaxTimelineBins = 600'000;

struct RunCfg {
  uint64_t drain_ns = 500'000'000;   ///< RX keeps polling this long after TX stops
  bool live = true;                  ///< print a line per second while traffic runs
  uint64_t timeline_bin_ns = 0;      ///< frames counted per stream in bins this wide; 0: no timeline
  uint64_t timeline_span_ns = 0;     ///< how long the bins cover; 0: the streams' longest run and the drain
};

/// The path a port's MAC Control frames take on transmit.
enum class MacControlTx : uint8_t { kAuto, kPmd, kNetdev };

struct PortCfg {
  std::string name;
  std::string device;               ///< PCI address, or a vdev string such as "net_ring0"
  uint16_t rx_queues = 1;
  uint16_t tx_queues = 1;
  uint16_t rx_descriptors = 1024;
  uint16_t tx_descriptors = 1024;
  uint16_t mtu = 0;                 ///< 0: leave the port's MTU as it is
  bool promiscuous = true;
  bool checksum_offload = true;     ///< let the port compute IPv4/UDP checksums when it can
  uint64_t speed_bps = 0;           ///< 0: use the link speed the port reports
  std::vector<unsigned> rx_lcores;  ///< RX queue q -> rx_lcores[q % size]; empty: automatic
  std::vector<unsigned> tx_lcores;  ///< TX queue q -> tx_lcores[q % size]; empty: automatic
  /// Link speed negotiation at configuration: unset leaves the port's default (autoneg,
  /// every speed); false forces `speed`; true advertises `speed` only (or every speed).
  std::optional<bool> autoneg;
  // Port control applied at start-up (after the port is up), each read back:
  std::string fec;                  ///< "", or off / baser / rs / llrs / auto
  std::string pause;                ///< "", or rx / tx / both / off (802.3x)
  std::optional<std::vector<unsigned>> pfc_priorities;  ///< PFC on these priorities ([]: PFC off)
  /// React in software to PFC / PAUSE frames received here: a priority's XOFF holds the
  /// port's TX lanes of that priority (PAUSE: all of them) for the time its quanta ask.
  bool pfc_honour = false;
  /// How its MAC Control streams (PFC, PAUSE) leave: through the PMD, through the port's
  /// kernel netdev (AF_PACKET), or automatically (the PMD unless it is known to drop them).
  MacControlTx mac_control_tx = MacControlTx::kAuto;
  /// Between a frame's arrival and the pause taking effect: as quanta at the port's speed,
  /// or as nanoseconds (one of the two).
  std::optional<uint32_t> pfc_reaction_delay_quanta;
  uint64_t pfc_reaction_delay_ns = 0;
  /// DSCP -> priority, for the streams without a VLAN tag (whose PCP is their priority).
  std::map<uint8_t, uint8_t> dscp_to_priority;
  std::vector<std::string> flow_rules;  ///< rte_flow rules in the flow language (dataplane/port/flow)
  bool flow_isolate = false;        ///< only traffic the rules steer reaches the queues
  bool keep = false;                ///< the settings above stay on the host after exit (else restored)
  api::SourceLoc loc;
  std::map<std::string, api::SourceLoc, std::less<>> key_locs;  ///< each key's own place in the file
  api::SourceLoc loc_of(std::string_view key) const {
    const auto it = key_locs.find(key);
    return it == key_locs.end() ? loc : it->second;
  }
};

/// The PFC priority a stream's frames carry as its TX port sees it: the outer VLAN
/// tag's PCP, else the DSCP through the port's dscp_to_priority; none for MAC Control
/// frames and untagged frames whose DSCP the map does not name.
std::optional<uint8_t> stream_priority(const api::StreamSpec& stream, const PortCfg& tx_port);


/// One port of a software switch: a device (most often one end of an in-process cable,
/// "cable:NAME"), its speed, and how fast it may send.
/// The cable a device string names ("cable:NAME": one end of an in-process cable between
/// two ports of this data plane, tester or switch), or none.
std::optional<std::string> cable_name(std::string_view device);

struct SwitchPortCfg {
  std::string name;
  std::string device;
  uint64_t speed_bps = 0;          ///< 0: the link's
  std::optional<api::Rate> shape;       ///< egress shaping (a share of the speed, or L1 bit/s); none: the speed
  api::SourceLoc loc;
};

enum class SwitchClassify : uint8_t { kPcp, kDscp };

/// `[[switch]]`: the software lossless switch, a reference device under test run on its
/// own lcore (dataplane/switch). Sizes in bytes, times in nanoseconds.
struct SwitchCfg {
  std::string name;
  std::optional<unsigned> lcore;   ///< none: the last worker lcore
  std::vector<SwitchPortCfg> ports;
  std::map<std::string, std::string> forward;  ///< ingress port -> egress port (static forwarding)
  bool learn = false;               ///< forward by learned destination MAC; unknown and group ones flood
  SwitchClassify classify = SwitchClassify::kPcp;
  std::map<uint8_t, uint8_t> dscp_to_priority;  ///< classify = "dscp": unnamed DSCPs are priority 0
  uint8_t lossless = 0;             ///< bit p: priority p is lossless
  uint64_t buffer_bytes = 1'000'000;
  uint64_t queue_limit_bytes = 200'000;
  uint64_t xoff_bytes = 40'000;
  uint64_t xon_bytes = 20'000;
  uint64_t headroom_bytes = 40'000;
  uint16_t pfc_quanta = 65535;
  uint64_t pfc_refresh_ns = 0;      ///< 0: half the pause the quanta ask
  /// Priorities whose PFC pauses its egress queues (unset: the lossless ones, or all
  /// eight when none is lossless); 802.3x PAUSE obeyed (unset: only without lossless
  /// priorities, as a port runs PFC or PAUSE, not both); the delay before either acts.
  std::optional<uint8_t> pfc_honour;
  std::optional<bool> pause_honour;
  uint64_t pause_reaction_ns = 0;
  bool ecn = false;
  uint64_t ecn_kmin_bytes = 0;
  uint64_t ecn_kmax_bytes = 0;
  double ecn_pmax = 0;              ///< 0..1
  bool watchdog = false;
  uint64_t watchdog_detect_ns = 0;
  uint64_t watchdog_restore_ns = 0;
  bool watchdog_forward = false;    ///< false: drop during a storm
  uint64_t seed = 1;                ///< the ECN marking sequence
  api::SourceLoc loc;
  std::map<std::string, api::SourceLoc, std::less<>> key_locs;
  api::SourceLoc loc_of(std::string_view key) const {
    const auto it = key_locs.find(key);
    return it == key_locs.end() ? loc : it->second;
  }
};

struct Profile {
  std::string path;  ///< file the profile was read from, for messages
  EalCfg eal;
  RunCfg run;
  ControlCfg control;
  std::vector<PortCfg> ports;
  std::vector<api::StreamSpec> streams;
  std::vector<SwitchCfg> switches;

  const PortCfg* find_port(const std::string& name) const noexcept;
};

/// Bytes of Ethernet/VLAN/IP/UDP headers the stream's frames carry (no FCS), with the
/// BTH and its extended header for RoCEv2; for a MAC Control stream its Ethernet header
/// and MAC Control fields.
uint16_t header_bytes(const api::StreamSpec& stream) noexcept;

/// Smallest frame (incl. FCS) that holds the stream's headers and the signature; for
/// RoCEv2 also the ICRC, with a payload of whole 4-byte words.
uint16_t min_frame_bytes(const api::StreamSpec& stream) noexcept;

/// RoCEv2: the payload bytes (signature included, ICRC not) of a frame of `frame_bytes`.
uint16_t roce_payload_bytes(const api::StreamSpec& stream, uint16_t frame_bytes) noexcept;

/// "" unless `stream` is RoCEv2 and a frame of `frame_bytes` (at least its smallest) has a
/// payload that is not whole 4-byte words; then why, and the two sizes nearest that fit.
std::string roce_frame_size_problem(const api::StreamSpec& stream, uint16_t frame_bytes);

}  // namespace lr::profile
