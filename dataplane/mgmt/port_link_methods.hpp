#pragma once
// port.link, port.link.set (a link brought up awaited on a timer), port.link.history. Thread: mgmt.

#include <boost/asio/io_context.hpp>

#include "dataplane/mgmt/dispatcher.hpp"
#include "dataplane/port/port_controls.hpp"

namespace lr::dp {

void register_port_link_methods(Dispatcher& d, boost::asio::io_context& io, PortControls& ports,
                                PortOwnership& ownership);

}  // namespace lr::dp
