// `linerate bench rfc2544 | ndr | lossless | rfc2889 PROFILE`: the benchmark suites.

#include <fmt/format.h>

#include <memory>
#include <utility>

#include "control/cli/suites/lossless_command.hpp"
#include "control/cli/suites/ndr_command.hpp"
#include "control/cli/suites/rfc2544_command.hpp"
#include "control/cli/suites/rfc2889_command.hpp"
#include "control/cli/commands/commands.hpp"

namespace lr::ctl {

void add_bench_commands(CLI::App& app, Commands& commands) {
  auto* bench = app.add_subcommand(
      "bench", "benchmark procedures over a profile's streams (RFC 2544, NDR / PDR, the lossless test plan, RFC 2889)");
  bench->require_subcommand(1);
  auto options = std::make_shared<bench::BenchOptions>();
  const std::pair<CLI::App*, int (*)(const bench::BenchOptions&)> suites[] = {
      {bench->add_subcommand("rfc2544", "RFC 2544 throughput, latency, frame loss and back-to-back per frame size, "
                                        "from the profile's [rfc2544]"),
       bench::run_rfc2544},
      {bench->add_subcommand("ndr", "no-drop and partial-drop rates per frame size, from the profile's [ndr]"),
       bench::run_ndr},
      {bench->add_subcommand("lossless", "the lossless-fabric test plan (PFC, PAUSE, response time, quanta, incast, "
                                         "ECN) with verdicts, from the profile's [lossless]"),
       bench::run_lossless},
      {bench->add_subcommand("rfc2889", "RFC 2889 LAN switch benchmarks (meshed forwarding, congestion, address "
                                        "caching and learning, errored frames, broadcast), from the profile's [rfc2889]"),
       bench::run_rfc2889}};
  suites[1].first->add_option("--method", options->method,
                              "bisection (one trial decides a load) or mlrsearch (RFC 9971: goals with an exceed "
                              "ratio over trials of growing length); default: the profile's [ndr] method")
      ->check(CLI::IsMember({"bisection", "mlrsearch"}));
  for (const auto& [suite, run] : suites) {
    const std::string section = suite->get_name();
    suite->add_option("profile", options->profile_path, fmt::format("profile (TOML) with an [{}] section", section))
        ->required()->check(CLI::ExistingFile);
    suite->add_option("--report-dir", options->report_dir,
                      fmt::format("where report.json, results.csv and report.html go (default: {}-<UTC time>)", section));
    suite->add_flag("--adopt-ports", options->adopt_ports, "as for run: use a serving data plane's ports as they are");
    suite
        ->add_option("--locations", options->locations_path,
                     "as for run: names for the data planes the profile's locations (NAME;PORT) name (default: "
                     "$LINERATE_LOCATIONS)")
        ->envname("LINERATE_LOCATIONS");
    commands.push_back(command_for(suite, [options, run = run](const GlobalOptions& global) {
      options->dataplane = global.dataplane();
      return run(*options);
    }));
  }
}

}  // namespace lr::ctl
