#pragma once
// `linerate optics watch`: its options, under the `optics` subcommand that cli/ makes.

#include <CLI/CLI.hpp>

#include "control/command/command.hpp"

namespace lr::ctl {

void add_optics_watch_command(CLI::App& optics, Commands& commands);

}  // namespace lr::ctl
