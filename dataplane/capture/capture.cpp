#include "dataplane/capture/capture.hpp"

#include <fmt/format.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <sys/utsname.h>

#include <algorithm>
#include <iterator>

#include "lib/common/utc_time.hpp"

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

// What a trigger caught, as the file's comment and the report say it. Frames that never
// came are named, not invented.
std::string event_text(const fast::CaptureRecord& r) {
  switch (r.event) {
    case fast::SeqEvent::kLoss: {
      const uint32_t missing = r.seq - r.expected;
      return fmt::format("first loss: expected seq {}, got {}; missing: {}", r.expected, r.seq,
                         missing == 1 ? fmt::format("{}", r.expected)
                                      : fmt::format("{}-{} ({} frames)", r.expected, r.seq - 1, missing));
    }
    case fast::SeqEvent::kOutOfOrder: return fmt::format("first out-of-order frame: seq {} after seq {}", r.seq, r.expected - 1);
    case fast::SeqEvent::kDuplicate: return fmt::format("first duplicate: seq {} again", r.seq);
    case fast::SeqEvent::kNone: break;
  }
  return "";
}

// "2026-12-03T23:59:59.123456789Z"
std::string utc_iso8601_ns(uint64_t ns) {
  const std::chrono::sys_seconds s{std::chrono::seconds(ns / 1'000'000'000)};
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:09}Z", s, ns % 1'000'000'000);
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
  c->n_taps_ = static_cast<uint16_t>(port.rx_queues + port.tx_queues);
  c->taps_ = std::make_unique<fast::CaptureTap[]>(c->n_taps_);
  const bool rx = spec.direction != "tx";
  const bool tx = spec.direction != "rx";
  for (uint16_t q = 0; q < c->n_taps_; ++q) {
    const bool outbound = q >= port.rx_queues;
    if (outbound ? !tx : !rx) continue;  // a direction it does not capture: no ring, never attached
    const std::string ring_name = fmt::format("lr_cap{}_{}{}", id, outbound ? "tx" : "rx", q);
    c->rings_.emplace_back(rte_ring_create(ring_name.c_str(), kRingSize, port.socket, RING_F_SP_ENQ | RING_F_SC_DEQ));
    if (!c->rings_.back()) return make_error(Errc::kNoMemory, fmt::format("capture ring {}", ring_name), rte_errno);
    fast::CaptureTap& tap = c->taps_[q];
    tap.ring = c->rings_.back().get();
    tap.records = c->records_.get();
    c->filter_.attach(tap);
    tap.snaplen = static_cast<uint16_t>(spec.snaplen);
    tap.queue = static_cast<uint16_t>(outbound ? q - port.rx_queues : q);
    tap.outbound = outbound;
    tap.open = true;
    if (outbound) continue;  // a trigger watches what the port receives
    fast::CaptureTrigger& t = tap.trigger;
    t.on_loss = spec.trigger == "loss" || spec.trigger == "any";
    t.on_out_of_order = spec.trigger == "ooo" || spec.trigger == "any";
    t.on_duplicate = spec.trigger == "dup" || spec.trigger == "any";
    t.before = spec.before;
    t.after = spec.after;
    c->held_.push_back(std::make_unique<void*[]>(std::max<uint32_t>(spec.before, 1)));
    t.held = c->held_.back().get();
  }
  c->start_tsc_ = rte_rdtsc();
  c->start_utc_ns_ = system_utc_ns();
  c->started_ = std::chrono::steady_clock::now();
  c->started_at_ = utc_now_iso8601();
  c->writer_thread_ = std::thread([raw = c.get()] { raw->write_loop(); });
  return c;
}

Capture::~Capture() { stop("stopped"); }

fast::CaptureTap* Capture::rx_tap(uint16_t queue) noexcept {
  return queue < port_.rx_queues && taps_[queue].ring != nullptr ? &taps_[queue] : nullptr;
}

fast::CaptureTap* Capture::tx_tap(uint16_t queue) noexcept {
  const size_t at = size_t{port_.rx_queues} + queue;
  return queue < port_.tx_queues && taps_[at].ring != nullptr ? &taps_[at] : nullptr;
}

void Capture::set_stream_names(std::vector<std::string> names, bool new_run) {
  const auto it = std::find(names.begin(), names.end(), spec_.trigger_stream);
  const uint16_t id = it == names.end() ? fast::CaptureTrigger::kNoStream : static_cast<uint16_t>(it - names.begin());
  // While a run is launched its workers read the trigger: it is set between runs only.
  for (uint16_t q = 0; new_run && q < port_.rx_queues; ++q) {
    fast::CaptureTrigger& t = taps_[q].trigger;
    t.stream_id = id;
    std::fill(std::begin(t.lane_started), std::end(t.lane_started), false);
    // The next run's sequences start over: the frames held from the last one are not
    // what comes before its event. Their records go back to the pool.
    if (!t.fired) {
      for (uint32_t i = 0; i < t.held_count; ++i) rte_mempool_put(records_.get(), t.held[(t.held_next + i) % t.before]);
      t.held_count = 0;
      t.held_next = 0;
    }
  }
  const std::lock_guard lock(mutex_);
  stream_names_ = std::move(names);
}

bool Capture::trigger_finished() const noexcept {
  for (uint16_t q = 0; q < port_.rx_queues; ++q)
    if (__atomic_load_n(&taps_[q].trigger.finished, __ATOMIC_ACQUIRE)) return true;
  return false;
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
  for (uint16_t q = 0; q < n_taps_; ++q) __atomic_store_n(&taps_[q].open, false, __ATOMIC_RELAXED);
}

uint64_t Capture::utc_ns(uint64_t tsc) const noexcept {
  const auto since = static_cast<__int128_t>(tsc) - static_cast<__int128_t>(start_tsc_);
  return static_cast<uint64_t>(static_cast<__int128_t>(start_utc_ns_) + since * 1'000'000'000 / tsc_hz_);
}

void Capture::write_record(const fast::CaptureRecord& r) {
  std::string comment;
  const uint64_t at = utc_ns(r.tsc);
  if (r.signed_frame) {
    const std::lock_guard lock(mutex_);
    const std::string stream =
        r.stream_id < stream_names_.size() ? stream_names_[r.stream_id] : fmt::format("#{}", r.stream_id);
    comment = r.outbound ? fmt::format("sent: stream {} lane {} seq {}", stream, r.lane, r.seq)
                         : fmt::format("stream {} lane {} seq {} latency {} ns", stream, r.lane, r.seq, r.latency_ns);
    if (r.event != fast::SeqEvent::kNone) {
      trigger_event_ = event_text(r);
      trigger_fired_at_ = utc_iso8601_ns(at);
      comment = trigger_event_ + "; " + comment;
    }
  }
  writer_.packet(interface_, at, std::span(r.data(), r.kept), r.wire_bytes,
                 r.outbound ? Direction::kOutbound : Direction::kInbound, comment);
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
    else if (trigger_finished()) {
      drain();  // the event's frame is among what the taps handed over before finishing
      const std::lock_guard lock(mutex_);
      why = "the trigger fired: " + trigger_event_;
    }
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
  for (uint16_t q = 0; q < n_taps_; ++q) {
    r.matched += __atomic_load_n(&taps_[q].matched, __ATOMIC_RELAXED);
    r.capture_dropped += __atomic_load_n(&taps_[q].dropped, __ATOMIC_RELAXED);
  }
  r.captured = captured_.load(std::memory_order_relaxed);
  r.file_bytes = file_bytes_.load(std::memory_order_relaxed);
  const std::lock_guard lock(mutex_);
  r.state = state_;
  r.error = error_;
  r.trigger_event = trigger_event_;
  r.trigger_fired_at = trigger_fired_at_;
  return r;
}

}  // namespace lr::capture
