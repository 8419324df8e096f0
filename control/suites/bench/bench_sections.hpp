#pragma once
// The benchmark suites' sections of a profile, [rfc2544], [ndr] and [lossless]: what each
// key means, read with the profile's own table reader (file:line:column errors, a typo
// refused) and checked against the profile's ports and streams before any traffic. The
// data plane ignores these sections; the suites read them here.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "control/suites/bench/mlr_search.hpp"
#include "lib/profile/profile.hpp"

namespace lr::bench {

/// A frame size a benchmark procedure runs at: one size, or a mix (IMIX) whose mean
/// the rates refer to. `name` is how reports call it ("64", "imix").
struct BenchFrameSize {
  std::string name;
  std::vector<uint16_t> sizes;    ///< bytes incl. FCS
  std::vector<uint32_t> weights;  ///< empty: one fixed size

  bool is_mix() const noexcept { return sizes.size() > 1; }
  uint16_t largest() const noexcept;
  double mean() const noexcept;
};

/// What every search procedure shares (`[rfc2544]`, `[ndr]`): the procedures run over
/// the profile's streams, which give the layout (ports, directions, headers); frame
/// size and load are what they vary.
struct BenchCfg {
  uint64_t rest_ns = 2'000'000'000;             ///< between trials
  uint32_t learning_frames = 10;                ///< per receiving port and address, before the first trial
  api::SourceLoc loc;
  std::map<std::string, api::SourceLoc, std::less<>> key_locs;
  api::SourceLoc loc_of(std::string_view key) const {
    const auto it = key_locs.find(key);
    return it == key_locs.end() ? loc : it->second;
  }
};

struct SearchCfg : BenchCfg {
  std::vector<BenchFrameSize> frame_sizes;
  uint64_t trial_duration_ns = 60'000'000'000;  ///< RFC 2544 §24: at least 60 s
  double resolution_percent = 0.1;              ///< of line rate
  double loss_tolerance_percent = 0;
  double lower_bound_percent = 1;
  unsigned confirmations = 0;                   ///< repeats of each found rate
  uint64_t warm_up_ns = 0;                      ///< the trial's load, unmeasured, just before each trial
};

/// `[rfc2544]`: `linerate bench rfc2544`.
struct Rfc2544Cfg : SearchCfg {
  std::vector<std::string> tests{"throughput"};
  unsigned latency_trials = 20;                         ///< §26.2
  double frame_loss_step_percent = 10;                  ///< §26.3
  unsigned back_to_back_trials = 50;                    ///< §26.4 / RFC 9004
  uint64_t back_to_back_duration_ns = 2'000'000'000;    ///< the longest burst, at line rate

  bool runs(std::string_view test) const;
};

/// `[ndr]`: `linerate bench ndr`: the no-drop rate (loss within `loss_tolerance`) and
/// the partial-drop rate (within `pdr_loss_tolerance`), each optionally under a p99.
struct NdrCfg : SearchCfg {
  double pdr_loss_tolerance_percent = 0.1;
  uint64_t ndr_latency_p99_ns = 0;  ///< 0: no bound
  uint64_t pdr_latency_p99_ns = 0;
  /// "bisection" (the classic search: one trial decides a load) or "mlrsearch" (RFC 9971).
  std::string method = "bisection";
  /// mlrsearch: the search goals ([[ndr.goals]]); by default an NDR and a PDR goal at the
  /// two loss tolerances, with FD.io CSIT's exceed ratio, width and durations.
  std::vector<MlrGoal> goals;
};

/// `[lossless]`: `linerate bench lossless`, the PFC / ECN test plan. The senders' test
/// traffic goes through the device to the receiver, which also sends the PFC storms the
/// device must obey; the profile's [[stream]] from each sender to the receiver gives its
/// frames' headers, the suite sets priority, size, rate and timing per case.
struct LosslessCfg : BenchCfg {
  static constexpr const char* kCases[] = {"pfc_pause", "lossy_not_paused", "global_pause", "response_time",
                                          "quanta_sweep", "headroom",      "incast",       "watchdog",
                                          "ecn"};
  std::vector<std::string> senders;
  std::string receiver;
  std::vector<uint8_t> lossless;                 ///< priorities; the first carries the test traffic
  std::vector<uint8_t> lossy;
  std::vector<std::string> cases{std::begin(kCases), std::end(kCases)};
  uint16_t frame_size = 1024;
  double rate_percent = 20;                      ///< each stream's load, of its port's line rate
  uint64_t duration_ns = 200'000'000;            ///< each case's traffic
  uint64_t storm_ns = 100'000'000;               ///< the PFC storm, in the middle of the traffic
  bool global_pause_honoured = false;            ///< case 3's expectation
  uint64_t response_time_ns = 0;                 ///< case 4's bound; 0: the standard's at the port's speed
  std::vector<uint32_t> quanta{0, 256, 1024, 4096, 16384, 65535};
  double quanta_tolerance_percent = 10;
  uint64_t quanta_tolerance_ns = 50'000;         ///< the larger of the two
  double incast_rate_percent = 50;               ///< each sender, lossless and lossy streams each
  bool ecn = false;                              ///< the ecn case's curve given (else it is skipped)
  uint64_t ecn_kmin_bytes = 0;
  uint64_t ecn_kmax_bytes = 0;
  double ecn_pmax = 0;
  std::vector<uint64_t> ecn_fill_bytes;          ///< queue depths the case fills to
  uint64_t headroom_bytes = 0;                   ///< what the device should absorb after its XOFF (0: case 6 skipped)
  std::vector<uint64_t> headroom_delays_ns;      ///< the sender's reaction delays, ascending (empty: from headroom_bytes)
  bool watchdog = false;                         ///< the watchdog case's expectation given (else it is skipped)
  uint64_t watchdog_detect_ns = 0;
  uint64_t watchdog_restore_ns = 0;
  bool watchdog_forward = false;                 ///< the device forwards during a storm (else drops)
  uint64_t watchdog_tolerance_ns = 0;            ///< 0: a tenth of each time

  bool runs(std::string_view c) const { return std::find(cases.begin(), cases.end(), c) != cases.end(); }
};

/// `[rfc2889]`: `linerate bench rfc2889`, the LAN switch benchmarks of RFC 2889 §5 over
/// the tester's ports facing the device. The suite makes its own frames (a station
/// address per port, thousands of addresses by `vary`), so the section needs no [[stream]].
struct Rfc2889Cfg : BenchCfg {
  static constexpr const char* kTests[] = {"fully_meshed",    "partially_meshed",   "multiple_devices",
                                           "unidirectional",  "congestion_control", "forward_pressure",
                                           "address_caching", "address_learning",   "errored_frames",
                                           "broadcast",       "neighbor_caching",   "neighbor_reresolution"};
  static constexpr const char* kNeighborTests[] = {"neighbor_caching", "neighbor_reresolution"};
  /// All but multiple_devices, which runs where `devices` is given, and the neighbour
  /// tests, which run where `hosts_device` is given.
  std::vector<std::string> tests;
  std::vector<std::string> ports;                ///< the tester's ports, each cabled to a port of the device
  std::vector<std::vector<std::string>> devices; ///< §5.3: the ports on each device (two or more devices)
  std::vector<uint16_t> frame_sizes{64, 128, 256, 512, 1024, 1280, 1518};
  std::vector<double> loads_percent{10, 20, 30, 40, 50, 60, 70, 80, 90, 100};  ///< per port, of its line rate
  uint64_t trial_duration_ns = 30'000'000'000;
  double resolution_percent = 1;                 ///< the throughput search's, of line rate
  uint64_t age_time_ns = 0;                      ///< the device's address aging time (the address tests wait it out)
  double address_rate_fps = 1000;                ///< §5.7's learning and test frames, §5.8's test frames
  uint32_t min_addresses = 1;                    ///< §5.7's search
  uint32_t max_addresses = 8192;
  uint32_t learning_addresses = 0;               ///< §5.8: 0 = what §5.7 found (else 1000)
  double min_learning_rate_fps = 100;            ///< §5.8's search
  double max_learning_rate_fps = 1'000'000;
  double learning_resolution_percent = 1;        ///< of the rate found
  uint16_t oversize_bytes = 1519;                ///< §5.9: the oversize frames (one byte above 1518)
  double broadcast_load_percent = 100;           ///< §5.10
  // The neighbour tests (a routed device's neighbour table; linerate's own, after §5.7).
  std::string sender_device;  ///< the [[device]] whose first host sends
  std::string hosts_device;  ///< the [[device]] whose hosts the frames go to
  uint32_t min_hosts = 1;  ///< neighbor_caching's search
  uint32_t max_hosts = 0;  ///< 0: hosts_device's count
  double host_rate_fps = 1000;  ///< neighbor_caching: each pass, one frame per host
  uint32_t reresolution_hosts = 8;  ///< neighbor_reresolution: one stream each (at most hosts_device's count)
  double reresolution_rate_fps = 10'000;  ///< over all of them
  uint64_t link_down_ns = 500'000'000;  ///< how long the hosts' port's link stays down

  bool runs(std::string_view test) const { return std::find(tests.begin(), tests.end(), test) != tests.end(); }
};

/// A profile with the benchmark sections it has.
struct BenchProfile : profile::Profile {
  std::optional<Rfc2544Cfg> rfc2544;
  std::optional<NdrCfg> ndr;
  std::optional<LosslessCfg> lossless;
  std::optional<Rfc2889Cfg> rfc2889;
};

/// The sections of `text`, the TOML `profile` was read from, each checked against it: a
/// procedure that cannot work is refused at its key. Throws profile::ConfigError.
BenchProfile read_bench_sections(const profile::Profile& profile, std::string_view text);

}  // namespace lr::bench
