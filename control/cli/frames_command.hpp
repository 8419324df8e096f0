#pragma once
// `linerate frames PROFILE`: the frames a profile's streams will send, exactly (the TX
// loop's own writer), without sending them: as a hex dump, one hex line per frame, JSON,
// or a pcap file for Wireshark / tshark. Needs no data plane.

#include <cstdint>
#include <string>

namespace lr::ctl {

struct FramesOptions {
  std::string profile_path;
  std::string stream;     ///< "" : every stream
  uint64_t count = 4;     ///< frames per stream
  std::string pcap_path;  ///< "" : print them
  bool hex = false;       ///< one line of hex per frame
  bool as_json = false;
};

/// Returns the exit code: 0, 2 (a bad profile or stream name), 4 (the pcap file).
int show_frames(const FramesOptions& options);

}  // namespace lr::ctl
