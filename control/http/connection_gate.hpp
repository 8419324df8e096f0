#pragma once
// How many connections an HTTP server of linerate holds at once (`--max-connections`).
// Every accepted connection holds a Ticket from its accept to its close; one over the cap
// is refused (503, Retry-After, closed without reading its request: over_cap_refusal.hpp),
// and the refusals themselves are bounded, so a flood costs at most `max_connections`
// connections, `kMaxRefusing` short-lived refusals, and nothing more: past both, a
// connection is closed at once.
// Thread: the server's io_context thread only (the counts are plain integers).

#include <chrono>
#include <cstddef>
#include <string>

namespace lr::ctl {

/// Refusals being answered at once, beyond the cap; past them a connection is closed unanswered.
inline constexpr size_t kMaxRefusing = 64;
/// A refusal's whole life (a TLS handshake, the 503, the close): a client that reads it
/// slowly does not hold a socket longer.
inline constexpr std::chrono::seconds kRefusalDeadline{5};
/// Retry-After of a refusal: slots free as clients close or idle out.
inline constexpr int kRetryAfterSeconds = 5;

class ConnectionGate {
 public:
  /// A place held in the gate until destroyed (or moved from). The gate outlives its tickets.
  class Ticket {
   public:
    Ticket() = default;
    Ticket(Ticket&& other) noexcept;
    Ticket& operator=(Ticket&& other) noexcept;
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    ~Ticket();

   private:
    friend class ConnectionGate;
    explicit Ticket(size_t* count) : count_(count) {}
    size_t* count_ = nullptr;  ///< the count this ticket holds one of; null: none
  };

  enum class Verdict {
    kServe,   ///< under the cap: the ticket holds a connection's place
    kRefuse,  ///< at the cap: answer 503 (over_cap_refusal.hpp); the ticket holds a refusal's place
    kDrop,    ///< the refusals are at their bound too: close at once (the ticket holds nothing)
  };
  struct Entry {
    Verdict verdict;
    Ticket ticket;
  };

  /// `max_connections` >= 1; `max_refusing` refusals at most beyond them.
  explicit ConnectionGate(size_t max_connections, size_t max_refusing = kMaxRefusing);
  ConnectionGate(const ConnectionGate&) = delete;
  ConnectionGate& operator=(const ConnectionGate&) = delete;

  /// A connection just accepted: served, refused or dropped, as the counts now stand.
  Entry enter();

  /// Why a connection is refused: "linerate holds at most N connections at once; M are open".
  std::string refusal_text() const;

  size_t open() const { return open_; }  ///< connections served now
  size_t max_connections() const { return max_connections_; }
  size_t refusing() const { return refusing_; }  ///< refusals being answered now

 private:
  size_t max_connections_;
  size_t max_refusing_;
  size_t open_ = 0;
  size_t refusing_ = 0;
};

/// Makes room for `max_connections` (and the refusals beyond them) among the process's
/// file descriptors, raising its soft RLIMIT_NOFILE as far as the hard one allows. Returns
/// "" or why it cannot: "--max-connections 5000 needs about 5128 file descriptors; this
/// process may open at most 1024 (ulimit -n)".
std::string reserve_descriptors(size_t max_connections);

}  // namespace lr::ctl
