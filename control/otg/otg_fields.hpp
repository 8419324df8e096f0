#pragma once
// The fields of an OTG config that linerate does not read, checked rather than ignored: a
// field set to what linerate's frames carry anyway is taken; one it computes (lengths,
// checksums, the next header's type) is taken with a warning when given a value; any
// other value is refused at its path, as is a name that is not in the model (models
// 1.60.0), so a script's typo or an unsupported field never sends other frames than asked.

#include <nlohmann/json.hpp>

#include <string>

#include "control/otg/otg_json.hpp"

namespace lr::otg {

/// A header of kind `kind` ("ipv4"), at `path` ("flows[0].packet[2].ipv4"); `l4_protocol`
/// is the IP protocol of the flow's L4 header (17 or 6).
void check_header_fields(const std::string& kind, const nlohmann::json& header, const std::string& path,
                         unsigned l4_protocol, Problems& p);

/// A flow's own keys (tx_rx, packet, size, ...), and the config's.
void check_flow_keys(const nlohmann::json& flow, const std::string& path, Problems& p);
void check_config_keys(const nlohmann::json& config, Problems& p);

}  // namespace lr::otg
