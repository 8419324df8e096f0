#pragma once
// This host's clock as linuxptp's ptp4l keeps it, read every 2 s with pmc in a thread of
// its own (pmc waits 100 ms for its answers: never on the control loop), so `hello` says at
// once whether a start at one instant, and one-way latency, can be trusted across hosts.
// With hardware timestamping the same thread then measures CLOCK_REALTIME against the
// NIC's clock that ptp4l steers (lib/host/phc_offset.hpp: a few microseconds of ioctl).

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "lib/host/kernel/kernel_io.hpp"
#include "lib/host/phc_offset.hpp"
#include "lib/host/ptp_status.hpp"

namespace lr::dp {

class ClockWatch {
 public:
  /// Reads the ptp4l serving management at the Unix socket `uds` (its uds_address).
  explicit ClockWatch(std::string uds);
  ~ClockWatch();
  ClockWatch(const ClockWatch&) = delete;
  ClockWatch& operator=(const ClockWatch&) = delete;

  struct Reading {
    bool read = false;               ///< pmc has run once at least
    std::string problem;             ///< pmc could not run ("" when it did, answered or not)
    host::PtpReading ptp;
    std::optional<host::PhcMeasurement> phc;  ///< with HARDWARE timestamping: the NIC's clock, measured
    host::PtpVerdict verdict;
    std::chrono::steady_clock::time_point at;
  };
  /// The latest reading.
  Reading last() const;
  const std::string& uds() const noexcept { return uds_; }

 private:
  void loop();
  Reading read_once() const;

  std::string uds_;
  const std::unique_ptr<KernelIo> kernel_;  ///< ETHTOOL_GET_TS_INFO: the port's PHC
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  Reading last_;
  std::thread thread_;  ///< last: started once the rest is set
};

}  // namespace lr::dp
