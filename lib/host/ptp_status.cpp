#include "lib/host/ptp_status.hpp"

#include <fmt/format.h>

#include <charconv>
#include <optional>

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

// The whole of `value` as a decimal integer, or nothing.
template <class T>
std::optional<T> number(std::string_view value) {
  T n = 0;
  const auto [at, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || at != value.data() + value.size()) return std::nullopt;
  return n;
}

// How close CLOCK_REALTIME must be to the NIC's clock to be taken as following it.
constexpr uint64_t kFollowsWithinNs = 1'000'000;

uint64_t magnitude(int64_t v) { return v < 0 ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v); }

// With hardware timestamping: ptp4l's port, locked to its grandmaster (`gm_error_ns` off it;
// 0 when this host is it), carried over to CLOCK_REALTIME by `phc`, CLOCK_REALTIME measured
// against the NIC's clock that ptp4l steers.
PtpVerdict through_phc(const PtpReading& reading, bool is_grandmaster, uint64_t gm_error_ns,
                       const std::optional<PhcMeasurement>& phc) {
  constexpr std::string_view kCannot = "CLOCK_REALTIME cannot be compared with the NIC's clock";
  if (!reading.ptp_timescale)
    return {
        false, 0,
        fmt::format("hardware timestamping: ptp4l did not say its timescale (TIME_PROPERTIES_DATA_SET): {}", kCannot)};
  if (*reading.ptp_timescale && !(reading.utc_offset_s && reading.utc_offset_valid))
    return {false, 0,
            fmt::format("hardware timestamping: the grandmaster's time is TAI (ptpTimescale) and its UTC offset {}: {}",
                        reading.utc_offset_s
                            ? fmt::format("({} s) is not marked valid (currentUtcOffsetValid 0)", *reading.utc_offset_s)
                            : std::string("is not given"),
                        kCannot)};
  const std::string interface = reading.interface.empty() ? "ptp4l's port" : reading.interface;
  if (!phc || !phc->problem.empty())
    return {false, 0,
            fmt::format("hardware timestamping: CLOCK_REALTIME against the NIC's clock of {} {}", interface,
                        phc ? "could not be read: " + phc->problem : std::string("was not measured"))};
  const uint64_t offset_ns = magnitude(phc->realtime_offset_ns);
  // phc2sys keeps CLOCK_REALTIME within a few microseconds of the NIC's clock; further off,
  // it is not following it (no phc2sys, or one without -w on PTP's timescale: 37 s).
  if (offset_ns > kFollowsWithinNs)
    return {false, 0,
            fmt::format("hardware timestamping: CLOCK_REALTIME reads {} ns from {}'s clock ({}), more than {} ms: it "
                        "does not follow that clock (is phc2sys running{}?)",
                        phc->realtime_offset_ns, interface, phc->device, kFollowsWithinNs / 1'000'000,
                        *reading.ptp_timescale ? ", with -w" : "")};
  const uint64_t error_ns = gm_error_ns + offset_ns + phc->error_ns;
  const std::string carried =
      fmt::format("CLOCK_REALTIME reads {} ns from that clock{}, measured within {} ns: within {} + {} + {} = {} ns",
                  phc->realtime_offset_ns,
                  *reading.ptp_timescale ? fmt::format(" less {} s (TAI - UTC)", *reading.utc_offset_s) : std::string(),
                  phc->error_ns, gm_error_ns, offset_ns, phc->error_ns, error_ns);
  if (is_grandmaster)
    return {true, error_ns,
            fmt::format("this host's clock is the grandmaster {}: {}'s clock ({}); {}", reading.gm_identity, interface,
                        phc->device, carried)};
  return {true, error_ns,
          fmt::format("ptp4l keeps {}'s clock ({}) on grandmaster {}, last {} ns off; {}", interface, phc->device,
                      reading.gm_identity, *reading.master_offset_ns, carried)};
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
    else if (key == "master_offset") r.master_offset_ns = number<int64_t>(value);
    else if (key == "interface") r.interface = value;
    else if (key == "currentUtcOffset") r.utc_offset_s = number<int32_t>(value);
    else if (key == "currentUtcOffsetValid") r.utc_offset_valid = value == "1";
    else if (key == "ptpTimescale" && (value == "0" || value == "1")) r.ptp_timescale = value == "1";
  }
  return r;
}

PtpVerdict judge_ptp(const PtpReading& reading, const std::optional<PhcMeasurement>& phc) {
  if (!reading.answered) return {false, 0, "ptp4l did not answer"};
  const bool hardware = reading.timestamping == "HARDWARE";
  if (!hardware && reading.timestamping != "SOFTWARE")
    return {false, 0,
            fmt::format("ptp4l's timestamping is '{}': not known to steer CLOCK_REALTIME",
                        reading.timestamping.empty() ? "unknown" : reading.timestamping)};
  const bool is_grandmaster = !reading.clock_identity.empty() && reading.gm_identity == reading.clock_identity &&
                              (reading.port_state == "MASTER" || reading.port_state == "GRAND_MASTER");
  const bool is_slave = reading.port_state == "SLAVE" && reading.gm_present && reading.master_offset_ns;
  if (!is_grandmaster && !is_slave)
    return {false, 0,
            fmt::format("ptp4l's port is {}: not locked to a grandmaster{}",
                        reading.port_state.empty() ? "in no known state" : reading.port_state,
                        reading.gm_identity.empty() ? "" : " (it hears " + reading.gm_identity + ")")};
  const uint64_t gm_error_ns = is_grandmaster ? 0 : magnitude(*reading.master_offset_ns);
  if (hardware) return through_phc(reading, is_grandmaster, gm_error_ns, phc);
  if (is_grandmaster) return {true, 0, fmt::format("this host's clock is the grandmaster {}", reading.gm_identity)};
  return {true, gm_error_ns,
          fmt::format("ptp4l keeps CLOCK_REALTIME on grandmaster {}, last {} ns off", reading.gm_identity,
                      *reading.master_offset_ns)};
}

}  // namespace lr::host
