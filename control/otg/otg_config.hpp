#pragma once
// An Open Traffic Generator config (open-traffic-generator/models 1.60.0: the JSON body
// of POST /config, as snappi sends it) into the typed contract: each flow becomes a stream
// in the form stream.load takes (its [[stream]] keys), read by the stream's own reader,
// so there is no second stream model. What linerate cannot do is refused naming the
// config's JSON path ("flows[2].packet[3]: gtpv1 is not supported by linerate"); what
// it does approximately is taken with a warning.

#include <nlohmann/json.hpp>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "dataplane/api/stream_spec.hpp"

namespace lr::otg {

/// The config's problems, every one with its JSON path: the HTTP 400's "errors".
class ConfigRefused : public std::runtime_error {
 public:
  explicit ConfigRefused(std::vector<std::string> errors)
      : std::runtime_error(errors.empty() ? "refused" : errors.front()), errors_(std::move(errors)) {}
  const std::vector<std::string>& errors() const noexcept { return errors_; }

 private:
  std::vector<std::string> errors_;
};

struct OtgConfig {
  nlohmann::json body;                          ///< as posted: GET /config answers it
  std::map<std::string, std::string> ports;     ///< OTG port name -> the data plane's port (its location)
  std::vector<api::StreamSpec> streams;         ///< one per flow, named as the flow
  std::vector<std::string> capture_ports;       ///< the ports the config's captures name
  std::vector<std::string> warnings;
};

/// Reads `body` against the data plane's port names. Throws ConfigRefused.
OtgConfig read_otg_config(const nlohmann::json& body, const std::vector<std::string>& dataplane_ports);

}  // namespace lr::otg
