#include "control/client/stream_loading.hpp"

#include "dataplane/profile/stream_spec_json.hpp"

namespace lr::ctl {

void load_streams(DataplaneClient& client, const std::vector<api::StreamSpec>& streams, const std::string& path) {
  client.call("stream.load", {{"streams", profile::to_json(streams)}, {"path", path}});
}

std::vector<api::StreamSpec> streams_at_percent(std::vector<api::StreamSpec> streams, double percent) {
  for (api::StreamSpec& s : streams) {
    s.rate = {api::RateKind::kPercentOfLine, percent};
    s.count = 0;
    s.duration_ns = 0;
    s.burst.reset();
  }
  return streams;
}

}  // namespace lr::ctl
