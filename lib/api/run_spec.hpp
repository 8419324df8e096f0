#pragma once
// How a run runs, as the two programs agree on it: the profile's [run] section, and what
// stream.load may send with the streams (profile/run_spec_json.hpp gives its JSON form).

#include <cstdint>
#include <optional>
#include <string_view>

namespace lr::api {

/// The most bins a timeline holds: 10 minutes of 1 ms bins, 4.8 MB per stream and lcore.
inline constexpr uint64_t kMaxTimelineBins = 600'000;

/// Where a run's TX frames are built ([run] tx_buffers). A pool of mbufs filled with its
/// stream's frame lets the TX loop write per frame only what changes (the fastest path),
/// but costs each stream its own pool: 16 k mbufs and three memzones, of which DPDK has
/// 2,560. Shared pools, one per TX port, hold any number of streams in a few MiB, and
/// each frame is copied whole from its stream's template.
enum class TxBuffers : uint8_t {
  kAuto,       ///< a pool per stream while kMaxStreamPools and the memory hold them, else shared
  kPerStream,  ///< a pool per stream, filled with its frame
  kShared,     ///< one pool per TX port; each frame copied from its stream's template
};

/// TX lanes an lcore looks at one by one every iteration; with more, it visits each when
/// its next frame is due (a deadline schedule, O(log lanes) a burst): a look costs ~23 ns,
/// so 10,000 lanes scanned took 230 us an iteration, in which RX rings overflow.
inline constexpr uint32_t kScannedLanes = 64;

/// The most streams `auto` gives a pool each (three memzones a pool, of DPDK's 2,560).
inline constexpr uint64_t kMaxStreamPools = 256;

inline constexpr std::string_view tx_buffers_name(TxBuffers b) noexcept {
  return b == TxBuffers::kAuto ? "auto" : b == TxBuffers::kPerStream ? "per_stream" : "shared";
}

inline std::optional<TxBuffers> tx_buffers_from_name(std::string_view name) noexcept {
  for (TxBuffers b : {TxBuffers::kAuto, TxBuffers::kPerStream, TxBuffers::kShared})
    if (tx_buffers_name(b) == name) return b;
  return std::nullopt;
}

struct RunSpec {
  uint64_t drain_ns = 500'000'000;   ///< RX keeps polling this long after TX stops
  bool live = true;                  ///< print a line per second while traffic runs
  uint64_t timeline_bin_ns = 0;      ///< frames counted per stream in bins this wide; 0: no timeline
  uint64_t timeline_span_ns = 0;     ///< how long the bins cover; 0: the streams' longest run and the drain
  TxBuffers tx_buffers = TxBuffers::kAuto;

  bool operator==(const RunSpec&) const = default;
};

}  // namespace lr::api
