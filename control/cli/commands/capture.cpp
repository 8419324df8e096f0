// `linerate capture PORT -w FILE`: a capture on the serving data plane, its counts once a
// second, until its count or duration, or Ctrl-C; the file is complete when it returns.
// A data plane on another host (--engine) writes it in its capture directory; it is read
// back over the connection into FILE and removed there.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "control/cli/commands/commands.hpp"
#include "control/client/capture_files.hpp"
#include "control/client/run_client.hpp"
#include "control/client/stop_signal.hpp"
#include "control/command/exit_codes.hpp"
#include "lib/api/capture_spec.hpp"
#include "lib/profile/quantity.hpp"
#include "lib/views/run_views.hpp"

namespace lr::ctl {

namespace {

struct CaptureOptions {
  std::string port;
  std::string file;
  std::string filter;
  std::string direction = "rx";
  uint32_t snaplen = 1518;
  uint64_t count = 0;
  std::string duration;
  std::string trigger;
  std::string stream;
  uint32_t before = 10;
  uint32_t after = 10;
};

int run_capture(const CaptureOptions& o, const GlobalOptions& global) {
  api::CaptureSpec spec{o.port, std::filesystem::absolute(o.file).string(), o.filter, o.direction, o.snaplen, o.count,
                        0, "", "", 0, 0};
  if (!o.duration.empty()) {
    const auto ns = profile::parse_duration_ns(o.duration);
    if (!ns || *ns == 0) {
      std::fprintf(stderr, "linerate: --duration '%s' is not a duration: write e.g. '10s', '500ms' or '2m'\n",
                   o.duration.c_str());
      return kExitUsage;
    }
    spec.duration_ns = *ns;
  }
  if (!o.trigger.empty()) {
    if (o.stream.empty()) {
      std::fprintf(stderr, "linerate: --trigger %s needs --stream: the stream whose sequence it watches\n",
                   o.trigger.c_str());
      return kExitUsage;
    }
    spec.trigger = o.trigger;
    spec.trigger_stream = o.stream;
    spec.before = o.before;
    spec.after = o.after;
  }
  catch_stop_signals();
  return with_dataplane(global, [&](DataplaneClient& client) {
    RunClient run(client);
    const bool remote = !client.address().engine.empty();
    if (remote) {
      check_capture_destination(o.port, std::filesystem::absolute(o.file).string());
      spec.file = remote_capture_name("capture", o.port);
    }
    api::CaptureReport c = run.start_capture(spec);
    const std::string into = remote ? fmt::format("{} (on the data plane's host, then read back into {})", c.spec.file,
                                                  std::filesystem::absolute(o.file).string())
                                    : c.spec.file;
    std::fprintf(stderr, "capturing on %s into %s (filter %s); Ctrl-C ends it\n", o.port.c_str(), into.c_str(),
                 o.filter.empty() ? "none" : o.filter.c_str());
    while (!stop_requested() && c.state == "capturing") {
      sleep_unless_stopped(1.0);
      for (const api::CaptureReport& now : run.captures())
        if (now.id == c.id) c = now;
      if (!global.as_json) std::fprintf(stderr, "%s", views::capture_text({c}).c_str());
    }
    // Ended by Ctrl-C, or by its count or duration: stop answers when the file is complete.
    c = end_capture(run, c.id, std::filesystem::absolute(o.file).string(), remote);
    if (global.as_json) std::printf("%s\n", api::to_json(c).dump(2).c_str());
    else std::printf("%s", views::capture_text({c}).c_str());
    if (!global.as_json && c.trigger_event.empty() && !c.spec.trigger.empty()) std::printf("trigger: stream '%s' showed no %s\n", c.spec.trigger_stream.c_str(),
                                                  c.spec.trigger.c_str());
    if (!c.error.empty()) {
      std::fprintf(stderr, "linerate: %s\n", c.error.c_str());
      return 1;
    }
    return stop_requested() ? stopped_exit_code() : 0;
  });
}

}  // namespace

void add_capture_command(CLI::App& app, Commands& commands) {
  auto* sub = app.add_subcommand("capture", "capture what a port receives into a pcapng file (tshark reads it)");
  auto o = std::make_shared<CaptureOptions>();
  sub->add_option("port", o->port, "the port")->required();
  sub->add_option("-w,--write", o->file, "the pcapng file to write")->required();
  sub->add_option("--filter", o->filter, "keep only frames this tcpdump expression matches, e.g. 'udp dst port 7000'");
  sub->add_option("--direction", o->direction, "rx: what the port receives (default); tx: what it sends; both")
      ->check(CLI::IsMember({"rx", "tx", "both"}));
  sub->add_option("--snaplen", o->snaplen, "the most bytes of a frame kept")->check(CLI::Range(64, 16384));
  sub->add_option("--count", o->count, "end after writing this many frames");
  sub->add_option("--duration", o->duration, "end after this long, e.g. '10s'");
  sub->add_option("--trigger", o->trigger,
                  "keep only the frames of --stream around the first loss, out-of-order frame or duplicate in its "
                  "sequence")
      ->check(CLI::IsMember({"loss", "ooo", "dup", "any"}));
  sub->add_option("--stream", o->stream, "the stream a --trigger watches");
  sub->add_option("--before", o->before, "with --trigger: frames kept before the event")->check(CLI::Range(0, 1024));
  sub->add_option("--after", o->after, "with --trigger: frames kept after the event")->check(CLI::Range(0, 2048));
  commands.push_back(command_for(sub, [o](const GlobalOptions& global) { return run_capture(*o, global); }));
}

}  // namespace lr::ctl
