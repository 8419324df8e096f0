#pragma once
// Line-rate arithmetic (DESIGN.md). A frame size always includes the 4-byte FCS; on the
// wire each frame also costs 20 bytes of preamble, SFD and inter-frame gap.

#include <cstdint>

namespace lr {

inline constexpr uint32_t kFcsBytes = 4;
inline constexpr uint32_t kWireOverheadBytes = 20;  // preamble 7 + SFD 1 + IFG 12
inline constexpr uint32_t kMinFrameBytes = 64;

/// Frames per second a link of `link_bps` carries at `frame_bytes` (incl. FCS).
constexpr double line_rate_pps(uint64_t link_bps, double frame_bytes) noexcept {
  return static_cast<double>(link_bps) / ((frame_bytes + kWireOverheadBytes) * 8.0);
}

/// L1 bit/s (what the link carries, preamble and gap included) for `pps` frames.
constexpr double l1_bps(double pps, double frame_bytes) noexcept {
  return pps * (frame_bytes + kWireOverheadBytes) * 8.0;
}

/// L2 bit/s (frame bytes with FCS) for `pps` frames.
constexpr double l2_bps(double pps, double frame_bytes) noexcept {
  return pps * frame_bytes * 8.0;
}

}  // namespace lr
