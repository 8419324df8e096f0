#pragma once
// Port control over the control socket: port.link / link_set / link_history, port.fec /
// fec_set, port.pause / pause_set, port.pfc / pfc_set, port.module, port.counters, and
// flow.validate / create / list / destroy / flush / isolate. Thread: mgmt.

#include <boost/asio/io_context.hpp>

#include "dataplane/mgmt/dispatcher.hpp"
#include "dataplane/mgmt/port_controls.hpp"

namespace lr::dp {

void register_port_control_methods(Dispatcher& dispatcher, boost::asio::io_context& io, PortControls& ports,
                                   PortOwnership& ownership);

}  // namespace lr::dp
