#pragma once
// One capture on a port: a tap per RX queue (fastpath/capture_tap.hpp), their records'
// pool and rings, and a thread off the workers that writes them to a pcapng file with
// UTC timestamps from the TSC, a comment per signed frame (stream, lane, sequence number,
// latency), and the interface statistics (frames seen, dropped) at the end. It ends on
// stop(), its count or its duration, or a file it cannot write; the file is complete then.
// Thread: created and stopped by mgmt; the writer is its own.

#include <rte_mempool.h>
#include <rte_ring.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "lib/api/capture_spec.hpp"
#include "dataplane/capture/packet_filter.hpp"
#include "dataplane/capture/pcapng_writer.hpp"
#include "lib/common/result.hpp"
#include "dataplane/fastpath/capture_tap.hpp"

namespace lr::capture {

/// The port a capture taps, as its interface block names it.
struct CapturedPort {
  std::string name;
  std::string device;
  std::string driver;
  uint64_t speed_bps = 0;
  uint16_t port_id = 0;
  uint16_t rx_queues = 0;
  uint16_t tx_queues = 0;
  int socket = 0;
};

class Capture {
 public:
  /// Opens the file, compiles the filter and starts the writer; the taps are open.
  /// Errors: kInvalid (the filter, the file), kNoMemory (records, rings).
  static Result<std::unique_ptr<Capture>> start(uint32_t id, const api::CaptureSpec& spec, const CapturedPort& port,
                                                uint64_t tsc_hz, uint64_t session);
  /// Stops it (as stop()) and frees the taps: no worker may hold one by then.
  ~Capture();
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;

  /// The tap of RX (TX) queue `queue` of the port, or none: a queue it has no tap on, or a
  /// direction it does not capture.
  fast::CaptureTap* rx_tap(uint16_t queue) noexcept;
  fast::CaptureTap* tx_tap(uint16_t queue) noexcept;
  uint16_t port_id() const noexcept { return port_.port_id; }
  uint64_t session() const noexcept { return session_; }
  uint32_t id() const noexcept { return id_; }
  bool done() const noexcept { return done_.load(std::memory_order_acquire); }
  /// The run's streams by id, for the comments (signatures name a stream by its index)
  /// and the trigger's stream. `new_run`: no run is launched and the next starts its
  /// sequences afresh (the trigger forgets where they were).
  void set_stream_names(std::vector<std::string> names, bool new_run);

  /// Closes the taps, writes what they handed over, the statistics, and closes the file.
  /// Returns when the file is complete. `why` is the state's reason ("stopped").
  void stop(const std::string& why);
  api::CaptureReport report() const;

 private:
  Capture(uint32_t id, const api::CaptureSpec& spec, const CapturedPort& port, uint64_t tsc_hz, uint64_t session,
          PacketFilter filter, PcapngWriter writer);
  void write_loop();
  size_t drain();  ///< writes what the rings hold; returns the records taken
  void write_record(const fast::CaptureRecord& r);
  void close_taps() noexcept;
  bool trigger_finished() const noexcept;
  void end(const std::string& why);  ///< the writer's: closes taps and file, sets the state
  uint64_t utc_ns(uint64_t tsc) const noexcept;

  struct MempoolFree {
    void operator()(rte_mempool* pool) const noexcept { rte_mempool_free(pool); }
  };
  struct RingFree {
    void operator()(rte_ring* ring) const noexcept { rte_ring_free(ring); }
  };

  const uint32_t id_;
  const api::CaptureSpec spec_;
  const CapturedPort port_;
  const uint64_t tsc_hz_;
  const uint64_t session_;
  uint64_t start_tsc_ = 0;
  uint64_t start_utc_ns_ = 0;
  std::chrono::steady_clock::time_point started_;
  std::string started_at_;
  PacketFilter filter_;
  PcapngWriter writer_;
  uint32_t interface_ = 0;
  std::unique_ptr<rte_mempool, MempoolFree> records_;
  std::vector<std::unique_ptr<rte_ring, RingFree>> rings_;
  std::unique_ptr<fast::CaptureTap[]> taps_;  ///< the RX queues', then the TX queues'
  uint16_t n_taps_ = 0;
  std::vector<std::unique_ptr<void*[]>> held_;  ///< per tap, the trigger's held records

  std::atomic<uint64_t> captured_{0};
  std::atomic<uint64_t> file_bytes_{0};
  std::atomic<bool> stop_requested_{false};
  std::atomic<bool> done_{false};
  mutable std::mutex mutex_;  ///< state_, error_, stream_names_
  std::string state_ = "capturing";
  std::string error_;
  std::string trigger_event_;
  std::string trigger_fired_at_;
  std::vector<std::string> stream_names_;
  std::thread writer_thread_;
};

}  // namespace lr::capture
