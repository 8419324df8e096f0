#include "dataplane/mgmt/link_waiter.hpp"

#include <boost/asio/steady_timer.hpp>
#include <memory>

namespace lr::dp {

namespace {

// 10 ms: a vdev's link answers at once, a NIC's within seconds; a finer poll only
// costs ethdev link reads.
constexpr std::chrono::milliseconds kPoll{10};

struct LinkWait : std::enable_shared_from_this<LinkWait> {
  LinkWait(boost::asio::io_context& io, std::function<bool()> up_fn, std::chrono::steady_clock::time_point until,
           std::function<void(bool)> done_fn)
      : timer(io), is_up(std::move(up_fn)), deadline(until), done(std::move(done_fn)) {}

  void poll() {
    const bool up = is_up();
    if (up || std::chrono::steady_clock::now() >= deadline) {
      done(up);
      return;
    }
    timer.expires_after(kPoll);
    timer.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      if (!ec) self->poll();
    });
  }

  boost::asio::steady_timer timer;
  std::function<bool()> is_up;
  std::chrono::steady_clock::time_point deadline;
  std::function<void(bool)> done;
};

}  // namespace

void await_link(boost::asio::io_context& io, std::function<bool()> is_up, std::chrono::milliseconds timeout,
                std::function<void(bool)> done) {
  std::make_shared<LinkWait>(io, std::move(is_up), std::chrono::steady_clock::now() + timeout, std::move(done))->poll();
}

}  // namespace lr::dp
