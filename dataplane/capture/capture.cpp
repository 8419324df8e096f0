#include "dataplane/capture/capture.hpp"

#include <fmt/format.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <sys/utsname.h>

#include "dataplane/common/utc_time.hpp"

namespace lr::capture {

namespace {

constexpr unsigned kRecords = 4095;       // a pool of 2^n - 1 is the mempool's best size
constexpr unsigned kRingSize = 4096;      // per RX queue; holds at most 4095
constexpr unsigned kDrainBurst = 64;
constexpr auto kIdleSleep = std::chrono::milliseconds(1);
constexpr auto kFlushEvery = std::chrono::milliseconds(200);

std::string host_os() {
  utsname u{};
  if (uname(&u) != 0) return "Linux";
  return fmt::format("{} {}", u.sysname, u.release);
}

uint64_t system_utc_ns() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

}  // namespace

Capture::Capture(uint32_t id, const api::CaptureSpec& spec, const CapturedPort& port, uint64_t tsc_hz,
                 uint64_t session, PacketFilter filter, PcapngWriter writer)
    : id_(id), spec_(spec), port_(port), tsc_hz_(tsc_hz), session_(session), filter_(std::move(filter)),
      writer_(std::move(writer)) {}

Result<std::unique_ptr<Capture>> Capture::start(uint32_t id, const api::CaptureSpec& spec, const CapturedPort& port,
                                                uint64_t tsc_hz, uint64_t session) {
  auto filter = PacketFilter::compile(spec.filter, spec.snaplen);
  if (!filter) return std::unexpected(filter.error());
  auto writer = PcapngWriter::create(spec.file, "linerate " LR_VERSION, host_os());
  if (!writer) return std::unexpected(writer.error());
  std::unique_ptr<Capture> c(new Capture(id, spec, port, tsc_hz, session, std::move(*filter), std::move(*writer)));
  c->interface_ = c->writer_.add_interface(
      {port.name, fmt::format("{} (driver {})", port.device, port.driver), port.speed_bps, spec.snaplen});
  const std::string name = fmt::format("lr_cap{}", id);
  c->records_.reset(rte_mempool_create(name.c_str(), kRecords,
                                       static_cast<unsigned>(sizeof(fast::CaptureRecord) + spec.snaplen), 64, 0,
                                       nullptr, nullptr, nullptr, nullptr, port.socket, 0));
  if (!c->records_)
    return make_error(Errc::kNoMemory, fmt::format("capture records ({} of {} bytes)", kRecords, spec.snaplen),
                      rte_errno);
  c->taps_ = std::make_unique<fast::CaptureTap[]>(port.rx_queues);
  for (uint16_t q = 0; q < port.rx_queues; ++q) {
    const std::string ring_name = fmt::format("lr_cap{}_q{}", id, q);
    c->rings_.emplace_back(rte_ring_create(ring_name.c_str(), kRingSize, port.socket, RING_F_SP_ENQ | RING_F_SC_DEQ));
    if (!c->rings_.back()) return make_error(Errc::kNoMemory, fmt::format("capture ring {}", ring_name), rte_errno);
    fast::CaptureTap& tap = c->taps_[q];
    tap.ring = c->rings_.back().get();
    tap.records = c->records_.get();
    tap.filter = c->filter_.bpf();
    tap.filter_jit = c->filter_.jit();
    tap.snaplen = static_cast<uint16_t>(spec.snaplen);
    tap.queue = q;
    tap.open = true;
  }
  c->start_tsc_ = rte_rdtsc();
  c->start_utc_ns_ = system_utc_ns();
  c->started_ = std::chrono::steady_clock::now();
  c->started_at_ = utc_now_iso8601();
  c->writer_thread_ = std::thread([raw = c.get()] { raw->write_loop(); });
  return c;
}

Capture::~Capture() { stop("stopped"); }

fast::CaptureTap* Capture::tap(uint16_t queue) noexcept {
  return queue < port_.rx_queues && taps_ ? &taps_[queue] : nullptr;
}

void Capture::set_stream_names(std::vector<std::string> names) {
  const std::lock_guard lock(mutex_);
  stream_names_ = std::move(names);
}

void Capture::stop(const std::string& why) {
  if (!writer_thread_.joinable()) return;
  {
    const std::lock_guard lock(mutex_);
    if (!done_.load()) state_ = "done: " + why;
  }
  stop_requested_.store(true, std::memory_order_release);
  writer_thread_.join();
}

void Capture::close_taps() noexcept {
  for (uint16_t q = 0; q < port_.rx_queues; ++q) __atomic_store_n(&taps_[q].open, false, __ATOMIC_RELAXED);
}

uint64_t Capture::utc_ns(uint64_t tsc) const noexcept {
  const auto since = static_cast<__int128_t>(tsc) - static_cast<__int128_t>(start_tsc_);
  return static_cast<uint64_t>(static_cast<__int128_t>(start_utc_ns_) + since * 1'000'000'000 / tsc_hz_);
}

void Capture::write_record(const fast::CaptureRecord& r) {
  std::string comment;
  if (r.signed_frame) {
    const std::lock_guard lock(mutex_);
    const std::string stream =
        r.stream_id < stream_names_.size() ? stream_names_[r.stream_id] : fmt::format("#{}", r.stream_id);
    comment = fmt::format("stream {} lane {} seq {} latency {} ns", stream, r.lane, r.seq, r.latency_ns);
  }
  writer_.packet(interface_, utc_ns(r.tsc), std::span(r.data(), r.kept), r.wire_bytes, Direction::kInbound, comment);
}

size_t Capture::drain() {
  size_t taken = 0;
  void* records[kDrainBurst];
  for (const auto& ring : rings_) {
    for (unsigned n; (n = rte_ring_sc_dequeue_burst(ring.get(), records, kDrainBurst, nullptr)) != 0;) {
      taken += n;
      for (unsigned i = 0; i < n; ++i) {
        // Past the count the taps are closing: what they still handed over is not kept.
        if (spec_.count != 0 && captured_.load(std::memory_order_relaxed) >= spec_.count) break;
        write_record(*static_cast<const fast::CaptureRecord*>(records[i]));
        captured_.fetch_add(1, std::memory_order_relaxed);
      }
      rte_mempool_put_bulk(records_.get(), records, n);
    }
  }
  file_bytes_.store(writer_.bytes_written(), std::memory_order_relaxed);
  return taken;
}

void Capture::write_loop() {
  auto last_flush = std::chrono::steady_clock::now();
  std::string why;
  while (why.empty()) {
    const size_t taken = drain();
    const auto now = std::chrono::steady_clock::now();
    if (spec_.count != 0 && captured_.load(std::memory_order_relaxed) >= spec_.count)
      why = fmt::format("{} frames captured", spec_.count);
    else if (spec_.duration_ns != 0 && now - started_ >= std::chrono::nanoseconds(spec_.duration_ns))
      why = fmt::format("{} s elapsed", static_cast<double>(spec_.duration_ns) / 1e9);
    else if (stop_requested_.load(std::memory_order_acquire))
      why = "stopped";
    if (now - last_flush >= kFlushEvery) {
      last_flush = now;
      if (auto ok = writer_.flush(); !ok) {
        const std::lock_guard lock(mutex_);
        error_ = to_string(ok.error());
        why = "the file could not be written";
      }
    }
    if (why.empty() && taken == 0) std::this_thread::sleep_for(kIdleSleep);
  }
  end(why);
}

void Capture::end(const std::string& why) {
  close_taps();
  drain();  // what the taps handed over before they closed
  const api::CaptureReport now = report();
  PcapngStatistics stats{start_utc_ns_, system_utc_ns(), now.matched, now.capture_dropped,
                         fmt::format("{} frames matched, {} written, {} dropped (the capture could not keep up)",
                                     now.matched, now.captured, now.capture_dropped)};
  writer_.statistics(interface_, stats.end_ns, stats);
  const auto closed = writer_.close();
  file_bytes_.store(writer_.bytes_written(), std::memory_order_relaxed);
  const std::lock_guard lock(mutex_);
  if (!closed && error_.empty()) error_ = to_string(closed.error());
  if (state_ == "capturing") state_ = "done: " + why;
  done_.store(true, std::memory_order_release);
}

api::CaptureReport Capture::report() const {
  api::CaptureReport r;
  r.id = id_;
  r.spec = spec_;
  r.started_at = started_at_;
  r.filter_jit = filter_.jit() != nullptr;
  for (uint16_t q = 0; q < port_.rx_queues; ++q) {
    r.matched += __atomic_load_n(&taps_[q].matched, __ATOMIC_RELAXED);
    r.capture_dropped += __atomic_load_n(&taps_[q].dropped, __ATOMIC_RELAXED);
  }
  r.captured = captured_.load(std::memory_order_relaxed);
  r.file_bytes = file_bytes_.load(std::memory_order_relaxed);
  const std::lock_guard lock(mutex_);
  r.state = state_;
  r.error = error_;
  return r;
}

}  // namespace lr::capture
