#include "control/otg/otg_fields.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>

namespace lr::otg {

using nlohmann::json;

namespace {

// A field linerate does not vary: the value its frames carry (none: computed per frame,
// such as a length or a checksum).
struct Fixed {
  std::optional<uint64_t> value;
  const char* what;  ///< said when another value is asked: "linerate's frames carry 0"
};

struct HeaderFields {
  std::set<std::string> read;          ///< the fields linerate reads into the stream
  std::map<std::string, Fixed> fixed;  ///< the others of the model
};

const std::map<std::string, HeaderFields>& header_fields() {
  static const std::map<std::string, HeaderFields> kFields{
      {"ethernet", {{"src", "dst", "pfc_queue"}, {{"ether_type", {std::nullopt, "the type of the header after it"}}}}},
      {"vlan", {{"id", "priority"}, {{"cfi", {0, "CFI 0"}}, {"tpid", {0x8100, "TPID 0x8100"}}}}},
      {"ipv4", {{"src", "dst", "time_to_live", "priority"},
                {{"version", {4, "version 4"}}, {"header_length", {5, "a 20-byte header (5)"}},
                 {"total_length", {std::nullopt, "the frame's own length"}}, {"identification", {0, "identification 0"}},
                 {"reserved", {0, "the reserved bit 0"}}, {"dont_fragment", {1, "DF set (benchmark frames are never fragmented)"}},
                 {"more_fragments", {0, "MF 0"}}, {"fragment_offset", {0, "offset 0"}},
                 {"protocol", {std::nullopt, "the protocol of its L4 header"}},
                 {"header_checksum", {std::nullopt, "the right checksum"}}}}},
      {"ipv6", {{"src", "dst", "hop_limit", "flow_label", "traffic_class"},
                {{"version", {6, "version 6"}}, {"payload_length", {std::nullopt, "the frame's own length"}},
                 {"next_header", {std::nullopt, "the protocol of its L4 header"}}}}},
      {"udp", {{"src_port", "dst_port"},
               {{"length", {std::nullopt, "the datagram's own length"}}, {"checksum", {std::nullopt, "the right checksum"}}}}},
      {"tcp", {{"src_port", "dst_port", "seq_num", "ack_num", "data_offset", "ecn_ns", "ecn_cwr", "ecn_echo", "ctl_urg",
                "ctl_ack", "ctl_psh", "ctl_rst", "ctl_syn", "ctl_fin", "window", "checksum"},
               {}}},
      {"pfcpause", {{"dst", "src", "ether_type", "control_op_code", "class_enable_vector", "pause_class_0",
                     "pause_class_1", "pause_class_2", "pause_class_3", "pause_class_4", "pause_class_5",
                     "pause_class_6", "pause_class_7"},
                    {}}},
      {"ethernetpause", {{"dst", "src", "ether_type", "control_op_code", "time"}, {}}}};
  return kFields;
}

}  // namespace

void check_header_fields(const std::string& kind, const json& header, const std::string& path, unsigned l4_protocol,
                         Problems& p) {
  const auto fields = header_fields().find(kind);
  if (fields == header_fields().end() || !header.is_object()) return;
  for (const auto& [name, pattern] : header.items()) {
    const std::string at = path + "." + name;
    if (fields->second.read.contains(name)) continue;
    const auto fixed = fields->second.fixed.find(name);
    if (fixed == fields->second.fixed.end()) {
      p.refuse(at, fmt::format("not a field of {} in the OTG model (1.60.0)", kind));
      continue;
    }
    const std::string choice = choice_of(pattern, "value");
    if (choice == "auto" || choice == "generated") continue;
    std::optional<uint64_t> carried = fixed->second.value;
    if ((kind == "ipv4" && name == "protocol") || (kind == "ipv6" && name == "next_header")) carried = l4_protocol;
    const auto asked = choice == "value" ? whole_number(pattern.value("value", json())) : std::nullopt;
    if (asked && carried && *asked == *carried) continue;
    if (!carried && choice == "value") {
      p.warnings.push_back(fmt::format("{}: linerate writes {}", at, fixed->second.what));
      continue;
    }
    p.refuse(at, fmt::format("linerate's frames carry {}: other values are not supported", fixed->second.what));
  }
}

void check_flow_keys(const json& flow, const std::string& path, Problems& p) {
  static const std::set<std::string> kRead{"name", "tx_rx", "packet", "size", "rate", "duration", "metrics"};
  for (const auto& [key, value] : flow.items()) {
    if (kRead.contains(key) || value.is_null() || (value.is_array() && value.empty())) continue;
    if (key == "egress_packet" || key == "payload")
      p.refuse(path + "." + key, "not supported by linerate (its payload is zeros and its signature)");
    else p.refuse(path + "." + key, "not a field of a flow in the OTG model (1.60.0)");
  }
}

void check_config_keys(const json& config, Problems& p) {
  static const std::set<std::string> kRead{"ports", "lags", "layer1", "captures", "devices", "flows", "options"};
  static const std::set<std::string> kModel{"events", "lldp", "stateful_flows", "egress_only_tracking"};
  for (const auto& [key, value] : config.items()) {
    if (kRead.contains(key) || value.is_null() || (value.is_array() && value.empty())) continue;
    p.refuse(key, kModel.contains(key) ? std::string("not supported by linerate")
                                       : std::string("not a field of a config in the OTG model (1.60.0)"));
  }
}

}  // namespace lr::otg
