// `linerate streams | load | stream-add | stream-remove | rate | stop-stream`: the data
// plane's streams, changed between runs or, for a rate or a stop, while they run.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <string>
#include <vector>

#include "control/cli/commands/commands.hpp"
#include "control/command/exit_codes.hpp"
#include "lib/api/traffic.hpp"
#include "control/cli/tables.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/run_spec_json.hpp"
#include "lib/profile/stream_spec_json.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

// `load` (replace the streams) or `stream-add` (add to them): a profile's [[stream]] tables.
void add_profile_streams(CLI::App& app, Commands& commands, const char* name, const char* help, const char* method,
                         const char* profile_help) {
  auto* sub = app.add_subcommand(name, help);
  auto profile = std::make_shared<std::string>();
  sub->add_option("profile", *profile, profile_help)->required()->check(CLI::ExistingFile);
  commands.push_back(command_for(sub, [profile, method](const GlobalOptions& global) {
    json params{{"path", *profile}};
    try {
      const std::string text = profile::profile_file_text(*profile);
      params["streams"] = profile::to_json(profile::read_stream_tables(text, *profile));
      // load: a [run] table (drain, timeline) holds for the streams it loads
      if (const auto run = profile::read_run_table(text, *profile); run && std::string_view(method) == "stream.load")
        params["run"] = profile::to_json(*run);
    } catch (const profile::ConfigError& error) {
      std::fprintf(stderr, "linerate: %s\n", error.what());
      return kExitUsage;
    }
    return with_dataplane(global, [&](DataplaneClient& client) {
      const json result = client.call(method, params);
      print_result(result, global.as_json, fmt::format("streams: {}\n", fmt::join(api::streams_named(result), ", ")));
      return 0;
    });
  }));
}

// A subcommand on one stream: `method` with {stream} and `params`, and `done` said of it.
void add_stream_call(CLI::App& app, Commands& commands, const char* name, const char* help, const char* method,
                     const char* done, const json& params = json::object()) {
  auto* sub = app.add_subcommand(name, help);
  auto stream = std::make_shared<std::string>();
  sub->add_option("stream", *stream, "stream name")->required();
  commands.push_back(command_for(sub, [stream, method, done, params](const GlobalOptions& global) {
    return with_dataplane(global, [&](DataplaneClient& client) {
      json call = params;
      call["stream"] = *stream;
      print_result(client.call(method, call), global.as_json,
                   fmt::format("stream '{}' {}\n", *stream, done));
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
      const json result = client.call("stream.rate.set", {{"stream", options->stream}, {"rate", options->rate}});
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
  add_listing(app, commands, "streams", "streams: ports, frame size, lanes, target rate", "stream.list", streams_table);
  add_profile_streams(app, commands, "load", "replace the data plane's streams with a profile's", "stream.load",
                      "profile (TOML)");
  add_profile_streams(app, commands, "stream-add", "add the streams of a profile to the data plane's", "stream.add",
                      "profile (TOML) whose [[stream]] tables to add");
  add_stream_call(app, commands, "stream-remove", "remove a stream", "stream.remove", "removed");
  add_rate(app, commands);
  add_stream_call(app, commands, "stop-stream", "stop one stream; the others go on", "stream.stop", "stopped");
  add_stream_call(app, commands, "hold-stream", "hold one stream's transmission while the run goes on", "stream.hold",
                  "held", {{"held", true}});
  add_stream_call(app, commands, "release-stream", "let a held stream go on at its rate (the time held is not made up)",
                  "stream.hold", "released", {{"held", false}});
}

}  // namespace lr::ctl
