#include "lib/profile/stream_hosts.hpp"

#include <fmt/format.h>

#include <vector>

#include "lib/hosts/host_expansion.hpp"
#include "lib/hosts/stream_source.hpp"
#include "lib/profile/load_toml.hpp"

namespace lr::profile {

void check_stream_hosts(const Profile& profile) {
  std::vector<api::HostSpec> hosts;
  bool expanded = false;  // the devices are expanded once, and only for a profile with an auto stream
  for (size_t i = 0; i < profile.streams.size(); ++i) {
    const api::StreamSpec& s = profile.streams[i];
    if (!s.eth_src_auto && !s.eth_dst_auto) continue;
    if (!expanded) {
      // A device that does not expand was refused at its own table.
      for (const api::DeviceSpec& d : profile.devices)
        if (auto range = hosts::expand_device(d)) hosts.insert(hosts.end(), range->begin(), range->end());
      expanded = true;
    }
    if (const auto source = hosts::stream_source(hosts, s); !source)
      throw ConfigError(s.file.empty() ? profile.path : s.file, s.loc_of("eth"),
                        fmt::format("stream[{}].{}", i, s.eth_dst_auto ? "eth.dst" : "eth.src"), source.error());
  }
}

}  // namespace lr::profile
