#include "control/client/run_target.hpp"

#include "control/client/host_client.hpp"
#include "lib/profile/device_spec_json.hpp"

namespace lr::ctl {

std::map<std::string, uint64_t> RunTarget::port_speeds() { return ctl::port_speeds(ports()); }

api::RunSpec DataplaneTarget::load(const std::vector<api::StreamSpec>& streams, const std::string& path,
                                   const std::optional<api::RunSpec>& run) {
  return run_.load(streams, path, run);
}

void DataplaneTarget::start(const std::vector<std::string>& streams) { run_.start(streams); }

void DataplaneTarget::hold(const std::string& stream, bool held) { run_.hold(stream, held); }

bool DataplaneTarget::all_sent() { return run_.status().tx_finished; }

bool DataplaneTarget::wait_until_sent(std::chrono::milliseconds poll, const std::function<void()>& each_poll) {
  return run_.wait_until_sent(poll, each_poll);
}

EndedRun DataplaneTarget::stop() { return run_.stop(); }

api::LatencyHistogram DataplaneTarget::histogram(const std::string& stream) { return run_.histogram(stream); }

std::vector<api::PortReport> DataplaneTarget::ports() { return run_.ports(); }

std::vector<api::StreamReport> DataplaneTarget::stream_stats() { return run_.stream_stats(); }

std::vector<api::PortTraffic> DataplaneTarget::port_traffic() { return run_.port_traffic(); }

std::vector<api::PortReport> DataplaneTarget::port_stats() { return run_.port_stats(); }

std::vector<api::PortNeighbors> DataplaneTarget::neighbors() { return HostClient(run_.dataplane()).neighbors(); }

PortPlace DataplaneTarget::place_of(const std::string& port) { return {&run_.dataplane(), port}; }

void DataplaneTarget::set_port(const std::string& port, const PortConfigChange& change) {
  PortClient(run_.dataplane()).set_config_json(port, change);
}

void DataplaneTarget::set_link(const std::string& port, bool up) { PortClient(run_.dataplane()).set_link_up(port, up); }

void DataplaneTarget::load_devices(const std::vector<api::DeviceSpec>& devices, const std::string& path) {
  HostClient(run_.dataplane()).load_devices(profile::to_json(devices), path);
}

}  // namespace lr::ctl
