#include "dataplane/capture/packet_filter.hpp"

#include <fmt/format.h>
#include <pcap/pcap.h>
#include <rte_errno.h>
#include <rte_malloc.h>

namespace lr::capture {

Result<PacketFilter> PacketFilter::compile(const std::string& expression, uint32_t snaplen) {
  PacketFilter filter;
  if (expression.empty()) return filter;
  const std::unique_ptr<pcap_t, decltype(&pcap_close)> pcap(pcap_open_dead(DLT_EN10MB, static_cast<int>(snaplen)),
                                                          &pcap_close);
  if (!pcap) return make_error(Errc::kNoMemory, "libpcap could not open a handle to compile the filter");
  bpf_program program{};
  if (pcap_compile(pcap.get(), &program, expression.c_str(), 1, PCAP_NETMASK_UNKNOWN) != 0)
    return make_error(Errc::kInvalid, fmt::format("filter '{}': {}", expression, pcap_geterr(pcap.get())));
  rte_bpf_prm* prm = rte_bpf_convert(&program);
  pcap_freecode(&program);
  if (prm == nullptr)
    return make_error(Errc::kInvalid, fmt::format("filter '{}': rte_bpf_convert could not convert it", expression),
                      rte_errno);
  filter.bpf_.reset(rte_bpf_load(prm));
  rte_free(prm);
  if (!filter.bpf_)
    return make_error(Errc::kInvalid, fmt::format("filter '{}': rte_bpf_load refused it", expression), rte_errno);
  rte_bpf_jit jit{};
  if (rte_bpf_get_jit(filter.bpf_.get(), &jit) == 0) filter.jit_ = jit.func;
  return filter;
}

}  // namespace lr::capture
