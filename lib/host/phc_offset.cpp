#include "lib/host/phc_offset.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/ethtool.h>
#include <linux/ptp_clock.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace lr::host {

namespace {

constexpr int64_t kNsPerS = 1'000'000'000;
constexpr int64_t kMaxS = int64_t{1} << 32;  // the header's range: sums and differences fit in int64
// Samples per read: linuxptp's phc2sys takes 5 by default; 9 costs a few microseconds more
// and gives the narrowest window a better chance of missing an interrupt.
constexpr unsigned kSamples = 9;
static_assert(kSamples <= PTP_MAX_SAMPLES);

// A ptp_clock_time in ns, or nothing outside [0, 2^32) s.
std::optional<int64_t> ns_of(const ptp_clock_time& t) {
  if (t.sec < 0 || t.sec >= kMaxS || t.nsec >= kNsPerS) return std::nullopt;
  return t.sec * kNsPerS + t.nsec;
}

}  // namespace

std::optional<PhcOffset> realtime_minus_phc(std::span<const PhcSample> samples, PhcTimescale timescale,
                                            int32_t utc_offset_s) {
  const PhcSample* best = nullptr;
  for (const PhcSample& s : samples)
    if (s.after_ns >= s.before_ns && (best == nullptr || s.after_ns - s.before_ns < best->after_ns - best->before_ns))
      best = &s;
  if (best == nullptr) return std::nullopt;
  const int64_t window_ns = best->after_ns - best->before_ns;
  const int64_t realtime_ns = best->before_ns + window_ns / 2;
  const int64_t phc_utc_ns = best->phc_ns - (timescale == PhcTimescale::kPtp ? utc_offset_s * kNsPerS : 0);
  // The midpoint rounds down: the truth lies up to ceil(window / 2) after it.
  return PhcOffset{realtime_ns - phc_utc_ns, static_cast<uint64_t>(window_ns - window_ns / 2)};
}

PhcMeasurement find_phc(dp::KernelIo& io, const std::string& interface) {
  PhcMeasurement m;
  m.interface = interface;
  if (interface.empty()) {
    m.problem = "ptp4l named no interface for its port";
    return m;
  }
  ethtool_ts_info info{};
  info.cmd = ETHTOOL_GET_TS_INFO;
  if (const int rc = io.ethtool(interface, &info); rc < 0)
    m.problem = fmt::format("cannot ask {} for its PTP hardware clock (ETHTOOL_GET_TS_INFO): {}", interface,
                            std::strerror(-rc));
  else if (info.phc_index < 0) m.problem = fmt::format("{} has no PTP hardware clock", interface);
  else m.device = fmt::format("/dev/ptp{}", info.phc_index);
  return m;
}

PhcMeasurement read_phc(PhcMeasurement found, PhcTimescale timescale, int32_t utc_offset_s) {
  PhcMeasurement m = std::move(found);
  if (!m.problem.empty()) return m;
  const std::string whose = fmt::format("{} ({}'s PTP hardware clock)", m.device, m.interface);
  const int fd = ::open(m.device.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    m.problem = fmt::format("cannot open {}: {}", whose, std::strerror(errno));
    return m;
  }
  ptp_sys_offset_extended offsets{};
  offsets.n_samples = kSamples;  // rsv[] stays 0: the system clock is CLOCK_REALTIME
  const int rc = ::ioctl(fd, PTP_SYS_OFFSET_EXTENDED, &offsets) < 0 ? errno : 0;
  ::close(fd);
  if (rc != 0) {
    m.problem = fmt::format("PTP_SYS_OFFSET_EXTENDED on {} failed: {}", whose, std::strerror(rc));
    return m;
  }
  PhcSample samples[kSamples];
  for (unsigned i = 0; i < kSamples; ++i) {
    const auto before = ns_of(offsets.ts[i][0]), phc = ns_of(offsets.ts[i][1]), after = ns_of(offsets.ts[i][2]);
    if (!before || !phc || !after) {
      m.problem = fmt::format("{} or CLOCK_REALTIME read a time before 1970 or after 2106 ({} s between {} s and {} s)",
                              whose, offsets.ts[i][1].sec, offsets.ts[i][0].sec, offsets.ts[i][2].sec);
      return m;
    }
    samples[i] = {*before, *phc, *after};
  }
  const auto offset = realtime_minus_phc(samples, timescale, utc_offset_s);
  if (!offset) {
    m.problem = fmt::format("CLOCK_REALTIME went back within each of {} reads of {}", kSamples, whose);
    return m;
  }
  m.realtime_offset_ns = offset->offset_ns;
  m.error_ns = offset->error_ns;
  return m;
}

PhcMeasurement measure_phc(dp::KernelIo& io, const std::string& interface, PhcTimescale timescale,
                           int32_t utc_offset_s) {
  return read_phc(find_phc(io, interface), timescale, utc_offset_s);
}

}  // namespace lr::host
