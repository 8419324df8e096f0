// `linerate exporter`: Prometheus metrics of the data plane over HTTP.

#include "control/export/exporter_command.hpp"

#include <memory>

#include "control/export/http_exporter.hpp"

namespace lr::ctl {

void add_exporter_command(CLI::App& app, Commands& commands) {
  auto* exporter = app.add_subcommand("exporter", "serve Prometheus metrics of the data plane over HTTP");
  auto options = std::make_shared<ExporterOptions>();
  exporter->add_option("--listen", options->listen, "ADDRESS:PORT to listen on (port 0: any free one)")
      ->capture_default_str();
  exporter
      ->add_option("--max-connections", options->max_connections,
                   "connections served at once; one more is answered 503")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1}, size_t{65536}));
  exporter
      ->add_option("--idle-timeout", options->idle_timeout_s,
                   "SECONDS: close a connection whose request has not arrived this long")
      ->capture_default_str()
      ->check(CLI::Range(1U, 3600U));
  commands.push_back(command_for(exporter, [options](const GlobalOptions& global) {
    options->dataplane = global.dataplane();
    return run_exporter(*options);
  }));
}

}  // namespace lr::ctl
