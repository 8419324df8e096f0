#pragma once
// Parsers for the quantities a profile writes as strings with units: rates ("10%",
// "1.5Mpps", "5Gbps", "5Gbps-l2", "max"), durations ("5s", "100ms", "20us"),
// link speeds ("40G", "25Gbps"), byte sizes ("64KB", "1MiB") and addresses. Each returns nullopt on bad input; the
// caller turns that into a ConfigError that says where.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lib/profile/profile.hpp"

namespace lr::profile {

std::optional<api::Rate> parse_rate(std::string_view text);
/// Why parse_rate refuses `text`: "'110%' is above line rate (a share of it is at most
/// 100%)", else "'x' is not a rate: write ...".
std::string rate_refusal(std::string_view text);
std::optional<uint64_t> parse_duration_ns(std::string_view text);
std::optional<uint64_t> parse_link_speed_bps(std::string_view text);
/// "64KB", "1.5MB" (powers of 1000), "64KiB", "1MiB" (powers of 1024), "1500B": whole bytes.
std::optional<uint64_t> parse_bytes(std::string_view text);
std::optional<api::MacAddr> parse_mac(std::string_view text);
std::optional<uint32_t> parse_ipv4(std::string_view text);  ///< host byte order
std::optional<api::Ipv6Addr> parse_ipv6(std::string_view text);

// The forms the parsers read back exactly, for the specs' JSON forms.
std::string rate_text(const api::Rate& rate);         ///< "12.5%", "1000000bps", "5bps-l2", "10pps", "max"
std::string duration_text(uint64_t ns);               ///< "250ns"
std::string link_speed_text(uint64_t bps);            ///< "40000Mbps"

}  // namespace lr::profile
