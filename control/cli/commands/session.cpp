// `linerate hello | methods | call`: the data plane's session and its methods.

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>

#include "control/cli/commands/commands.hpp"
#include "lib/api/bounded_json.hpp"
#include "lib/api/rpc.hpp"

namespace lr::ctl {

using nlohmann::json;

void add_session_commands(CLI::App& app, Commands& commands) {
  auto* hello = app.add_subcommand("hello", "protocol version and session of the data plane");
  commands.push_back(command_for(hello, [](const GlobalOptions& global) {
    return with_dataplane(global, [](DataplaneClient& client) {
      print_result(client.hello("linerate-cli"), true, "");
      return 0;
    });
  }));
  auto* methods = app.add_subcommand("methods", "every method the data plane answers, with its help");
  commands.push_back(command_for(methods, [](const GlobalOptions& global) {
    return with_dataplane(global, [&](DataplaneClient& client) {
      const json result = client.methods();
      std::string table;
      for (const json& item : result) {
        const api::MethodListing m = api::method_listing_from_json(item);
        table += fmt::format("{:<18} {}{}{}\n", m.name, m.mutating ? "[changes] " : "",
                             m.deprecated.empty() ? "" : "(deprecated: use " + m.deprecated + ") ", m.help);
      }
      print_result(result, global.as_json, table);
      return 0;
    });
  }));
  auto* call = app.add_subcommand("call", "call any method: linerate call METHOD '{\"param\": ...}'");
  struct CallOptions {
    std::string method;
    std::string params = "{}";
  };
  auto options = std::make_shared<CallOptions>();
  call->add_option("method", options->method, "method name (linerate methods lists them)")->required();
  call->add_option("params", options->params, "params as a JSON object");
  commands.push_back(command_for(call, [options](const GlobalOptions& global) {
    json params;
    try {
      params = api::parse_bounded_json(options->params);
    } catch (const api::JsonTooDeep& error) {
      std::fprintf(stderr, "linerate: params is %s (the data plane reads at most %zu)\n", error.what(),
                   api::kMaxJsonDepth);
      return kExitUsage;
    } catch (const json::exception& error) {
      std::fprintf(stderr, "linerate: params is not JSON: %s\n", error.what());
      return kExitUsage;
    }
    return with_dataplane(global, [&](DataplaneClient& client) {
      print_result(client.call_raw(options->method, params), true, "");
      return 0;
    });
  }));
}

}  // namespace lr::ctl
