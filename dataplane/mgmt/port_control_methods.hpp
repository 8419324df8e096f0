#pragma once
// Port control over the control socket: port.fec / fec.set, port.pause / pause.set,
// port.pfc / pfc.set, port.settings / settings.restore, port.module, port.counters here;
// the link's (port_link_methods) and flow.* (flow_methods) registered with them; protocol
// 1's old names as deprecated aliases. Thread: mgmt.

#include <boost/asio/io_context.hpp>

#include "dataplane/mgmt/dispatcher.hpp"
#include "dataplane/port/port_controls.hpp"

namespace lr::dp {

void register_port_control_methods(Dispatcher& dispatcher, boost::asio::io_context& io, PortControls& ports,
                                   PortOwnership& ownership);

}  // namespace lr::dp
