#include "dataplane/mgmt/serve.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <csignal>
#include <cstdio>
#include <functional>

#include "dataplane/mgmt/clock_watch.hpp"
#include "dataplane/mgmt/dataplane_methods.hpp"
#include "dataplane/mgmt/port_control_methods.hpp"
#include "dataplane/mgmt/rpc_server.hpp"
#include "dataplane/mgmt/telemetry.hpp"

namespace lr::dp {

Result<std::optional<RunReport>> serve(Engine& engine, const ServeOptions& options) {
  PortControls& controls = engine.port_controls();
  boost::asio::io_context io;
  Dispatcher dispatcher;
  PortOwnership ownership;
  std::optional<ClockWatch> clock;
  if (!options.ptp_uds.empty()) clock.emplace(options.ptp_uds);
  register_dataplane_methods(dispatcher, io, engine, ownership, options.capture_dir, clock ? &*clock : nullptr);
  register_port_control_methods(dispatcher, io, controls, ownership);
  const auto end_session = [&engine](uint64_t session) { engine.stop_captures_of(session); };
  // The network first: whoever finds the Unix socket answering may take both as serving.
  std::optional<TcpRpcServer> network;
  if (options.tcp) {
    TcpServerOptions tcp = *options.tcp;
    tcp.on_session_end = end_session;
    network.emplace(io, dispatcher, ownership, std::move(tcp));
    if (auto ok = network->listen(); !ok) return std::unexpected(ok.error());
  }
  RpcServer server(io, dispatcher, ownership,
                   ServerOptions{options.socket_path, options.group, end_session, options.remove_socket_dir});
  if (auto ok = server.listen(); !ok) return std::unexpected(ok.error());
  // A shell starts background jobs with SIGINT ignored; the service still wants it.
  for (int signum : {SIGINT, SIGTERM, SIGHUP}) std::signal(signum, SIG_DFL);
  boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
  signals.async_wait([&io](const boost::system::error_code&, int) { io.stop(); });
  // The telemetry snapshot, once a second.
  boost::asio::steady_timer timer(io);
  std::function<void()> publish = [&] {
    publish_stream_stats(engine.live_stream_stats());
    timer.expires_after(std::chrono::seconds(1));
    timer.async_wait([&](const boost::system::error_code& ec) {
      if (!ec) publish();
    });
  };
  publish();
  // Link changes are evidence for every later test: looked for every 100 ms.
  boost::asio::steady_timer link_timer(io);
  std::function<void()> poll_links = [&] {
    controls.poll_links();
    link_timer.expires_after(std::chrono::milliseconds(100));
    link_timer.async_wait([&](const boost::system::error_code& ec) {
      if (!ec) poll_links();
    });
  };
  poll_links();
  if (options.announce) {
    std::printf("serving on %s (linerate --socket %s ...); Ctrl-C ends the service\n", options.socket_path.c_str(),
                options.socket_path.c_str());
    if (network) std::printf("serving the network on %s\n", network->describe().c_str());
    std::fflush(stdout);
  }
  io.run();
  if (engine.running()) return std::optional<RunReport>(engine.finish(true, AfterRun::kClosePorts));
  return std::optional<RunReport>();
}

}  // namespace lr::dp
