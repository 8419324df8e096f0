#pragma once
// Ends a run from the control thread without blocking it: stop TX, wait for every lane
// to stop and then for the drain interval on a timer, then collect the report. Other
// sessions, the link poll and telemetry are served meanwhile.
// Thread: mgmt (the Asio loop on the main lcore).

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>

#include "dataplane/engine/engine.hpp"

namespace lr::dp {

class RunEnder {
 public:
  using Done = std::function<void(RunReport)>;

  RunEnder(boost::asio::io_context& io, Engine& engine);

  /// True from `end` until its `done` has been called.
  bool ending() const noexcept { return ending_; }

  /// Starts ending the running run; `done` gets its report on the mgmt thread.
  /// Precondition: traffic runs and no end is in progress.
  void end(AfterRun after, Done done);

 private:
  void wait_for_lanes();
  void wait_for_drain();

  boost::asio::steady_timer timer_;
  Engine& engine_;
  bool ending_ = false;
  AfterRun after_ = AfterRun::kKeepPorts;
  Done done_;
};

}  // namespace lr::dp
