#pragma once
// Every family of the CLI front end's subcommands, one file each in commands/: each adds its
// subcommands and options to `app` and what they do to `commands`. The other front ends
// (otg/, export/) declare their own; control/main.cpp composes them all.

#include <CLI/CLI.hpp>

#include "control/command/command.hpp"

namespace lr::ctl {

void add_run_command(CLI::App& app, Commands& commands);          ///< run
/// module decode, and the port control family (link, fec, pause, pfc, module show, flow,
/// port settings / restore) on the serving data plane.
void add_module_and_port_control_commands(CLI::App& app, Commands& commands);
void add_session_commands(CLI::App& app, Commands& commands);     ///< hello, methods, call
void add_port_commands(CLI::App& app, Commands& commands);        ///< ports, port-set, xstats
void add_stream_commands(CLI::App& app, Commands& commands);      ///< streams, load, stream-add, ...
void add_traffic_commands(CLI::App& app, Commands& commands);     ///< start, stop, report
void add_stats_commands(CLI::App& app, Commands& commands);       ///< stats, lcores, histogram, top, record
void add_bench_commands(CLI::App& app, Commands& commands);       ///< bench rfc2544 | ndr | lossless
void add_doctor_command(CLI::App& app, Commands& commands);       ///< doctor
void add_optics_commands(CLI::App& app, Commands& commands);      ///< optics qualify
void add_frames_command(CLI::App& app, Commands& commands);       ///< frames
void add_completion_command(CLI::App& app, Commands& commands);   ///< completion
void add_capture_command(CLI::App& app, Commands& commands);      ///< capture
void add_neighbors_command(CLI::App& app, Commands& commands);    ///< neighbors

}  // namespace lr::ctl
