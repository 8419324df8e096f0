#pragma once
// Waits for a link without blocking the control thread: polls on a timer.
// Thread: mgmt (the Asio loop on the main lcore).

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <functional>

namespace lr::dp {

/// How long a link set through the control socket is awaited before the request is
/// answered anyway (with the link as it then is): real NICs negotiate in 1 to 3 s.
inline constexpr std::chrono::milliseconds kLinkWait{5000};

/// Calls `is_up` now and every 10 ms until it returns true or `timeout` has passed,
/// then `done(up)`. Returns at once.
void await_link(boost::asio::io_context& io, std::function<bool()> is_up, std::chrono::milliseconds timeout,
                std::function<void(bool)> done);

}  // namespace lr::dp
