// `linerate frames PROFILE`: the frames a profile's streams will send, without sending them.

#include <memory>

#include "control/cli/commands/commands.hpp"
#include "control/cli/frames_command.hpp"

namespace lr::ctl {

void add_frames_command(CLI::App& app, Commands& commands) {
  auto* frames = app.add_subcommand("frames", "the frames a profile's streams will send, exactly, without sending them");
  auto options = std::make_shared<FramesOptions>();
  frames->add_option("profile", options->profile_path, "profile (TOML)")->required()->check(CLI::ExistingFile);
  frames->add_option("-s,--stream", options->stream, "only this stream (default: every stream)");
  frames->add_option("-n,--count", options->count, "frames per stream (default 4)")->check(CLI::Range(1, 1000000));
  auto* pcap = frames->add_option("--pcap", options->pcap_path, "write them to this pcap file (Wireshark, tshark)");
  frames->add_flag("--hex", options->hex, "one line per frame: stream, lane, seq, hex")->excludes(pcap);
  commands.push_back(command_for(frames, [options](const GlobalOptions& global) {
    options->as_json = global.as_json;
    return show_frames(*options);
  }));
}

}  // namespace lr::ctl
