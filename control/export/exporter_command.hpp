#pragma once
// `linerate exporter`: the Prometheus front end's subcommand, which control/main.cpp adds.

#include <CLI/CLI.hpp>

#include "control/command/command.hpp"

namespace lr::ctl {

void add_exporter_command(CLI::App& app, Commands& commands);  ///< exporter

}  // namespace lr::ctl
