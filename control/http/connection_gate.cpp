#include "control/http/connection_gate.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <utility>

namespace lr::ctl {

ConnectionGate::Ticket::Ticket(Ticket&& other) noexcept : count_(std::exchange(other.count_, nullptr)) {}

ConnectionGate::Ticket& ConnectionGate::Ticket::operator=(Ticket&& other) noexcept {
  if (this != &other) {
    if (count_ != nullptr) --*count_;
    count_ = std::exchange(other.count_, nullptr);
  }
  return *this;
}

ConnectionGate::Ticket::~Ticket() {
  if (count_ != nullptr) --*count_;
}

ConnectionGate::ConnectionGate(size_t max_connections, size_t max_refusing)
    : max_connections_(max_connections), max_refusing_(max_refusing) {}

ConnectionGate::Entry ConnectionGate::enter() {
  if (open_ < max_connections_) {
    ++open_;
    return {Verdict::kServe, Ticket(&open_)};
  }
  if (refusing_ < max_refusing_) {
    ++refusing_;
    return {Verdict::kRefuse, Ticket(&refusing_)};
  }
  return {Verdict::kDrop, Ticket()};
}

std::string ConnectionGate::refusal_text() const {
  return fmt::format("linerate holds at most {} connections at once; {} are open", max_connections_, open_);
}

std::string reserve_descriptors(size_t max_connections) {
  // Beside the connections and refusals: the listener, the data plane's socket, stdio,
  // the capture files and what the libraries open.
  constexpr size_t kOwnDescriptors = 64;
  const size_t needed = max_connections + kMaxRefusing + kOwnDescriptors;
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return "";  // nothing known: let accept say it
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < needed) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max == RLIM_INFINITY ? needed : std::min<rlim_t>(limit.rlim_max, needed);
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < needed)
    return fmt::format(
        "--max-connections {} needs about {} file descriptors; this process may open at most {} (ulimit -n)",
        max_connections, needed, limit.rlim_cur);
  return "";
}

}  // namespace lr::ctl
