#pragma once
// `linerate otg serve`: the OTG front end's subcommand, which control/main.cpp adds.

#include <CLI/CLI.hpp>

#include "control/command/command.hpp"

namespace lr::ctl {

void add_otg_command(CLI::App& app, Commands& commands);  ///< otg serve

}  // namespace lr::ctl
