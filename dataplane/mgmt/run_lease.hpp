#pragma once
// A run bound to the controller that started it: traffic.start {lease_ms} ends the run by
// itself once the session that started it has sent no request for that long (a controller
// that died, or a host cut off from it), so no traffic runs unattended. Any request of that
// session renews it: a controller's status polls do. Thread: mgmt.

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

class RunLease : public std::enable_shared_from_this<RunLease> {
 public:
  /// Called once a held lease runs out, with why (the session, how long it was silent).
  using Expire = std::function<void(const std::string& why)>;

  RunLease(boost::asio::io_context& io, Expire expire) : timer_(io), expire_(std::move(expire)) {}

  /// Binds the run just started to `session` for `lease`.
  void hold(const Session& session, std::chrono::milliseconds lease);
  /// Nothing to watch: the run ended otherwise, or started without a lease.
  void release();
  /// The lease held now (0: none).
  std::chrono::milliseconds lease() const noexcept { return activity_ ? lease_ : std::chrono::milliseconds(0); }

 private:
  void arm();

  boost::asio::steady_timer timer_;
  Expire expire_;
  std::shared_ptr<SessionActivity> activity_;  ///< the holder's; null: none held
  std::chrono::milliseconds lease_{0};
  std::string holder_;  ///< the session, for the message
  uint64_t held_ = 0;   ///< which hold a timer belongs to
};

}  // namespace lr::dp
