#pragma once
// The optics watch's history: per port, a bounded ring on disk of JSON lines, one per
// interval (the port's status, control/suites/optics/port_status_json.hpp), that survives
// restarts. The ring is two files, PORT.jsonl and the older PORT.jsonl.1: when the first
// holds half the bound it becomes the second, so a port never keeps more than the bound
// and never less than half of it. A module's thresholds are written when they change (the
// watch's first line, a module swapped), not on every line; reading carries them forward.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace lr::optics {

/// `port` as a file name, one to one: letters, digits, '-', '_' and a '.' not first kept,
/// every other byte %XX ("0000:3b:00.0" -> "0000%3A3b%3A00.0").
std::string history_file_stem(const std::string& port);

class OpticsHistory {
 public:
  OpticsHistory(std::filesystem::path dir, size_t max_lines);

  /// Appends `status` (a port_status_json) to its port's ring. "" or why it could not be written.
  std::string append(const nlohmann::json& status);

 private:
  struct Ring {
    size_t lines = 0;             ///< in the newer file
    std::string thresholds;       ///< last written, as JSON text
    std::string module_serial;    ///< of the module they belong to
  };
  Ring& ring(const std::string& port);

  std::filesystem::path dir_;
  size_t max_lines_;
  std::map<std::string, Ring> rings_;
};

struct HistoryRead {
  std::vector<nlohmann::json> lines;  ///< oldest first, each with its module's thresholds
  size_t unreadable = 0;              ///< lines that are not JSON objects (a torn write), skipped
  std::string error;                  ///< no history for the port, or why it could not be read
};

/// The port's history, oldest first.
HistoryRead read_history(const std::filesystem::path& dir, const std::string& port);

}  // namespace lr::optics
