#include <fmt/format.h>

#include "control/suites/bench/rfc2889/tests.hpp"
#include "control/suites/bench/rfc2889_section.hpp"

namespace lr::bench::rfc2889 {

namespace {

constexpr uint64_t kOversizeFrames = 1000;
constexpr double kOversizePercent = 1;
constexpr unsigned kHeaderAndFcsBytes = 18;

// The MTU a port has (its packets: the frame less header and FCS).
unsigned mtu_of(const profile::Profile& profile, const std::string& port) {
  const api::PortSpec* spec = profile.find_port(port);
  return spec != nullptr && spec->mtu != 0 ? spec->mtu : 1500;
}

}  // namespace

// Oversize frames from port 0 to port 1: a device filters every one. Undersize frames and
// frames with a bad FCS: the ports here cannot send them (a PMD pads to 64 bytes; the FCS
// is the MAC's), so those two are SKIPPED with the reason rather than passed.
void errored_frames(Plan& p) {
  Result result = entry("errored_frames", "5.9");
  result.undersize = ErroredCheck{
      std::nullopt, "SKIPPED", "the tester's ports pad every frame to 64 bytes: an undersize frame cannot be sent", {}, {}};
  result.bad_fcs = ErroredCheck{std::nullopt, "SKIPPED",
                                "the FCS is the port's own (computed by the MAC, or none on a virtual device): a frame "
                                "with a bad FCS cannot be sent",
                                {}, {}};
  const uint16_t bytes = p.cfg.oversize_bytes;
  ErroredCheck oversize{bytes, "", "", {}, {}};
  for (size_t i : {size_t{0}, size_t{1}}) {
    const unsigned mtu = mtu_of(p.profile, p.port(i));
    if (bytes - kHeaderAndFcsBytes > mtu) {
      oversize.verdict = "SKIPPED";
      oversize.why = fmt::format("port '{}''s MTU ({}) cannot carry {}-byte frames: set its [[port]] mtu to {} or more",
                                    p.port(i), mtu, bytes, bytes - kHeaderAndFcsBytes);
    }
  }
  if (oversize.verdict.empty()) {
    Streams streams(p);
    streams.traffic("oversize", 0, 1, bytes, {api::RateKind::kPercentOfLine, kOversizePercent}, kHelloSettleNs, 0,
                    kOversizeFrames);
    const Measured m = measure(p, streams, "errored_frames", fmt::format("oversize {} B", bytes));
    if (!m.valid()) {
      oversize.verdict = "SKIPPED";
      oversize.why = m.interrupted ? "interrupted" : m.invalid;
    } else {
      const api::StreamReport& s = stream_of(m.run.report, "oversize");
      const uint64_t forwarded = s.rx_packets + s.misdelivered;
      oversize.tx_frames = s.tx_packets;
      oversize.forwarded_frames = forwarded;
      oversize.verdict = forwarded == 0 ? "PASS" : "FAIL";
      oversize.why = forwarded == 0 ? fmt::format("all {} oversize frames filtered", s.tx_packets)
                                    : fmt::format("{} of {} oversize ({}-byte) frames forwarded", forwarded,
                                                  s.tx_packets, bytes);
    }
  }
  result.verdict = oversize.verdict;
  result.why = fmt::format("oversize: {}; undersize and bad FCS not sent (SKIPPED)", oversize.why);
  result.oversize = std::move(oversize);
  p.result(result);
}

}  // namespace lr::bench::rfc2889
