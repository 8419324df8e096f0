#include "control/cli/fleet_record.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "control/cli/watch_commands.hpp"
#include "control/client/dataplane_watch.hpp"
#include "control/client/stop_signal.hpp"
#include "lib/common/utc_time.hpp"

namespace lr::ctl {

using nlohmann::json;
using clock_type = std::chrono::steady_clock;

namespace {

// What one data plane's thread last read, for the writer.
struct EngineSlot {
  std::string location;
  DataplaneAddress where;
  std::mutex mutex;
  /// The last sample or away marker as JSON text, without its closing brace (the line adds
  /// keys); "" before the first. Text, so the line is spliced, not a copy of every tree.
  std::string latest;
  clock_type::time_point read_at;
  std::atomic<uint64_t> samples{0};  ///< a thread left behind at exit may still count
  std::atomic<bool> done{false};

  void store(const json& entry) {
    std::string text = entry.dump();
    text.pop_back();  // the '}': the line adds location, endpoint and age
    const std::lock_guard lock(mutex);
    latest = std::move(text);
    read_at = clock_type::now();
  }
};

// The recording's end, told to the data planes' threads, which wait for their next read on it
// (one wake an interval each, not a look at the stop request every 20 ms).
struct RecordingEnd {
  std::mutex mutex;
  std::condition_variable told;
  bool ended = false;

  void tell() {
    {
      const std::lock_guard lock(mutex);
      ended = true;
    }
    told.notify_all();
  }
  /// Waits until the start of the next interval; false once the recording ended.
  bool wait_for_next(clock_type::time_point t0, double interval_s) {
    const double t = std::chrono::duration<double>(clock_type::now() - t0).count();
    const auto next = t0 + std::chrono::duration_cast<clock_type::duration>(
                               std::chrono::duration<double>((std::floor(t / interval_s) + 1) * interval_s));
    std::unique_lock lock(mutex);
    return !told.wait_until(lock, next, [this] { return ended; });
  }
};

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// Sleeps to the middle of the next interval, waking on a stop request.
void sleep_to_middle(clock_type::time_point t0, double interval_s) {
  const double t = seconds_since(t0);
  sleep_unless_stopped((std::floor(t / interval_s - 0.5) + 1.5) * interval_s - t);
}

// Reads one data plane at the start of every interval until a stop request: a sample, or a
// marker while it is away, tried again with backoff.
void poll_engine(const std::shared_ptr<EngineSlot>& slot, const std::shared_ptr<RecordingEnd>& end,
                 clock_type::time_point t0, double interval_s) {
  DataplaneWatch watch(slot->where.engine,
                       {"linerate record", "recording it as away and retrying with backoff", "recording it again"});
  std::unique_ptr<DataplaneClient> client;
  std::vector<std::string> ports;
  // A data plane that refuses our hello (another release) is away too: tried again with backoff.
  const auto connect = [&] {
    try {
      if (client) return client->reconnect();
      auto fresh = std::make_unique<DataplaneClient>(slot->where);
      fresh->hello("linerate-record");
      client = std::move(fresh);
    } catch (const RpcCallError& refused) {
      throw ConnectionError(fmt::format("it refused our hello: {}", refused.what()));
    }
  };
  try {
    connect();
  } catch (const ConnectionError& error) {
    watch.lost(error.what(), clock_type::now());
    slot->store(record_marker("away", error.what(), seconds_since(t0)));
  }
  for (bool going = true; going; going = end->wait_for_next(t0, interval_s)) {
    const auto now = clock_type::now();
    if (!watch.up() && (!watch.due(now) || !watch.retry(connect, now))) continue;
    try {
      RunClient run(*client);
      slot->store(record_sample(run, ports, seconds_since(t0)));
      ++slot->samples;
    } catch (const ConnectionError& error) {
      watch.lost(error.what(), clock_type::now());
      slot->store(record_marker("away", error.what(), seconds_since(t0)));
    } catch (const std::exception& error) {  // it refused a read: said in its entry, tried again next time
      slot->store(record_marker("refused", error.what(), seconds_since(t0)));
    }
  }
  slot->done = true;
}

// The line at this moment, into `line` (its memory kept from line to line: a line of many
// data planes is large): every data plane's latest entry, and how old it is.
void fleet_line(const std::vector<std::shared_ptr<EngineSlot>>& slots, clock_type::time_point t0, std::string& line) {
  line.clear();  // not assigned: that would take the new string's smaller buffer
  line += json{{"time", utc_now_iso8601()}, {"t", seconds_since(t0)}}.dump();
  line.pop_back();
  line += ",\"engines\":[";
  const auto now = clock_type::now();
  for (size_t i = 0; i < slots.size(); ++i) {
    EngineSlot& slot = *slots[i];
    const json where{{"location", slot.location}, {"endpoint", slot.where.engine}};
    std::string place = where.dump();
    place.front() = ',';
    if (i > 0) line += ',';
    const std::lock_guard lock(slot.mutex);
    if (slot.latest.empty()) {
      line += "{\"dataplane\":\"connecting\"" + place;
      continue;
    }
    line += slot.latest;
    place.pop_back();
    line += place +
            fmt::format(",\"age_ms\":{:.3f}}}", std::chrono::duration<double, std::milli>(now - slot.read_at).count());
  }
  line += "]}\n";
}

}  // namespace

int run_fleet_record(const LocationMap& map, const DataplaneAddress& options, const std::string& path,
                     double interval_s) {
  std::ofstream out(path, std::ios::app);
  if (!out) {
    std::fprintf(stderr, "linerate: cannot write %s\n", path.c_str());
    return 1;
  }
  catch_stop_signals();
  const auto t0 = clock_type::now();
  std::vector<std::shared_ptr<EngineSlot>> slots;
  const auto end = std::make_shared<RecordingEnd>();
  std::vector<std::thread> threads;
  for (const auto& [location, endpoint] : map) {
    auto slot = std::make_shared<EngineSlot>();
    slot->location = location;
    slot->where = engine_address(options, endpoint);
    slots.push_back(slot);
    threads.emplace_back(poll_engine, slot, end, t0, interval_s);
  }
  uint64_t lines = 0;
  int code = 0;
  std::string line;
  // Half an interval after the data planes are read: each line holds this interval's samples.
  for (sleep_to_middle(t0, interval_s); !stop_requested(); sleep_to_middle(t0, interval_s)) {
    fleet_line(slots, t0, line);
    out << line;
    out.flush();
    if (!out) {
      std::fprintf(stderr, "linerate: writing %s failed\n", path.c_str());
      code = 1;
      break;
    }
    ++lines;
  }
  end->tell();
  // A data plane that never answers its last call holds its thread: it is not waited for.
  for (int waited_ms = 0; waited_ms < 2000; waited_ms += 10) {
    bool all = true;
    for (const auto& slot : slots) all = all && slot->done;
    if (all) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (size_t i = 0; i < threads.size(); ++i) {
    if (slots[i]->done) {
      threads[i].join();
      continue;
    }
    std::fprintf(stderr, "linerate: the data plane at %s did not answer its last call: not waited for\n",
                 slots[i]->where.engine.c_str());
    threads[i].detach();
  }
  std::string counts;
  for (const auto& slot : slots)
    counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", slot->location, slot->samples.load());
  std::fprintf(stderr, "linerate: recorded %llu lines of %zu data planes to %s (samples: %s)\n",
               static_cast<unsigned long long>(lines), slots.size(), path.c_str(), counts.c_str());
  return code;
}

}  // namespace lr::ctl
