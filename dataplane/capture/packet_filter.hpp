#pragma once
// A capture's filter: a tcpdump expression compiled by libpcap (pcap_compile, its own
// error messages), converted to DPDK's eBPF (rte_bpf_convert) and loaded, as native code
// where rte_bpf's JIT can compile it right (x86-64, arm64), else interpreted. It runs on the
// worker over each received mbuf. Needs the EAL (rte_bpf allocates with rte_malloc).

#include <rte_bpf.h>

#include <cstdint>
#include <memory>
#include <string>

#include "dataplane/fastpath/capture_tap.hpp"
#include "lib/common/result.hpp"

namespace lr::capture {

class PacketFilter {
 public:
  /// The filter `expression` describes; an empty one keeps every frame. Errors: kInvalid
  /// with libpcap's message ("filter 'udp dst port x': syntax error").
  static Result<PacketFilter> compile(const std::string& expression, uint32_t snaplen);

  /// None when every frame is kept.
  const rte_bpf* bpf() const noexcept { return bpf_.get(); }
  /// The native code, or none (then rte_bpf_exec interprets bpf()).
  uint64_t (*jit() const noexcept)(void*) { return jit_; }
  /// Points `tap` at this filter (which outlives it).
  void attach(fast::CaptureTap& tap) const noexcept {
    tap.filter = bpf();
    tap.filter_jit = jit_;
  }

  /// Whether DPDK 22.11's JIT encodes every instruction of `prm` right (see the .cpp):
  /// where it does not, the filter is interpreted.
  static bool jit_encodes_right(const rte_bpf_prm& prm) noexcept;

 private:
  struct BpfDestroy {
    void operator()(rte_bpf* bpf) const noexcept { rte_bpf_destroy(bpf); }
  };
  std::unique_ptr<rte_bpf, BpfDestroy> bpf_;
  uint64_t (*jit_)(void*) = nullptr;
};

}  // namespace lr::capture
