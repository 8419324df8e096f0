#pragma once
// traffic.start / stop / status, run.plan and report.last: a run begun, ended (its drain
// on a timer) and reported. Thread: mgmt.

#include <boost/asio/io_context.hpp>

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

void register_traffic_methods(Dispatcher& d, boost::asio::io_context& io, Engine& engine, PortOwnership& ownership);

}  // namespace lr::dp
