#pragma once
// The data plane's control methods, registered on a Dispatcher over one Engine:
// hello, methods.list, port.*, stream.*, traffic.*, stats.*, session.*.
// Thread: mgmt (the Asio loop on the main lcore).

#include <boost/asio/io_context.hpp>

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

void register_dataplane_methods(Dispatcher& dispatcher, boost::asio::io_context& io, Engine& engine,
                                PortOwnership& ownership);

}  // namespace lr::dp
