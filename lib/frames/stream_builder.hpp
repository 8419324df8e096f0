#pragma once
// Turns a validated StreamSpec into its immutable TxStreamPlan: the template frame
// bytes, one SizeEntry per frame size with its checksum bases, the IMIX schedule and the
// field variations. Pure: no DPDK, so the frame bytes are unit-tested against
// known-good frames.

#include <cstdint>
#include <string>
#include <vector>

#include "lib/profile/profile.hpp"
#include "lib/wire/tx_stream_plan.hpp"

namespace lr::plan {

wire::TxStreamPlan build_stream_plan(const api::StreamSpec& stream, uint16_t stream_id);

/// UDP port 4791 is RoCEv2's: analysers and RoCE-aware devices read what follows the UDP
/// header as an InfiniBand BTH. A warning for a stream that sends there (or from there)
/// a plain signed payload, which they would take for a malformed RoCEv2 frame; "" otherwise.
std::string roce_port_warning(const api::StreamSpec& stream);

/// A RoCEv2 stream's headers in words, for the plan: opcode, QP, P_Key, first PSN.
std::string describe_roce(const api::RoceSpec& roce);

/// Weighted, interleaved order of size indexes (smooth weighted round robin), so a
/// 7:4:1 IMIX does not send its seven small frames back to back.
std::vector<uint16_t> imix_schedule(const std::vector<uint32_t>& weights);

}  // namespace lr::plan
