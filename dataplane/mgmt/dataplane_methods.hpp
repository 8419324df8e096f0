#pragma once
// The data plane's control methods, registered on a Dispatcher over one Engine:
// hello, methods.list, port.*, stream.*, traffic.*, stats.*, session.*.
// Thread: mgmt (the Asio loop on the main lcore).

#include <boost/asio/io_context.hpp>
#include <functional>

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

/// What the run methods call around each run (each may be empty): as it starts (e.g. to
/// take counter baselines), before its ports stop (to read their counters), and on its
/// report's JSON (to add what port control saw).
struct RunHooks {
  std::function<void()> before_run;
  std::function<void()> before_close;
  std::function<nlohmann::json(nlohmann::json)> annotate_report;
};

void register_dataplane_methods(Dispatcher& dispatcher, boost::asio::io_context& io, Engine& engine,
                                PortOwnership& ownership, RunHooks hooks = {});

}  // namespace lr::dp
