#pragma once
// The software lossless switch (dataplane/switch) as the two programs agree on it: the
// profile's [[switch]] tables, and what switch.list sends (profile/switch_spec_json.hpp
// gives the JSON form).

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/api/stream_spec.hpp"

namespace lr::api {

/// One port of a software switch: a device (most often one end of an in-process cable,
/// "cable:NAME"), its speed, and how fast it may send.
struct SwitchPortSpec {
  std::string name;
  std::string device;
  uint64_t speed_bps = 0;          ///< 0: the link's
  std::optional<Rate> shape;       ///< egress shaping (a share of the speed, or L1 bit/s); none: the speed
  SourceLoc loc;

  bool operator==(const SwitchPortSpec&) const = default;
};

/// The most ports a switch has (an egress port is a byte in its queues' entries), and
/// the most addresses its table holds.
inline constexpr size_t kMaxSwitchPorts = 256;
inline constexpr uint32_t kMaxMacTableSize = 1u << 20;

enum class SwitchClassify : uint8_t { kPcp, kDscp };

/// `[[switch]]`: the software lossless switch, a reference device under test run on its
/// own lcore (dataplane/switch). Sizes in bytes, times in nanoseconds.
struct SwitchSpec {
  std::string name;
  std::optional<unsigned> lcore;   ///< none: the last worker lcore
  std::vector<SwitchPortSpec> ports;
  std::map<std::string, std::string> forward;  ///< ingress port -> egress port (static forwarding)
  bool learn = false;               ///< forward by learned destination MAC; unknown and group ones flood
  uint32_t mac_table_size = 8192;   ///< learn: the addresses its table holds at most
  uint64_t learn_rate = 0;          ///< learn: new addresses per second at most (0: no limit)
  uint64_t mac_age_ns = 300'000'000'000;  ///< learn: an address not seen this long is forgotten (0: never)
  bool input_queued = false;        ///< one FIFO per ingress port (head-of-line blocking) instead of egress queues
  uint32_t max_frame_bytes = 0;     ///< longer frames (incl. FCS) are dropped at ingress; 0: no limit
  /// The emulation's own: how far its ports catch up after its lcore was held up (what
  /// came meanwhile spread over the stall, the egress sending what it could have).
  uint64_t catch_up_ns = 5'000'000;
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
  SourceLoc loc;
  std::map<std::string, SourceLoc, std::less<>> key_locs;
  SourceLoc loc_of(std::string_view key) const {
    const auto it = key_locs.find(key);
    return it == key_locs.end() ? loc : it->second;
  }

  bool operator==(const SwitchSpec&) const = default;
};

}  // namespace lr::api
