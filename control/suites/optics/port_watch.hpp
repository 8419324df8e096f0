#pragma once
// One port under `linerate optics watch`: its readings, interval after interval, become
// what monitoring wants: link flaps and the time of the last change, FEC codeword rates and
// a pre-FEC BER estimate, the module in the cage and when it was swapped, and the news to
// say (a flag raised, a flap, a driver that lacks a counter: once). Pure: the tests feed
// it readings from the kernel-interface fake.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "control/suites/optics/watch_reading.hpp"

namespace lr::optics {

/// How a pre-FEC BER was estimated.
enum class BerMethod : uint8_t {
  kCorrectedBits,     ///< corrected bits over the bits the link carried: the estimate itself
  kCorrectedCodewordsLowerBound,  ///< corrected codewords over the bits: at least one bit each, a lower bound
};
const char* ber_method_name(BerMethod method) noexcept;

/// A monitored quantity of a module split into its name and lane ("rx_power[3]": rx_power, 3;
/// an SFP's single "rx_power": lane 1).
struct MonitorName {
  std::string quantity;
  unsigned lane = 0;  ///< 0: the module's own (temperature, voltage)
};
MonitorName split_monitor_name(const std::string& name);

struct PortStatus {
  std::string port;
  std::optional<PortReading> reading;  ///< the latest that arrived; none before the first
  bool current = false;                ///< this interval's read arrived
  std::string missed;                  ///< why not, when it did not ("did not finish within 5 s")
  double time_s = 0;                   ///< the interval's: its reading's, or when it was asked
  uint64_t flaps = 0;                  ///< link drops seen since the watch began
  double last_change_s = 0;            ///< when the link last changed; 0: not since the watch began
  uint64_t module_changes = 0;         ///< modules swapped (a new serial) since the watch began
  std::optional<double> corrected_per_s;      ///< FEC corrected codewords per second, last interval
  std::optional<double> uncorrectable_per_s;  ///< and uncorrectable ones
  std::optional<double> pre_fec_ber;
  BerMethod ber_method = BerMethod::kCorrectedBits;
};

class PortWatch {
 public:
  explicit PortWatch(std::string port) { status_.port = std::move(port); }

  /// Takes this interval's reading; returns the news to say, one line each.
  std::vector<std::string> update(PortReading reading);
  /// This interval's read, asked at `now_s`, did not arrive (`why`); the news to say (once
  /// per outage and reason). A reading that read nothing at all is taken as this.
  std::vector<std::string> missed(const std::string& why, double now_s);

  const PortStatus& status() const noexcept { return status_; }

 private:
  void check_module(PortReading& reading);
  void link_news(const PortReading& now, std::vector<std::string>& news);
  void module_news(const PortReading& now, std::vector<std::string>& news);
  void rates(const PortReading& previous, const PortReading& now, std::vector<std::string>& news);
  void once(const std::string& key, std::string line, std::vector<std::string>& news);

  PortStatus status_;
  std::set<std::string> said_;              ///< what is said once per watch
  std::vector<std::string> last_problems_;  ///< said again only when they change
  std::optional<ModuleReading> last_module_;  ///< the module last read, which a new one is compared with
  std::optional<ModuleReading> unconfirmed_;  ///< a new module read once with bad checksums
  bool had_thresholds_ = false;               ///< the module (last_module_) has shown its thresholds
  std::optional<bool> last_link_up_;          ///< the link as last read
  std::optional<uint64_t> last_link_downs_;   ///< the driver's link_down_events as last read
  uint64_t seen_uncounted_ = 0;  ///< drops seen in the link's state since the counter was last read
};

}  // namespace lr::optics
