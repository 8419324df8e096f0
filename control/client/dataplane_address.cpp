#include "control/client/dataplane_address.hpp"

#include <cstdlib>

namespace lr::ctl {

namespace {

std::string from_environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

}  // namespace

DataplaneAddress unix_socket_address(const std::string& path) {
  DataplaneAddress address;
  address.socket = path;
  address.named = true;
  return address;
}

DataplaneAddress dataplane_address(const std::string& socket_option, const std::string& engine_option,
                                   const tls::MutualTlsFiles& tls_options) {
  DataplaneAddress address;
  address.tls = tls_options;
  address.tls.option_prefix = "--engine-";
  for (auto [file, variable] : {std::pair{&address.tls.ca, "LINERATE_ENGINE_CA"},
                                {&address.tls.cert, "LINERATE_ENGINE_CERT"},
                                {&address.tls.key, "LINERATE_ENGINE_KEY"}})
    if (file->empty()) *file = from_environment(variable);
  address.named = !socket_option.empty() || !engine_option.empty();
  if (!engine_option.empty()) {
    address.engine = engine_option;
  } else if (!socket_option.empty()) {
    address.socket = socket_option;
  } else if (std::string engine = from_environment("LINERATE_ENGINE"); !engine.empty()) {
    address.engine = engine;
    address.named = true;  // no data plane of ours could stand in for another host's
  } else if (std::string socket = from_environment("LINERATE_SOCKET"); !socket.empty()) {
    address.socket = socket;
  } else {
    address.socket = "/run/linerate/dataplane.sock";
  }
  return address;
}

DataplaneAddress engine_address(const DataplaneAddress& options, const std::string& endpoint) {
  DataplaneAddress address = options;
  address.socket.clear();
  address.engine = endpoint;
  address.named = true;
  return address;
}

bool split_engine_address(const std::string& address, std::string& host, std::string& port) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size()) return false;
  host = address.substr(0, colon);
  port = address.substr(colon + 1);
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return false;
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string::npos) {
    return false;  // an IPv6 address without its brackets: where its port starts is a guess
  }
  return port.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace lr::ctl
