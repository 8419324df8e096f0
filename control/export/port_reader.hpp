#pragma once
// A port's reads on a thread of its own, so that the optics watch never waits on one slow
// port: the watch asks for a reading and takes it if it arrived by its deadline. A read
// that hangs holds only its own thread; a later request waits for it, and the watch says
// the port is late meanwhile. The thread owns what it reads through (a kernel netdev, a
// data plane connection) and is detached: the process may end while one read hangs.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "control/suites/optics/watch_reading.hpp"

namespace lr::ctl {

class PortReader {
 public:
  /// Reads the port; `now_s` (seconds since the Unix epoch) is when the read begins. May throw
  /// (said on the reading, as its problem).
  using Read = std::function<optics::PortReading(double now_s)>;

  PortReader(std::string port, Read read);
  ~PortReader();
  PortReader(const PortReader&) = delete;
  PortReader& operator=(const PortReader&) = delete;

  /// Asks for reading `seq` (increasing); returns at once.
  void request(uint64_t seq);
  /// Reading `seq`, once it has arrived.
  std::optional<optics::PortReading> take(uint64_t seq);
  /// Since when (Unix seconds) the read under way has been running; nullopt when none is.
  std::optional<double> reading_since() const;
  /// No read under way, none asked and not begun.
  bool idle() const;
  /// No read begins from now on; one under way ends as it will.
  void stop();

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
};

}  // namespace lr::ctl
