#pragma once
// Turns a validated StreamCfg into its immutable TxStreamPlan: the template frame
// bytes, one SizeEntry per frame size with its checksum bases, the IMIX schedule and the
// field variations. Pure: no DPDK, so the frame bytes are unit-tested against
// known-good frames.

#include <cstdint>
#include <vector>

#include "dataplane/profile/profile.hpp"
#include "dataplane/wire/tx_stream_plan.hpp"

namespace lr::plan {

wire::TxStreamPlan build_stream_plan(const profile::StreamCfg& stream, uint16_t stream_id);

/// Weighted, interleaved order of size indexes (smooth weighted round robin), so a
/// 7:4:1 IMIX does not send its seven small frames back to back.
std::vector<uint16_t> imix_schedule(const std::vector<uint32_t>& weights);

}  // namespace lr::plan
