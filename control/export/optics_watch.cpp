#include "control/export/optics_watch.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include "control/client/dataplane_client.hpp"
#include "control/client/port_client.hpp"
#include "control/client/run_client.hpp"
#include "control/command/exit_codes.hpp"
#include "control/export/http_exporter.hpp"
#include "control/export/port_reader.hpp"
#include "control/http/http_listener.hpp"
#include "control/suites/optics/optics_history.hpp"
#include "control/suites/optics/port_status_json.hpp"
#include "control/suites/optics/port_watch.hpp"
#include "control/views/optics_metrics.hpp"
#include "lib/common/utc_time.hpp"
#include "lib/host/kernel/kernel_netdev.hpp"

namespace lr::ctl {

namespace asio = boost::asio;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

PortReader::Read netdev_read(const std::string& ifname) {
  auto io = std::shared_ptr<dp::KernelIo>(dp::system_kernel_io());
  auto netdev = std::make_shared<dp::KernelNetdev>(ifname, *io);
  return [io, netdev](double now_s) { return optics::read_netdev(*netdev, now_s); };
}

// A data plane port's reads over a connection of the reader's own, made again after a loss.
PortReader::Read dataplane_read(const DataplaneAddress& dataplane, const std::string& port) {
  auto client = std::make_shared<std::optional<DataplaneClient>>();
  return [client, dataplane, port](double now_s) {
    try {
      if (!*client) client->emplace(dataplane);
      PortClient ports(**client);
      return optics::read_dataplane_port(ports, port, now_s);
    } catch (const ConnectionError& e) {
      client->reset();
      throw;
    }
  };
}

struct WatchedPort {
  std::unique_ptr<PortReader> reader;
  optics::PortWatch watch;
};

class OpticsWatch {
 public:
  OpticsWatch(const OpticsWatchOptions& options, asio::io_context& io)
      : options_(options),
        io_(io),
        tick_(io),
        deadline_(io),
        history_(fs::path(options.dir) / optics::kHistoryFolder, options.history_lines) {}

  void add_netdev(const std::string& ifname) {
    if (ports_.contains(ifname)) return;
    add(ifname, netdev_read(ifname));
    (options_.all_netdevs ? netdevs_followed_ : netdevs_given_).insert(ifname);
  }
  /// False when a netdev of that name is watched already: the two would share a series.
  bool add_dataplane_port(const std::string& port) {
    if (ports_.contains(port)) return false;
    add(port, dataplane_read(options_.dataplane, port));
    return true;
  }
  size_t size() const { return ports_.size(); }
  std::string names() const {
    std::string out;
    for (const auto& [name, p] : ports_) out += (out.empty() ? "" : ", ") + name;
    return out;
  }
  const std::string& page() const { return page_; }
  /// The ports whose read is still under way, after waiting up to `wait_s` for them.
  std::vector<std::string> still_reading(double wait_s) const {
    for (const auto& [name, p] : ports_) p.reader->stop();
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
    std::vector<std::string> busy;
    do {
      busy.clear();
      for (const auto& [name, p] : ports_)
        if (!p.reader->idle()) busy.push_back(name);
      if (busy.empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } while (std::chrono::steady_clock::now() < until);
    return busy;
  }
  unsigned intervals() const { return intervals_; }

  void start() { tick(); }

 private:
  void add(const std::string& name, PortReader::Read read) {
    ports_.try_emplace(name, WatchedPort{std::make_unique<PortReader>(name, std::move(read)), optics::PortWatch(name)});
  }

  // --all-netdevs: a netdev that appeared is watched from now on; one that went is no longer
  // (its history stays), so a host whose containers come and go keeps no thread per veth gone.
  void follow_netdevs() {
    const std::vector<std::string> here = host_netdevs();
    for (const std::string& ifname : here) {
      if (!ports_.contains(ifname)) add_netdev(ifname);
      else if (!netdevs_followed_.contains(ifname) && !netdevs_given_.contains(ifname))
        say_once(fmt::format("netdev {} has the name of a data plane port watched: not watched", ifname));
    }
    for (auto it = netdevs_followed_.begin(); it != netdevs_followed_.end();) {
      if (std::ranges::find(here, *it) != here.end()) {
        ++it;
        continue;
      }
      std::printf("%s %s: gone, no longer watched (--all-netdevs)\n", utc_now_iso8601().c_str(), it->c_str());
      ports_.erase(*it);
      it = netdevs_followed_.erase(it);
    }
  }

  double deadline_s() const {
    return options_.deadline_s > 0 ? options_.deadline_s : std::min(options_.interval_s / 2, 5.0);
  }

  void tick() {
    const auto started = std::chrono::steady_clock::now();
    if (options_.all_netdevs) follow_netdevs();
    ++seq_;
    interval_time_ = unix_now_s();
    for (auto& [name, p] : ports_) p.reader->request(seq_);
    deadline_.expires_after(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(deadline_s())));
    deadline_.async_wait([this, started](const boost::system::error_code& ec) {
      if (ec) return;
      collect();
      if (options_.count != 0 && intervals_ >= options_.count) {
        io_.stop();
        return;
      }
      tick_.expires_at(started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                     std::chrono::duration<double>(options_.interval_s)));
      tick_.async_wait([this](const boost::system::error_code& e) {
        if (!e) tick();
      });
    });
  }

  void collect() {
    std::vector<optics::PortStatus> statuses;
    json state{{"time", unix_now_s()}, {"interval_s", options_.interval_s}, {"ports", json::array()}};
    for (auto& [name, p] : ports_) {
      std::vector<std::string> news;
      if (std::optional<optics::PortReading> reading = p.reader->take(seq_)) news = p.watch.update(std::move(*reading));
      else news = p.watch.missed(late_text(*p.reader), interval_time_);
      for (const std::string& line : news) std::printf("%s %s\n", utc_now_iso8601().c_str(), line.c_str());
      statuses.push_back(p.watch.status());
      const json status = optics::port_status_json(p.watch.status());
      state["ports"].push_back(status);
      say_once(history_.append(status));
    }
    std::fflush(stdout);
    page_ = optics_metrics_text(statuses);
    say_once(write_state(state));
    ++intervals_;
  }

  std::string late_text(const PortReader& reader) const {
    // The same words for as long as one read hangs: said once, not every interval.
    if (const std::optional<double> since = reader.reading_since())
      return fmt::format(
          "read not finished within {:.3g} s (under way since {:%H:%M:%S}Z): its metrics are left "
          "out until it answers",
          deadline_s(), std::chrono::sys_seconds(std::chrono::seconds(static_cast<int64_t>(*since))));
    return "read not taken";
  }

  // DIR/watch.json, whole or not at all: written beside and renamed over.
  std::string write_state(const json& state) const {
    const fs::path file = fs::path(options_.dir) / optics::kWatchStateName;
    const fs::path part = fs::path(options_.dir) / ".watch.json.part";
    {
      std::ofstream out(part, std::ios::trunc);
      out << state.dump(1, ' ', false, json::error_handler_t::replace) << '\n';
      if (!out.flush()) return fmt::format("cannot write {}", part.string());
    }
    std::error_code ec;
    fs::rename(part, file, ec);
    return ec ? fmt::format("cannot replace {}: {}", file.string(), ec.message()) : "";
  }

  void say_once(const std::string& problem) {
    if (!problem.empty() && said_.insert(problem).second)
      std::fprintf(stderr, "linerate optics watch: %s\n", problem.c_str());
  }

  const OpticsWatchOptions& options_;
  asio::io_context& io_;
  asio::steady_timer tick_, deadline_;
  optics::OpticsHistory history_;
  std::map<std::string, WatchedPort> ports_;
  uint64_t seq_ = 0;
  double interval_time_ = 0;  ///< when the interval's reads were asked (Unix seconds)
  unsigned intervals_ = 0;
  std::string page_ = "";
  std::set<std::string> said_;
  std::set<std::string> netdevs_followed_;  ///< added by --all-netdevs: dropped when gone
  std::set<std::string> netdevs_given_;     ///< named by --netdev: watched gone or not
};

// The options' ports, checked before any read: a netdev that is not here, a data plane
// port it does not have. "" or why not.
std::string add_ports(const OpticsWatchOptions& options, OpticsWatch& watch) {
  const std::vector<std::string> here = host_netdevs();
  for (const std::string& ifname : options.netdevs) {
    if (std::ranges::find(here, ifname) == here.end())
      return fmt::format("--netdev {}: no such netdev here (netdevs: {})", ifname, fmt::join(here, ", "));
    watch.add_netdev(ifname);
  }
  if (options.all_netdevs)
    for (const std::string& ifname : here) watch.add_netdev(ifname);
  if (options.ports.empty() && !options.all_ports) return "";
  DataplaneClient client(options.dataplane);
  std::vector<std::string> served;
  for (const api::PortReport& p : RunClient(client).port_stats()) served.push_back(p.name);
  for (const std::string& port : options.ports)
    if (std::ranges::find(served, port) == served.end())
      return fmt::format("--port {}: the data plane at {} has no such port (ports: {})", port, options.dataplane.text(),
                         fmt::join(served, ", "));
  std::set<std::string> ports(options.ports.begin(), options.ports.end());  // a port named twice is one
  if (options.all_ports) ports.insert(served.begin(), served.end());
  for (const std::string& port : ports)
    if (!watch.add_dataplane_port(port))
      return fmt::format("the data plane's port {} has the name of a netdev watched too: watch them apart (--dir)",
                         port);
  return "";
}

}  // namespace

std::vector<std::string> host_netdevs() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator("/sys/class/net", ec))
    if (e.path().filename() != "lo") out.push_back(e.path().filename().string());
  std::ranges::sort(out);
  return out;
}

int run_optics_watch(const OpticsWatchOptions& options) {
  if (options.deadline_s >= options.interval_s) {
    std::fprintf(stderr,
                 "linerate: --deadline %g s is not shorter than --interval %g s: each interval's reads must "
                 "end before the next begins\n",
                 options.deadline_s, options.interval_s);
    return kExitUsage;
  }
  if (const std::string error = reserve_descriptors(options.max_connections); !error.empty()) {
    std::fprintf(stderr, "linerate: %s\n", error.c_str());
    return kExitUsage;
  }
  ConnectionGate gate(options.max_connections);  // before the io_context, whose end ends the sessions
  asio::io_context io;
  OpticsWatch watch(options, io);
  if (const std::string problem = add_ports(options, watch); !problem.empty()) {
    std::fprintf(stderr, "linerate: %s\n", problem.c_str());
    return kExitUsage;
  }
  if (watch.size() == 0 && !options.all_netdevs) {
    std::fprintf(stderr, "linerate: nothing to watch: give --netdev, --all-netdevs, --port or --all-ports\n");
    return kExitUsage;
  }
  std::error_code ec;
  fs::create_directories(options.dir, ec);
  if (ec) {
    std::fprintf(stderr, "linerate: --dir %s: %s\n", options.dir.c_str(), ec.message().c_str());
    return 1;
  }
  asio::ip::tcp::acceptor acceptor(io);
  std::string serving = "not served (--listen none)";
  if (options.listen != "none") {
    if (const int code = open_listener(acceptor, options.listen, "127.0.0.1:9478"); code != 0) return code;
    const asio::ip::tcp::endpoint bound = acceptor.local_endpoint();
    serving = fmt::format("at http://{}:{}/metrics", bound.address().to_string(), bound.port());
  }
  const MetricsPage page{"linerate optics watch", [&] { return watch.page(); }};
  MetricsServer server{page, gate, std::chrono::seconds(options.idle_timeout_s)};
  if (acceptor.is_open()) serve_metrics(acceptor, server);
  std::printf("watching %zu port(s) (%s) every %g s; metrics %s; state and history in %s\n", watch.size(),
              watch.names().c_str(), options.interval_s, serving.c_str(), options.dir.c_str());
  std::fflush(stdout);
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code&, int) { io.stop(); });
  watch.start();
  io.run();
  std::printf("stopped after %u interval(s)\n", watch.intervals());
  // A read that hangs holds its thread; the process does not wait on it past a moment, nor
  // run its exit (whose static destructors the read may still use). All is written already.
  if (const std::vector<std::string> busy = watch.still_reading(2); !busy.empty()) {
    std::printf("not waited for: the read of %s still under way\n", fmt::format("{}", fmt::join(busy, ", ")).c_str());
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(0);
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace lr::ctl
