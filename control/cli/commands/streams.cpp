// `linerate streams | load | stream-add | stream-remove | rate | stop-stream`: the data
// plane's streams, changed between runs or, for a rate or a stop, while they run.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <string>
#include <vector>

#include "control/cli/commands/commands.hpp"
#include "control/client/run_client.hpp"
#include "control/command/exit_codes.hpp"
#include "lib/api/traffic.hpp"
#include "control/cli/tables.hpp"
#include "lib/profile/load_toml.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

// What a profile's streams do to the data plane's: replace them (load) or join them.
enum class StreamsFrom { kReplace, kAdd };

// `load` (replace the streams) or `stream-add` (add to them): a profile's [[stream]] tables.
void add_profile_streams(CLI::App& app, Commands& commands, const char* name, const char* help, StreamsFrom how,
                         const char* profile_help) {
  auto* sub = app.add_subcommand(name, help);
  auto profile = std::make_shared<std::string>();
  sub->add_option("profile", *profile, profile_help)->required()->check(CLI::ExistingFile);
  commands.push_back(command_for(sub, [profile, how](const GlobalOptions& global) {
    std::vector<api::StreamSpec> streams;
    std::optional<api::RunSpec> run;
    try {
      const std::string text = profile::profile_file_text(*profile);
      streams = profile::read_stream_tables(text, *profile);
      // load: a [run] table (drain, timeline) holds for the streams it loads; read (and
      // checked) for stream-add too, which leaves the run settings as they are
      run = profile::read_run_table(text, *profile);
      if (how == StreamsFrom::kAdd) run.reset();
    } catch (const profile::ConfigError& error) {
      std::fprintf(stderr, "linerate: %s\n", error.what());
      return kExitUsage;
    }
    return with_dataplane(global, [&](DataplaneClient& client) {
      RunClient streams_of(client);
      const json result = how == StreamsFrom::kReplace ? streams_of.load_json(streams, *profile, run)
                                                       : streams_of.add_json(streams, *profile);
      print_result(result, global.as_json, fmt::format("streams: {}\n", fmt::join(api::streams_named(result), ", ")));
      return 0;
    });
  }));
}

// What a subcommand on one stream asks of the run client; the answer as sent.
using StreamAction = json (*)(RunClient&, const std::string& stream);

// A subcommand on one stream: `action` on it, and `done` said of it.
void add_stream_call(CLI::App& app, Commands& commands, const char* name, const char* help, StreamAction action,
                     const char* done) {
  auto* sub = app.add_subcommand(name, help);
  auto stream = std::make_shared<std::string>();
  sub->add_option("stream", *stream, "stream name")->required();
  commands.push_back(command_for(sub, [stream, action, done](const GlobalOptions& global) {
    return with_dataplane(global, [&](DataplaneClient& client) {
      RunClient run(client);
      print_result(action(run, *stream), global.as_json, fmt::format("stream '{}' {}\n", *stream, done));
      return 0;
    });
  }));
}

void add_rate(CLI::App& app, Commands& commands) {
  auto* rate = app.add_subcommand("rate", "change a stream's rate, also while it runs");
  struct RateOptions {
    std::string stream, rate;
  };
  auto options = std::make_shared<RateOptions>();
  rate->add_option("stream", options->stream, "stream name")->required();
  rate->add_option("rate", options->rate, "'10%', '1.5Mpps', '5Gbps' (L1), '5Gbps-l2' or 'max'")->required();
  commands.push_back(command_for(rate, [options](const GlobalOptions& global) {
    return with_dataplane(global, [&](DataplaneClient& client) {
      const json result = RunClient(client).set_rate_json(options->stream, options->rate);
      const std::optional<double> target = api::stream_rate_from_json(result).target_pps;
      print_result(result, global.as_json,
                   fmt::format("stream '{}' now at {}\n", options->stream,
                               target ? fmt::format("{:.6f} Mpps", *target / 1e6) : "max rate"));
      return 0;
    });
  }));
}

}  // namespace

void add_stream_commands(CLI::App& app, Commands& commands) {
  add_listing(app, commands, "streams", "streams: ports, frame size, lanes, target rate",
              [](DataplaneClient& client) { return RunClient(client).stream_list_json(); }, streams_table);
  add_profile_streams(app, commands, "load", "replace the data plane's streams with a profile's", StreamsFrom::kReplace,
                      "profile (TOML)");
  add_profile_streams(app, commands, "stream-add", "add the streams of a profile to the data plane's", StreamsFrom::kAdd,
                      "profile (TOML) whose [[stream]] tables to add");
  add_stream_call(app, commands, "stream-remove", "remove a stream",
                  [](RunClient& run, const std::string& s) { return run.remove_stream_json(s); }, "removed");
  add_rate(app, commands);
  add_stream_call(app, commands, "stop-stream", "stop one stream; the others go on",
                  [](RunClient& run, const std::string& s) { return run.stop_stream_json(s); }, "stopped");
  add_stream_call(app, commands, "hold-stream", "hold one stream's transmission while the run goes on",
                  [](RunClient& run, const std::string& s) { return run.hold_json(s, true); }, "held");
  add_stream_call(app, commands, "release-stream", "let a held stream go on at its rate (the time held is not made up)",
                  [](RunClient& run, const std::string& s) { return run.hold_json(s, false); }, "released");
}

}  // namespace lr::ctl
