#include "lib/host/ptp_status.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>

namespace lr::host {

namespace {

// One "key value" line of a response (leading tabs, then the key, spaces, the value).
bool key_value(std::string_view line, std::string_view& key, std::string_view& value) {
  const size_t start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos || line.substr(0, start).find('\t') == std::string_view::npos) return false;
  line = line.substr(start);
  const size_t gap = line.find_first_of(" \t");
  if (gap == std::string_view::npos) return false;
  key = line.substr(0, gap);
  value = line.substr(gap);
  value = value.substr(std::min(value.size(), value.find_first_not_of(" \t")));
  while (!value.empty() && (value.back() == ' ' || value.back() == '\r')) value.remove_suffix(1);
  return true;
}

}  // namespace

PtpReading parse_pmc_output(std::string_view text) {
  PtpReading r;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    std::string_view key, value;
    if (line.find("RESPONSE MANAGEMENT TIME_STATUS_NP") != std::string_view::npos) r.answered = true;
    if (!key_value(line, key, value)) continue;
    if (key == "portState") r.port_state = value;
    else if (key == "timestamping") r.timestamping = value;
    else if (key == "clockIdentity") r.clock_identity = value;
    else if (key == "gmIdentity") r.gm_identity = value;
    else if (key == "gmPresent") r.gm_present = value == "true";
    else if (key == "master_offset") {
      int64_t offset = 0;
      const auto [at, ec] = std::from_chars(value.data(), value.data() + value.size(), offset);
      if (ec == std::errc() && at == value.data() + value.size()) r.master_offset_ns = offset;
    }
  }
  return r;
}

PtpVerdict judge_ptp(const PtpReading& reading) {
  if (!reading.answered) return {false, 0, "ptp4l did not answer"};
  if (reading.timestamping == "HARDWARE")
    return {false, 0,
            "ptp4l steers the NIC's clock (hardware timestamping); CLOCK_REALTIME follows it only through phc2sys, "
            "which linerate does not read"};
  if (reading.timestamping != "SOFTWARE")
    return {false, 0,
            fmt::format("ptp4l's timestamping is '{}': not known to steer CLOCK_REALTIME",
                        reading.timestamping.empty() ? "unknown" : reading.timestamping)};
  const bool is_grandmaster = !reading.clock_identity.empty() && reading.gm_identity == reading.clock_identity;
  if (is_grandmaster && (reading.port_state == "MASTER" || reading.port_state == "GRAND_MASTER"))
    return {true, 0, fmt::format("this host's clock is the grandmaster {}", reading.gm_identity)};
  if (reading.port_state == "SLAVE" && reading.gm_present && reading.master_offset_ns) {
    const uint64_t error = static_cast<uint64_t>(std::llabs(*reading.master_offset_ns));
    return {true, error,
            fmt::format("ptp4l keeps CLOCK_REALTIME on grandmaster {}, last {} ns off", reading.gm_identity,
                        *reading.master_offset_ns)};
  }
  return {false, 0,
          fmt::format("ptp4l's port is {}: not locked to a grandmaster{}",
                      reading.port_state.empty() ? "in no known state" : reading.port_state,
                      reading.gm_identity.empty() ? "" : " (it hears " + reading.gm_identity + ")")};
}

}  // namespace lr::host
