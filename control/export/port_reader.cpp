#include "control/export/port_reader.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "lib/common/utc_time.hpp"

namespace lr::ctl {

struct PortReader::Shared {
  std::string port;
  Read read;
  mutable std::mutex mutex;
  std::condition_variable wake;
  bool stop = false;
  uint64_t wanted = 0, done = 0;
  std::optional<double> busy_since;
  std::optional<optics::PortReading> result;
};

namespace {

optics::PortReading read_or_say(const std::string& port, const PortReader::Read& read, double now_s) {
  try {
    return read(now_s);
  } catch (const std::exception& e) {
    optics::PortReading failed;
    failed.port = port, failed.time_s = now_s;
    failed.problems.push_back(e.what());
    return failed;
  }
}

}  // namespace

PortReader::PortReader(std::string port, Read read) : shared_(std::make_shared<Shared>()) {
  shared_->port = std::move(port);
  shared_->read = std::move(read);
  std::thread([shared = shared_] {
    std::unique_lock lock(shared->mutex);
    for (;;) {
      shared->wake.wait(lock, [&] { return shared->stop || shared->wanted > shared->done; });
      if (shared->stop) {
        shared->done = shared->wanted;  // a read asked and not begun never will be
        return;
      }
      const uint64_t seq = shared->wanted;
      // Stamped when it runs, not when it was asked: one that waited on a slow read before it
      // still measures its own interval.
      const double at = unix_now_s();
      shared->busy_since = at;
      lock.unlock();
      optics::PortReading reading = read_or_say(shared->port, shared->read, at);
      lock.lock();
      shared->busy_since.reset();
      shared->result = std::move(reading);
      shared->done = seq;
    }
  }).detach();
}

void PortReader::stop() {
  const std::lock_guard lock(shared_->mutex);
  shared_->stop = true;
  shared_->wake.notify_one();
}

PortReader::~PortReader() {
  const std::lock_guard lock(shared_->mutex);
  shared_->stop = true;
  shared_->wake.notify_one();
}

void PortReader::request(uint64_t seq) {
  const std::lock_guard lock(shared_->mutex);
  shared_->wanted = seq;
  shared_->wake.notify_one();
}

std::optional<optics::PortReading> PortReader::take(uint64_t seq) {
  const std::lock_guard lock(shared_->mutex);
  if (shared_->done != seq || !shared_->result) return std::nullopt;
  std::optional<optics::PortReading> out = std::move(shared_->result);
  shared_->result.reset();
  return out;
}

bool PortReader::idle() const {
  const std::lock_guard lock(shared_->mutex);
  return !shared_->busy_since && shared_->wanted == shared_->done;
}

std::optional<double> PortReader::reading_since() const {
  const std::lock_guard lock(shared_->mutex);
  return shared_->busy_since;
}

}  // namespace lr::ctl
