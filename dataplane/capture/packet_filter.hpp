#pragma once
// A capture's filter: a tcpdump expression compiled by libpcap (pcap_compile, its own
// error messages) to classic BPF, which the worker runs over each received burst at once
// (fast::BurstFilter). No EAL needed.
//
// Why not DPDK's rte_bpf (libpcap's program converted to eBPF, one JIT'd call per frame):
// on the RX benchmark its call per frame cost more than the burst filter's loads and
// compares (docs/dev/benchmarks.md), and DPDK 22.11's x86 JIT miscompiles libpcap's
// one-bit tests (`test $imm` with a one-byte immediate), which had to be interpreted.

#include <cstdint>
#include <memory>
#include <string>

#include "dataplane/fastpath/burst_filter.hpp"
#include "dataplane/fastpath/capture_tap.hpp"
#include "lib/common/result.hpp"

namespace lr::capture {

class PacketFilter {
 public:
  /// The filter `expression` describes; an empty one keeps every frame. Errors: kInvalid
  /// with libpcap's message ("filter 'udp dst port x': syntax error").
  static Result<PacketFilter> compile(const std::string& expression, uint32_t snaplen);

  /// None when every frame is kept.
  const fast::BurstFilter* burst_filter() const noexcept { return burst_.get(); }
  /// Points `tap` at this filter (which outlives it).
  void attach(fast::CaptureTap& tap) const noexcept { tap.filter = burst_.get(); }

 private:
  std::unique_ptr<fast::BurstFilter> burst_;
};

}  // namespace lr::capture
