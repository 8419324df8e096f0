// The engine's captures: each a capture::Capture whose taps the run's RX queues of its
// port point at. A tap is freed only when no run is launched, so a worker never holds a
// freed one; an ended capture's taps are closed and take nothing more meanwhile.
#include <fmt/format.h>

#include <algorithm>

#include "dataplane/engine/engine_state.hpp"

namespace lr::dp {

namespace {

constexpr size_t kEndedKept = 16;  // capture.list shows this many ended captures

}  // namespace

void Engine::State::attach_captures() {
  if (!launched) {
    for (auto it = captures.begin(); it != captures.end();) {
      if (!(*it)->done()) {
        ++it;
        continue;
      }
      // The RX queues and TX lanes still point at it until the loop below, which sets every
      // one of them while no run is launched: no worker reads them meanwhile.
      ended_captures.push_back((*it)->report());
      if (ended_captures.size() > kEndedKept) ended_captures.pop_front();
      it = captures.erase(it);
    }
  }
  std::vector<std::string> names;
  for (const StreamState& s : run.streams) names.push_back(s.cfg.name);
  for (auto& c : captures)
    if (!c->done()) c->set_stream_names(names, !launched);
  // A running capture's tap, or none; an ended one's stays while a run is launched.
  const auto running_tap = [&](uint16_t port_id, auto tap_of) -> fast::CaptureTap* {
    for (auto& c : captures)
      if (c->port_id() == port_id && !c->done()) return tap_of(*c);
    return nullptr;
  };
  for (LcoreState& l : run.lcores) {
    for (size_t i = 0; i < l.rxqs.size(); ++i) {
      fast::RxQueue& q = l.rxqs[i];
      fast::CaptureTap* tap = running_tap(q.port_id, [&](capture::Capture& c) { return c.rx_tap(q.queue_id); });
      if (tap != nullptr || !launched) __atomic_store_n(&q.capture, tap, __ATOMIC_RELEASE);
    }
    for (size_t i = 0; i < l.lanes.size(); ++i) {
      fast::TxLane& lane = l.lanes[i];
      fast::CaptureTap* tap = running_tap(lane.port_id, [&](capture::Capture& c) { return c.tx_tap(lane.queue_id); });
      if (tap != nullptr || !launched) __atomic_store_n(&lane.capture, tap, __ATOMIC_RELEASE);
    }
  }
}

Result<api::CaptureReport> Engine::start_capture(const api::CaptureSpec& spec, uint64_t session) {
  State& st = *state_;
  auto port = st.port_named(spec.port);
  if (!port) return std::unexpected(port.error());
  for (const auto& c : st.captures)
    if (!c->done() && c->port_id() == (*port)->port_id())
      return make_error(Errc::kInvalid, fmt::format("port '{}' has a capture already (id {}): stop it first",
                                                    spec.port, c->id()));
  const capture::CapturedPort captured{(*port)->name(),      (*port)->cfg().device,   (*port)->info().driver,
                                       (*port)->speed_bps(), (*port)->port_id(),     (*port)->cfg().rx_queues,
                                       (*port)->cfg().tx_queues, (*port)->info().socket};
  if (captured.rx_queues == 0 && spec.direction == "rx")
    return make_error(Errc::kInvalid, fmt::format("port '{}' has no RX queue (rx_queues = 0): it receives nothing",
                                                  spec.port));
  if (!spec.trigger_stream.empty() && st.find_stream(spec.trigger_stream) == nullptr)
    return make_error(Errc::kInvalid, fmt::format("trigger_stream: no stream is named '{}'", spec.trigger_stream));
  auto started = capture::Capture::start(st.next_capture_id, spec, captured, st.tsc_hz, session);
  if (!started) return std::unexpected(started.error());
  ++st.next_capture_id;
  st.captures.push_back(std::move(*started));
  st.attach_captures();
  return st.captures.back()->report();
}

Result<api::CaptureReport> Engine::stop_capture(uint32_t id) {
  State& st = *state_;
  const auto it = std::find_if(st.captures.begin(), st.captures.end(), [id](const auto& c) { return c->id() == id; });
  if (it == st.captures.end()) {
    for (const api::CaptureReport& ended : st.ended_captures)
      if (ended.id == id) return ended;
    return make_error(Errc::kInvalid, fmt::format("no capture has id {}", id));
  }
  (*it)->stop("stopped");
  api::CaptureReport report = (*it)->report();
  st.attach_captures();
  return report;
}

void Engine::stop_captures_of(uint64_t session) {
  State& st = *state_;
  for (auto& c : st.captures)
    if (c->session() == session) c->stop("its session ended");
  st.attach_captures();
}

std::vector<api::CaptureReport> Engine::capture_reports() const {
  const State& st = *state_;
  std::vector<api::CaptureReport> out(st.ended_captures.begin(), st.ended_captures.end());
  for (const auto& c : st.captures) out.push_back(c->report());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

}  // namespace lr::dp
