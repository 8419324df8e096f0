#pragma once
// The frames a stream will send, built by the TX loop's own writer (template, varying
// fields, lengths, checksums, signature) but into a buffer instead of mbufs: what
// `linerate frames` shows and writes as pcap before anything is sent. Pure: no DPDK.

#include <cstdint>
#include <vector>

#include "lib/profile/profile.hpp"

namespace lr::plan {

struct PreviewFrame {
  uint8_t lane = 0;
  uint64_t seq = 0;
  std::vector<uint8_t> bytes;  ///< as on the wire, without the FCS the NIC appends
};

/// The first `count` frames of lane 0 of `stream` (stream id `stream_id`: its index in
/// the profile), with TX timestamps 0: the real ones are written at send time.
std::vector<PreviewFrame> preview_frames(const api::StreamSpec& stream, uint16_t stream_id, uint64_t count);

}  // namespace lr::plan
