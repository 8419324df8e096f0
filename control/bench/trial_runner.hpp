#pragma once
// One benchmark trial on the data plane (RFC 2544 §23): the profile's streams at one
// frame size and one offered load (% of each port's line rate) for the trial's duration,
// then stop, the data plane's drain, and only then the counters, so loss is exact. What
// the trial offered is what TX measurably sent; a trial the tester itself could not
// drive (a stream short of its target) or whose link went down is marked invalid.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "control/bench/throughput_search.hpp"
#include "control/client/dataplane_client.hpp"

namespace lr::bench {

struct TrialSpec {
  uint16_t frame_size = 64;
  double percent = 100;     ///< of each stream's port line rate
  uint64_t duration_ns = 0;
};

struct Trial {
  TrialSpec spec;
  TrialResult result;        ///< what the search needs
  double offered_pps = 0;    ///< all streams, measured
  double offered_l1_bps = 0;
  uint64_t tx_packets = 0;
  uint64_t rx_packets = 0;
  int64_t lost = 0;
  bool interrupted = false;  ///< stopped early by Ctrl-C
  std::string invalid_reason;
  nlohmann::json report;     ///< the data plane's run report of the trial
};

class TrialRunner {
 public:
  /// `profile_text`: the profile the streams come from (its [[stream]] tables).
  TrialRunner(ctl::DataplaneClient& client, std::string profile_text, std::string profile_path);
  /// Runs one trial; returns early (interrupted) on a stop request. Throws what the
  /// client throws (a data plane that refuses or disappears).
  Trial run(const TrialSpec& spec);

 private:
  std::string streams_at(const TrialSpec& spec) const;

  ctl::DataplaneClient& client_;
  std::string profile_text_;
  std::string profile_path_;
};

}  // namespace lr::bench
