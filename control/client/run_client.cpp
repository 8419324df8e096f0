#include "control/client/run_client.hpp"

#include <fmt/format.h>

#include <thread>
#include <type_traits>

#include "control/client/stop_signal.hpp"
#include "lib/api/rpc.hpp"
#include "lib/common/base64.hpp"
#include "lib/profile/port_spec_json.hpp"
#include "lib/profile/run_spec_json.hpp"
#include "lib/profile/stream_spec_json.hpp"
#include "lib/profile/switch_spec_json.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

// Each item of an answer that is an array, read by `read`.
template <class Read>
auto each_of(const json& items, Read&& read) {
  std::vector<std::invoke_result_t<Read, const json&>> out;
  for (const json& item : items) out.push_back(read(item));
  return out;
}

}  // namespace

api::RunSpec RunClient::load(const std::vector<api::StreamSpec>& streams, const std::string& path,
                             const std::optional<api::RunSpec>& run) {
  return profile::run_spec_from_json(load_json(streams, path, run).value("run", json::object()), "stream.load");
}

json RunClient::load_json(const std::vector<api::StreamSpec>& streams, const std::string& path,
                          const std::optional<api::RunSpec>& run) {
  json params{{"streams", profile::to_json(streams)}, {"path", path}};
  if (run) params["run"] = profile::to_json(*run);
  return client_.call("stream.load", params);
}

json RunClient::add_json(const std::vector<api::StreamSpec>& streams, const std::string& path) {
  return client_.call("stream.add", {{"streams", profile::to_json(streams)}, {"path", path}});
}

json RunClient::remove_stream_json(const std::string& stream) {
  return client_.call("stream.remove", {{"stream", stream}});
}

json RunClient::stop_stream_json(const std::string& stream) { return client_.call("stream.stop", {{"stream", stream}}); }

json RunClient::set_rate_json(const std::string& stream, const std::string& rate) {
  return client_.call("stream.rate.set", {{"stream", stream}, {"rate", rate}});
}

json RunClient::stream_list_json() { return client_.call("stream.list"); }

std::vector<api::StreamSpec> RunClient::specs() {
  const json listed = client_.call("stream.list", {{"specs", true}});
  std::vector<api::StreamSpec> out;
  for (size_t i = 0; i < listed.size(); ++i) out.push_back(profile::stream_spec_from_json(listed[i], "stream.list", i));
  return out;
}

json RunClient::plan_json() { return client_.call("run.plan"); }

std::vector<api::PortReport> RunClient::ports() { return each_of(port_list_json(), api::port_report_from_json); }

json RunClient::port_list_json() { return client_.call("port.list"); }

std::vector<api::PortSpec> RunClient::port_specs() {
  std::vector<api::PortSpec> out;
  for (const json& p : port_list_json())
    if (const auto spec = p.find("spec"); spec != p.end()) out.push_back(profile::port_spec_from_json(*spec, "port.list"));
  return out;
}

std::vector<api::SwitchSpec> RunClient::switch_specs() {
  return each_of(client_.call("switch.list"), [](const json& s) { return profile::switch_spec_from_json(s, "switch.list"); });
}

std::map<std::string, uint64_t> RunClient::port_speeds() { return ctl::port_speeds(ports()); }

std::vector<api::PortTraffic> RunClient::port_traffic() { return ctl::port_traffic(port_stats_json()); }

std::vector<api::PortReport> RunClient::port_stats() { return each_of(port_stats_json(), api::port_report_from_json); }

json RunClient::port_stats_json() { return client_.call("stats.ports"); }

std::vector<api::SwitchReport> RunClient::switch_stats() {
  return each_of(client_.call("stats.switches"), api::switch_report_from_json);
}

std::vector<api::StreamReport> RunClient::stream_stats() { return stream_reports(stream_stats_json()); }

json RunClient::stream_stats_json() { return client_.call("stats.streams"); }

api::LatencyHistogram RunClient::histogram(const std::string& stream) {
  return api::latency_histogram_from_json(histogram_json(stream));
}

json RunClient::histogram_json(const std::string& stream) {
  return client_.call("stats.histogram", {{"stream", stream}});
}

json RunClient::lcores_json() { return client_.call("stats.lcores"); }

json RunClient::snapshot_json(const std::vector<std::string>& ports) {
  std::vector<std::pair<std::string, json>> calls{
      {"traffic.status", json::object()}, {"stats.ports", json::object()}, {"stats.streams", json::object()}};
  for (const std::string& port : ports) calls.emplace_back("port.counters", json{{"port", port}});
  std::vector<DataplaneClient::Answer> answers = client_.call_all(calls);
  for (size_t i = 0; i < 3; ++i)
    if (!answers[i].ok()) throw RpcCallError(answers[i].error_code, answers[i].error);
  json counters = json::object();
  for (size_t i = 0; i < ports.size(); ++i)
    if (DataplaneClient::Answer& a = answers[3 + i]; a.ok()) counters[ports[i]] = std::move(a.result["counters"]);
  json snapshot = json::object();  // each part moved in: a snapshot of many ports and streams is large
  snapshot["traffic"] = std::move(answers[0].result);
  snapshot["ports"] = std::move(answers[1].result);
  snapshot["streams"] = std::move(answers[2].result);
  snapshot["counters"] = std::move(counters);
  return snapshot;
}

api::CaptureReport RunClient::start_capture(const api::CaptureSpec& spec) {
  return api::capture_report_from_json(client_.call("capture.start", api::to_json(spec)));
}

api::CaptureReport RunClient::stop_capture(uint32_t id) {
  return api::capture_report_from_json(client_.call("capture.stop", {{"id", id}}));
}

void RunClient::read_capture_file(uint32_t id, const std::function<void(std::string_view)>& piece) {
  uint64_t offset = 0;
  for (;;) {
    const json answer = client_.call("capture.read", {{"id", id}, {"offset", offset}});
    const std::optional<std::string> data = base64_decode(answer.at("data").get<std::string>());
    if (!data)
      throw RpcCallError(static_cast<int>(api::RpcCode::kInternalError),
                         fmt::format("capture.read of capture {} answered data that is not base64", id));
    const auto size = answer.at("size").get<uint64_t>();
    if (!data->empty()) piece(*data);
    offset += data->size();
    if (offset >= size) return;
    if (data->empty())  // a file that shrank, or a data plane that answers nothing: never a whole file
      throw RpcCallError(static_cast<int>(api::RpcCode::kInternalError),
                         fmt::format("capture.read of capture {} answered no bytes at {} of its {}", id, offset, size));
  }
}

std::string RunClient::capture_file(uint32_t id) {
  std::string bytes;
  read_capture_file(id, [&](std::string_view piece) { bytes += piece; });
  return bytes;
}

bool RunClient::remove_capture_file(uint32_t id) {
  return client_.call("capture.remove", {{"id", id}}).at("removed").get<bool>();
}

std::vector<api::CaptureReport> RunClient::captures() {
  return api::capture_reports_from_json(client_.call("capture.list"));
}

namespace {

json selection_params(const TrafficSelection& selection) {
  json params = json::object();
  if (!selection.streams.empty()) params["streams"] = selection.streams;
  if (!selection.ports.empty()) params["ports"] = selection.ports;
  if (selection.at_utc_ns) params["at_utc_ns"] = *selection.at_utc_ns;
  if (selection.lease_ms) params["lease_ms"] = *selection.lease_ms;
  return params;
}

}  // namespace

void RunClient::start(const std::vector<std::string>& streams) { start_json({streams, {}}); }

json RunClient::start_json(const TrafficSelection& selection) {
  return client_.call("traffic.start", selection_params(selection));
}

void RunClient::hold(const std::string& stream, bool held) { hold_json(stream, held); }

json RunClient::hold_json(const std::string& stream, bool held) {
  return client_.call("stream.hold", {{"stream", stream}, {"held", held}});
}

api::TrafficStatus RunClient::status() { return api::traffic_status_from_json(status_json()); }

json RunClient::status_json() { return client_.call("traffic.status"); }

bool RunClient::wait_until_sent(std::chrono::milliseconds poll, const std::function<void()>& each_poll) {
  while (!stop_requested()) {
    if (status().tx_finished) return true;
    if (each_poll) each_poll();
    std::this_thread::sleep_for(poll);
  }
  return false;
}

EndedRun RunClient::stop() {
  json report = stop_json();
  api::RunReport typed = api::run_report_from_json(report);
  return {std::move(report), std::move(typed)};
}

json RunClient::stop_json(const TrafficSelection& selection) {
  return client_.call("traffic.stop", selection_params(selection));
}

json RunClient::last_report_json() { return client_.call("report.last"); }

std::map<std::string, uint64_t> port_speeds(const std::vector<api::PortReport>& ports) {
  std::map<std::string, uint64_t> speeds;
  for (const api::PortReport& p : ports) speeds[p.name] = p.speed_bps;
  return speeds;
}

std::vector<api::PortTraffic> port_traffic(const json& stats_ports) {
  std::vector<api::PortTraffic> out;
  for (const json& port : stats_ports) {
    api::PortTraffic traffic = api::port_traffic_from_json(port.value("linerate", json::object()));
    traffic.name = port.value("name", "");
    out.push_back(std::move(traffic));
  }
  return out;
}

std::vector<api::StreamReport> stream_reports(const json& stats_streams) {
  std::vector<api::StreamReport> out;
  for (const json& stream : stats_streams) out.push_back(api::stream_report_from_json(stream));
  return out;
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
