// `linerate module decode FILE`, and the port control family on the serving data plane
// (link, fec, pause, pfc, module show, flow, port settings / restore: port_commands.hpp).

#include <memory>
#include <string>

#include "control/cli/commands/commands.hpp"
#include "control/cli/module_command.hpp"
#include "control/cli/port_commands.hpp"

namespace lr::ctl {

void add_module_and_port_control_commands(CLI::App& app, Commands& commands) {
  auto* module = app.add_subcommand("module", "optical / copper module EEPROM");
  module->require_subcommand(1);
  auto* decode = module->add_subcommand("decode", "decode a saved EEPROM image (ethtool -m IFACE raw on > FILE)");
  struct DecodeOptions {
    std::string file;
    bool hex = false;
  };
  auto options = std::make_shared<DecodeOptions>();
  decode->add_option("file", options->file, "image: SFF-8472 256 / 512 bytes, SFF-8636 256 / 640, CMIS 256 / 768")
      ->required();
  decode->add_flag("--hex", options->hex, "also print the bytes");
  commands.push_back(command_for(decode, [options](const GlobalOptions& global) {
    return decode_module_file(options->file, global.as_json, options->hex);
  }));
  auto port_commands = std::make_shared<const PortCommands>(app, *module);
  commands.push_back({[port_commands] { return port_commands->chosen(); },
                      [port_commands](const GlobalOptions& global) {
                        return with_dataplane(global, [&](DataplaneClient& client) {
                          return port_commands->run(client, global.as_json);
                        });
                      }});
}

}  // namespace lr::ctl
