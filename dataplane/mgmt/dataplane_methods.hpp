#pragma once
// The data plane's control methods, registered on a Dispatcher over one Engine: hello,
// methods.list and session.* here; port.* (port_methods, and port control's in
// port_control_methods), stream.*, traffic.* and stats.* each in a file of their own.
// Thread: mgmt (the Asio loop on the main lcore).

#include <boost/asio/io_context.hpp>

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

class ClockWatch;

/// `capture_dir`: where captures named by a file name go (capture_methods.hpp); `clock`:
/// ptp4l's word on this host's clock, for hello; none: no ptp4l to read.
void register_dataplane_methods(Dispatcher& dispatcher, boost::asio::io_context& io, Engine& engine,
                                PortOwnership& ownership, const std::string& capture_dir,
                                const ClockWatch* clock = nullptr);

}  // namespace lr::dp
