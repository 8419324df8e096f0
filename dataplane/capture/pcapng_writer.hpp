#pragma once
// A pcapng file (draft-ietf-opsawg-pcapng): a section header, an interface block per
// captured port (its name, driver and speed, nanosecond timestamps), an enhanced packet
// block per frame with a comment, and interface statistics at the end. Written here and
// not with rte_pcapng: DPDK 22.11's writes no per-packet comment (the stream, sequence
// number and latency of a signed frame, the event a trigger caught) and names every ethdev
// port of the process, not the one captured. Pure: no DPDK.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "lib/common/result.hpp"

namespace lr::capture {

enum class Direction : uint8_t { kUnknown = 0, kInbound = 1, kOutbound = 2 };

struct PcapngInterface {
  std::string name;         ///< if_name: the port's name in the profile
  std::string description;  ///< if_description: device and driver
  uint64_t speed_bps = 0;   ///< if_speed; 0: left out
  uint32_t snaplen = 0;     ///< the most bytes of a frame kept (0: no limit)
};

struct PcapngStatistics {
  uint64_t start_ns = 0;    ///< UTC nanoseconds
  uint64_t end_ns = 0;
  uint64_t received = 0;    ///< isb_ifrecv: frames the capture saw (matching its filter)
  uint64_t dropped = 0;     ///< isb_ifdrop: of those, not written (the capture could not keep up)
  std::string comment;
};

class PcapngWriter {
 public:
  /// Creates (truncates) `path` and writes the section header naming `application`.
  static Result<PcapngWriter> create(const std::string& path, std::string_view application, std::string_view os);

  /// The interface id the packet and statistics blocks name.
  uint32_t add_interface(const PcapngInterface& interface);
  /// One frame: `data` is what was kept of its `wire_bytes` (without FCS); `utc_ns` its
  /// time; `comment` empty for none.
  void packet(uint32_t interface, uint64_t utc_ns, std::span<const uint8_t> data, uint32_t wire_bytes,
              Direction direction, std::string_view comment);
  void statistics(uint32_t interface, uint64_t utc_ns, const PcapngStatistics& stats);
  /// Writes what is buffered; an error (a full disk) names the file.
  Result<void> flush();
  /// Flushes and closes; the file is complete.
  Result<void> close();

  uint64_t bytes_written() const noexcept { return bytes_; }

 private:
  struct FileCloser {
    void operator()(std::FILE* f) const noexcept { std::fclose(f); }
  };
  PcapngWriter(std::unique_ptr<std::FILE, FileCloser> file, std::string path)
      : file_(std::move(file)), path_(std::move(path)) {}
  void block(uint32_t type, std::span<const uint8_t> body);

  std::unique_ptr<std::FILE, FileCloser> file_;
  std::string path_;
  uint32_t interfaces_ = 0;
  uint64_t bytes_ = 0;
};

}  // namespace lr::capture
