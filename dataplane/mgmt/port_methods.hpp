#pragma once
// port.list, port.config.set (and the deprecated port.stats, port.xstats, port.set): the
// ports as the engine has them, and the settings changed between runs. Thread: mgmt.

#include <boost/asio/io_context.hpp>

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

void register_port_methods(Dispatcher& d, boost::asio::io_context& io, Engine& engine, PortOwnership& ownership);

}  // namespace lr::dp
