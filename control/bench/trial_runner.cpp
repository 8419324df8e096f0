#include "control/bench/trial_runner.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "control/cli/stop_signal.hpp"

namespace lr::bench {

using nlohmann::json;

TrialRunner::TrialRunner(ctl::DataplaneClient& client, std::string profile_text, std::string profile_path)
    : client_(client), profile_text_(std::move(profile_text)), profile_path_(std::move(profile_path)) {}

// The profile's [[stream]] tables with the trial's frame size, load and duration.
std::string TrialRunner::streams_at(const TrialSpec& spec) const {
  toml::table root = toml::parse(profile_text_, profile_path_);
  toml::array streams;
  if (const toml::array* tables = root["stream"].as_array()) {
    for (const toml::node& node : *tables) {
      toml::table stream = *node.as_table();
      for (const char* key : {"frame_size", "frame_weights", "rate", "count", "duration", "burst"}) stream.erase(key);
      stream.insert("frame_size", int64_t{spec.frame_size});
      stream.insert("rate", fmt::format("{:.6f}%", spec.percent));
      stream.insert("duration", fmt::format("{}ns", spec.duration_ns));
      streams.push_back(std::move(stream));
    }
  }
  std::ostringstream out;
  out << toml::table{{"stream", std::move(streams)}};
  return out.str();
}

Trial TrialRunner::run(const TrialSpec& spec) {
  Trial trial;
  trial.spec = spec;
  client_.call("stream.load", {{"profile", streams_at(spec)}, {"path", profile_path_ + " (trial)"}});
  client_.call("traffic.start");
  while (!client_.call("traffic.status").value("tx_finished", false)) {
    if (ctl::stop_requested()) {
      trial.interrupted = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  trial.report = client_.call("traffic.stop");  // stops what still sends, drains, then counts

  double target_pps = 0;
  for (const json& s : trial.report.value("streams", json::array())) {
    trial.tx_packets += s.value("tx_packets", uint64_t{0});
    trial.rx_packets += s.value("rx_packets", uint64_t{0}) - s.value("duplicate", uint64_t{0});
    trial.lost += s.value("lost", int64_t{0});
    trial.offered_pps += s.value("tx_pps_achieved", 0.0);
    trial.offered_l1_bps += s.value("tx_l1_bps_achieved", 0.0);
    target_pps += s.value("target_pps", json()).is_number() ? s["target_pps"].get<double>() : 0.0;
  }
  const double loss = trial.tx_packets == 0 ? 1.0 : static_cast<double>(std::max<int64_t>(trial.lost, 0)) /
                                                          static_cast<double>(trial.tx_packets);
  const double offered = target_pps > 0 ? spec.percent * trial.offered_pps / target_pps : 0;
  trial.result = TrialResult{offered, offered * (1 - loss), loss, true};
  // The tester's limit is not the device's: a stream short of its target, or a link that
  // dropped during the trial, makes it invalid (the search repeats it once).
  for (const json& w : trial.report.value("warnings", json::array()))
    if (w.is_string() && w.get<std::string>().find(" below its target ") != std::string::npos)
      trial.invalid_reason = w.get<std::string>();
  // Link events are the port's whole history: only those since this trial began count.
  const std::string began = trial.report.value("started_at", "").substr(0, 19);
  for (const json& p : trial.report.value("ports", json::array()))
    for (const json& e : p.value("link_events", json::array()))
      if (!e.value("up", true) && e.value("at", "").substr(0, 19) >= began)
        trial.invalid_reason = fmt::format("port '{}' link went down during the trial", p.value("name", ""));
  if (trial.tx_packets == 0 && !trial.interrupted) trial.invalid_reason = "nothing was sent";
  trial.result.valid = trial.invalid_reason.empty() && !trial.interrupted;
  return trial;
}

}  // namespace lr::bench
