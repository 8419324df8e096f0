// libFuzzer target: the bodies `linerate otg serve` reads. The first byte picks the body
// (its value mod 8: 0 POST /config, 1 POST /control/state, 2 POST /monitor/metrics,
// 4 POST /monitor/states, any other POST /monitor/capture); the rest is read as the
// server reads it: the bounded parser (lib/api/bounded_json.hpp), the string-length
// check (otg_limits.hpp), then the body's reader (the config against a fixed pair of data-plane ports). Only the refusals the
// server answers 400 may escape: ConfigRefused, each of its errors in the form "path: why",
// nlohmann::json's exceptions and JsonTooDeep. Anything else, a crash or
// a sanitizer's report is a finding.
//
// Seeds (tests/fuzz/corpus/otg_request, the selector digit '0'-'4' first): requests built
// by snappi 1.60.0 itself (regenerated from the open-traffic-generator/snappi and
// openapiart repositories by openapiart 0.3.42) and written with its .serialize(): a
// two-port config with flows of every header linerate reads (ethernet, vlan, ipv4, ipv6,
// udp, tcp, pfcpause, ethernetpause), increment / values / random fields, fixed_packets /
// fixed_seconds / continuous, pps and percentage rates, fixed / increment / weighted
// sizes, metrics with timestamps, captures and layer1 flow control; a config with devices
// (ethernets with a VLAN, IPv4 and IPv6 addresses and gateways) and flows between them;
// control_state for traffic start, stop and pause, capture start, link down and protocol
// start and stop; metrics_request for flows and ports; a capture_request; states_request
// for IPv4 and IPv6 neighbours.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "control/otg/otg_config.hpp"
#include "control/otg/otg_limits.hpp"
#include "control/otg/otg_requests.hpp"
#include "lib/api/bounded_json.hpp"

namespace {

using nlohmann::json;

// The data plane's ports a config is read against: p0 at 100G, p1 of a speed not known.
const std::map<std::string, uint64_t>& dataplane_ports() {
  static const std::map<std::string, uint64_t> ports{{"p0", 100'000'000'000}, {"p1", 0}};
  return ports;
}

void read_body(uint8_t selector, const json& body) {
  switch (selector % 8) {
    case 0: lr::otg::read_otg_config(body, dataplane_ports()); break;
    case 1: lr::otg::read_state_request(body); break;
    case 2: lr::otg::read_metrics_request(body); break;
    case 4: lr::otg::read_states_request(body); break;
    default: lr::otg::read_capture_request(body); break;
  }
}

}  // namespace

// UBSan reports and goes on by default, which a fuzzing run would not count: here undefined
// behaviour ends the run as a finding, with its stack.
extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const json body = text.empty() ? json::object() : lr::api::parse_bounded_json(text);
    if (!lr::otg::string_length_problems(body).empty()) return 0;  // answered 400 before any reader
    read_body(data[0], body);
  } catch (const lr::otg::ConfigRefused& e) {
    if (e.errors().empty()) __builtin_trap();
    for (const std::string& error : e.errors())
      if (error.find(": ") == std::string::npos) __builtin_trap();  // "path: why" (a key may be any text, "" too)
  } catch (const lr::api::JsonTooDeep&) {
  } catch (const json::exception&) {
  }
  return 0;
}
