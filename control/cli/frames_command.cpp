#include "control/cli/frames_command.hpp"

#include <fmt/format.h>
#include <pcap/pcap.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "control/cli/profile_file.hpp"
#include "lib/frames/frame_preview.hpp"
#include "lib/views/report_file.hpp"

namespace lr::ctl {

namespace {

std::string hex_line(const std::vector<uint8_t>& bytes) {
  std::string out;
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

// Offset, 16 bytes in hex, then as text (as tshark -x and hexdump -C show frames).
std::string hex_dump(const std::vector<uint8_t>& bytes) {
  std::string out;
  for (size_t row = 0; row < bytes.size(); row += 16) {
    std::string hex, text;
    for (size_t i = row; i < row + 16; ++i) {
      hex += i < bytes.size() ? fmt::format("{:02x} ", bytes[i]) : "   ";
      if (i < bytes.size()) text += bytes[i] >= 0x20 && bytes[i] < 0x7f ? static_cast<char>(bytes[i]) : '.';
    }
    out += fmt::format("{:04x}  {} {}\n", row, hex, text);
  }
  return out;
}

}  // namespace

int show_frames(const FramesOptions& options) {
  const std::optional<profile::Profile> read = read_profile(options.profile_path);
  if (!read) return 2;
  const profile::Profile& profile = *read;
  std::vector<size_t> chosen;
  for (size_t i = 0; i < profile.streams.size(); ++i)
    if (options.stream.empty() || profile.streams[i].name == options.stream) chosen.push_back(i);
  if (chosen.empty()) {
    std::string names;
    for (const api::StreamSpec& s : profile.streams) names += (names.empty() ? "" : ", ") + s.name;
    std::fprintf(stderr, "linerate: %s has no stream '%s' (it has: %s)\n", options.profile_path.c_str(),
                 options.stream.c_str(), names.empty() ? "none" : names.c_str());
    return 2;
  }
  if (const std::string problem = views::report_path_problem(options.pcap_path); !problem.empty()) {
    std::fprintf(stderr, "linerate: cannot write '%s': %s\n", options.pcap_path.c_str(), problem.c_str());
    return 4;
  }

  pcap_t* dead = nullptr;
  pcap_dumper_t* dump = nullptr;
  if (!options.pcap_path.empty()) {
    dead = pcap_open_dead(DLT_EN10MB, 65535);
    dump = pcap_dump_open(dead, options.pcap_path.c_str());
    if (dump == nullptr) {
      std::fprintf(stderr, "linerate: cannot write '%s': %s\n", options.pcap_path.c_str(), pcap_geterr(dead));
      pcap_close(dead);
      return 4;
    }
  }
  nlohmann::json as_json = nlohmann::json::array();
  uint64_t written = 0;
  for (size_t index : chosen) {
    const api::StreamSpec& stream = profile.streams[index];
    const auto frames = plan::preview_frames(stream, static_cast<uint16_t>(index), options.count);
    if (!dump && !options.as_json && !options.hex)
      std::printf("stream '%s' (id %zu) %s -> %s, lane 0 of %u: the first %zu frames; TX timestamps are written at "
                  "send time (0 here); the NIC appends the 4-byte FCS\n",
                  stream.name.c_str(), index, stream.tx_port.c_str(), stream.rx_port.value_or("(transmit only)").c_str(),
                  unsigned{stream.lanes}, frames.size());
    for (const plan::PreviewFrame& f : frames) {
      if (dump != nullptr) {
        pcap_pkthdr header{};
        header.ts.tv_usec = static_cast<suseconds_t>(written);  // the order they are listed in
        header.caplen = header.len = static_cast<bpf_u_int32>(f.bytes.size());
        pcap_dump(reinterpret_cast<u_char*>(dump), &header, f.bytes.data());
        ++written;
      } else if (options.as_json) {
        as_json.push_back({{"stream", stream.name}, {"lane", f.lane}, {"seq", f.seq},
                           {"frame_bytes", f.bytes.size() + 4}, {"hex", hex_line(f.bytes)}});
      } else if (options.hex) {
        std::printf("%s %u %llu %s\n", stream.name.c_str(), unsigned{f.lane}, static_cast<unsigned long long>(f.seq),
                    hex_line(f.bytes).c_str());
      } else {
        std::printf("frame seq %llu: %zu bytes + FCS\n%s", static_cast<unsigned long long>(f.seq), f.bytes.size(),
                    hex_dump(f.bytes).c_str());
      }
    }
  }
  if (dump != nullptr) {
    pcap_dump_close(dump);
    pcap_close(dead);
    std::printf("%llu frames written to %s\n", static_cast<unsigned long long>(written), options.pcap_path.c_str());
  } else if (options.as_json) {
    std::printf("%s\n", as_json.dump(2).c_str());
  }
  return 0;
}

}  // namespace lr::ctl
