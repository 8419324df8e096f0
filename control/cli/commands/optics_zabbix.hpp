#pragma once
// `linerate optics zabbix`: a Zabbix agent's UserParameters answered from the state file of
// `linerate optics watch` (docker/zabbix/linerate-optics.conf, and the template beside it).

#include <CLI/CLI.hpp>

#include "control/command/command.hpp"

namespace lr::ctl {

/// Adds `zabbix discover`, `zabbix get` and `zabbix items` under `optics`.
void add_optics_zabbix_command(CLI::App& optics, Commands& commands);

}  // namespace lr::ctl
