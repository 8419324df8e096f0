#include "dataplane/mgmt/run_lease.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace lr::dp {

void RunLease::hold(const Session& session, std::chrono::milliseconds lease) {
  activity_ = session.activity;
  lease_ = lease;
  holder_ = fmt::format("session {} ({}{})", session.id, session.client.empty() ? "" : session.client + ", ",
                        session.peer.describe());
  ++held_;
  arm();
}

void RunLease::release() {
  activity_.reset();
  ++held_;
  timer_.cancel();
}

void RunLease::arm() {
  // Checked four times a lease (at least every 100 ms): it runs out at most a quarter late.
  const auto every = std::min(std::chrono::milliseconds(100), std::max(lease_ / 4, std::chrono::milliseconds(1)));
  timer_.expires_after(every);
  timer_.async_wait([self = shared_from_this(), held = held_](const boost::system::error_code& ec) {
    if (ec || held != self->held_ || !self->activity_) return;
    const auto silent = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                              self->activity_->last_request);
    // Waiting on an answer of ours (a link coming up) is not silence; a minute past the lease it is.
    const bool waiting = self->activity_->pending > 0 && silent < self->lease_ + std::chrono::minutes(1);
    if (silent < self->lease_ || waiting) return self->arm();
    const std::string why = fmt::format("the lease of {} ms ran out: {}, which started the run, sent nothing for {} ms",
                                        self->lease_.count(), self->holder_, silent.count());
    self->activity_.reset();
    self->expire_(why);
  });
}

}  // namespace lr::dp
