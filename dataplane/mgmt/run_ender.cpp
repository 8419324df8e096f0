#include "dataplane/mgmt/run_ender.hpp"

#include <chrono>

namespace lr::dp {

namespace {
// Lanes answer stop_tx within one loop iteration (microseconds): a millisecond poll
// adds at most that to a stop.
constexpr std::chrono::milliseconds kLanePoll{1};
}  // namespace

RunEnder::RunEnder(boost::asio::io_context& io, Engine& engine) : timer_(io), engine_(engine) {}

void RunEnder::end(AfterRun after, Done done) {
  ending_ = true;
  after_ = after;
  done_ = std::move(done);
  engine_.stop_tx();
  wait_for_lanes();
}

void RunEnder::wait_for_lanes() {
  if (engine_.tx_finished()) {
    wait_for_drain();
    return;
  }
  timer_.expires_after(kLanePoll);
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) wait_for_lanes();
  });
}

void RunEnder::wait_for_drain() {
  timer_.expires_after(engine_.drain_interval());
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    RunReport report = engine_.finish_drained(false, after_);
    ending_ = false;
    Done done = std::move(done_);
    done(std::move(report));
  });
}

}  // namespace lr::dp
