#pragma once
// A capture as the two programs agree on it: what `linerate capture` asks the data plane
// for (capture.start), and what the data plane says of it (capture.list, capture.stop,
// the run report). The frames a port receives, filtered, into a pcapng file the data
// plane writes.

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace lr::api {

struct CaptureSpec {
  std::string port;
  std::string file;          ///< absolute path, written by the data plane
  std::string filter;        ///< tcpdump (libpcap) syntax; empty: every frame
  std::string direction = "rx";  ///< rx (what the port receives), tx (what it sends) or both
  uint32_t snaplen = 1518;   ///< the most bytes of a frame kept (64-16384)
  uint64_t count = 0;        ///< frames written, then the capture ends; 0: no limit
  uint64_t duration_ns = 0;  ///< from its start, then the capture ends; 0: no limit
  /// "", or loss / ooo / dup / any: keep only the frames of `trigger_stream` around the
  /// first such event in its sequence: `before` frames, the one that showed it, `after`.
  std::string trigger;
  std::string trigger_stream;
  uint32_t before = 0;
  uint32_t after = 0;

  bool operator==(const CaptureSpec&) const = default;
};

struct CaptureReport {
  uint32_t id = 0;
  CaptureSpec spec;
  std::string state;          ///< "capturing", or "done: <why it ended>"
  std::string started_at;     ///< UTC, ISO 8601
  uint64_t matched = 0;       ///< frames received that the filter kept
  uint64_t captured = 0;      ///< of those, written to the file
  uint64_t capture_dropped = 0;  ///< of those, dropped: the writer could not keep up (the traffic never is)
  uint64_t file_bytes = 0;
  std::string error;          ///< the file could not be written: why
  std::string trigger_event;  ///< what the trigger caught ("first loss: expected seq 500, got 501; missing: 500"), if it fired
  std::string trigger_fired_at;  ///< UTC, ISO 8601 with nanoseconds: the time of the frame that showed it

  bool operator==(const CaptureReport&) const = default;
};

nlohmann::json to_json(const CaptureSpec& spec);
nlohmann::json to_json(const CaptureReport& report);
/// Throw nlohmann::json::exception on a field of the wrong type, naming it.
CaptureSpec capture_spec_from_json(const nlohmann::json& j);
CaptureReport capture_report_from_json(const nlohmann::json& j);
std::vector<CaptureReport> capture_reports_from_json(const nlohmann::json& j);

}  // namespace lr::api
