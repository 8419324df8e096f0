#pragma once
// A software switch (`[[switch]]`) as the engine runs it: its ports brought up, its
// model built from the profile, its loop launched on its own lcore for each run, and its
// counters read into the run report. Thread: mgmt; EAL initialised, cables made.

#include <rte_mempool.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "lib/api/switch_report.hpp"
#include "lib/common/result.hpp"
#include "dataplane/port/ethdev_port.hpp"
#include "lib/profile/profile.hpp"
#include "dataplane/switch/switch_lcore.hpp"
#include "dataplane/switch/switch_model.hpp"

namespace lr::dp {

class SoftwareSwitch {
 public:
  /// Finds and brings up its ports and makes its pools; `index` names them apart.
  /// Errors: kNoDevice, kInvalid (a port without a known speed), kNoMemory.
  static Result<std::unique_ptr<SoftwareSwitch>> create(const api::SwitchSpec& cfg, unsigned lcore, uint64_t tsc_hz,
                                                        unsigned index);
  ~SoftwareSwitch();
  SoftwareSwitch(const SoftwareSwitch&) = delete;
  SoftwareSwitch& operator=(const SoftwareSwitch&) = delete;

  const api::SwitchSpec& cfg() const noexcept { return cfg_; }
  unsigned lcore() const noexcept { return lcore_; }
  bool launched() const noexcept { return launched_; }

  /// Empty queues and fresh counters (megabytes of them: before the run's start is set).
  /// Errors: kBusy, the ports'.
  Result<void> prepare();
  /// The prepared loop on its lcore; `start_tsc` is the run's start, which the report's
  /// times count from. Errors: kBusy.
  Result<void> launch(uint64_t start_tsc);
  /// Asks the loop to return (the engine waits for every lcore).
  void request_stop() noexcept;
  enum class Reading : uint8_t { kLive, kFinal };
  /// Its counters: while it runs (relaxed reads), or exact once its lcore returned.
  api::SwitchReport report(Reading reading) const;
  /// Stops its lcore: the counters, and the frames still queued freed.
  api::SwitchReport finish();
  /// What the plan shows of it: lcore, ports (link now), forwarding.
  api::SwitchPlan plan() const;
  /// Live while it runs, else the last run's (as finish returned it).
  api::SwitchReport current_report() const;
  void close();

 private:
  SoftwareSwitch(api::SwitchSpec cfg, unsigned lcore, uint64_t tsc_hz) : cfg_(std::move(cfg)), lcore_(lcore), tsc_hz_(tsc_hz) {}
  Result<void> bring_up(unsigned index);
  sw::ModelParams model_params() const;
  /// Stops the loop (if it runs) and waits for its lcore.
  void stop_loop();
  /// Frees every frame the switch still holds (queued, refused by TX, not yet arrived);
  /// returns how many.
  uint64_t release_frames();

  api::SwitchSpec cfg_;
  unsigned lcore_ = 0;
  uint64_t tsc_hz_ = 0;
  uint64_t start_tsc_ = 0;
  bool launched_ = false;
  std::deque<EthdevPort> ports_;
  std::vector<uint64_t> shape_bps_;
  rte_mempool* pfc_pool_ = nullptr;
  rte_mempool* copy_pool_ = nullptr;
  std::unique_ptr<sw::SwitchModel> model_;
  std::unique_ptr<sw::SwitchLoop> loop_;
  std::unique_ptr<sw::MacTable> macs_;  ///< learn: kept across runs
  std::optional<api::SwitchReport> last_;  ///< what finish returned
};

}  // namespace lr::dp
