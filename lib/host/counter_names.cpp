#include "lib/host/counter_names.hpp"

#include <array>
#include <cctype>
#include <regex>
#include <utility>
#include <vector>

namespace lr::dp {

namespace {

struct Rule {
  std::regex pattern;
  const char* canonical;  // may use $1 for the priority or lane number
};

const std::vector<Rule>& rules() {
  // Driver names by family: mlx5 (`ethtool -S`, "_phy" = physical port counters), ice and
  // i40e (ethdev xstats and `ethtool -S`), the ethdev basic stats, ethtool FEC stats.
  static const std::vector<Rule> kRules = [] {
    const std::array<std::pair<const char*, const char*>, 26> table{{
        {"rx_packets(_phy)?|ipackets|rx_good_packets", "rx_packets"},
        {"tx_packets(_phy)?|opackets|tx_good_packets", "tx_packets"},
        {"rx_bytes(_phy)?|ibytes|rx_good_bytes", "rx_bytes"},
        {"tx_bytes(_phy)?|obytes|tx_good_bytes", "tx_bytes"},
        {"imissed|rx_missed_errors|rx_out_of_buffer", "rx_missed"},
        {"ierrors|rx_errors", "rx_errors"},
        {"oerrors|tx_errors", "tx_errors"},
        {"rx_crc_errors(_phy)?|rx_crc_errors\\.nic|port\\.rx_crc_errors", "rx_crc_errors"},
        {"rx_pause_ctrl_phy|rx_xoff_packets|link_xoff_rx|port\\.link_xoff_rx", "rx_pause"},
        {"tx_pause_ctrl_phy|tx_xoff_packets|link_xoff_tx|port\\.link_xoff_tx", "tx_pause"},
        {"rx_prio([0-7])_pause", "rx_pause_prio$1"},
        {"tx_prio([0-7])_pause", "tx_pause_prio$1"},
        {"rx_prio([0-7])_pause_duration", "rx_pause_duration_us_prio$1"},
        {"tx_prio([0-7])_pause_duration", "tx_pause_duration_us_prio$1"},
        {"rx_priority([0-7])_xoff_packets|rx_priority_([0-7])_xoff(\\.nic)?|port\\.rx_priority_([0-7])_xoff", "rx_pause_prio$1"},
        {"tx_priority([0-7])_xoff_packets|tx_priority_([0-7])_xoff(\\.nic)?|port\\.tx_priority_([0-7])_xoff", "tx_pause_prio$1"},
        {"rx_corrected_bits_phy|corrected_bits", "fec_corrected_bits"},
        {"corrected_bits_lane([0-9]+)", "fec_corrected_bits_lane$1"},
        {"corrected_blocks|rx_fec_corrected_blocks", "fec_corrected_blocks"},
        {"corrected_blocks_lane([0-9]+)", "fec_corrected_blocks_lane$1"},
        {"uncorrectable_blocks|rx_fec_uncorrectable_blocks", "fec_uncorrectable_blocks"},
        {"uncorrectable_blocks_lane([0-9]+)", "fec_uncorrectable_blocks_lane$1"},
        {"rx_err_lane_([0-9]+)_phy", "rx_bit_errors_lane$1"},
        {"rx_pcs_symbol_err_phy", "rx_pcs_symbol_errors"},
        {"rx_symbol_err_phy|rx_symbol_errors", "rx_symbol_errors"},
        {"link_down_events_phy|link_down_events", "link_down_events"},
    }};
    std::vector<Rule> out;
    for (const auto& [pattern, canonical] : table) out.push_back(Rule{std::regex(pattern), canonical});
    return out;
  }();
  return kRules;
}

}  // namespace

std::string canonical_counter_name(const std::string& source, const std::string& name) {
  (void)source;  // the names do not collide across sources today; kept for the day they do
  std::smatch match;
  for (const Rule& rule : rules()) {
    if (!std::regex_match(name, match, rule.pattern)) continue;
    std::string out = rule.canonical;
    if (const auto at = out.find("$1"); at != std::string::npos) {
      std::string number;
      for (size_t i = 1; i < match.size() && number.empty(); ++i)
        if (match[i].matched && !match[i].str().empty() && std::isdigit(static_cast<unsigned char>(match[i].str()[0])))
          number = match[i].str();
      out.replace(at, 2, number);
    }
    return out;
  }
  return "";
}

}  // namespace lr::dp
