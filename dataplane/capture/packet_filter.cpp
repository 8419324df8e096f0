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
  const bool jit_safe = jit_encodes_right(*prm);
  filter.bpf_.reset(rte_bpf_load(prm));
  rte_free(prm);
  if (!filter.bpf_)
    return make_error(Errc::kInvalid, fmt::format("filter '{}': rte_bpf_load refused it", expression), rte_errno);
  rte_bpf_jit jit{};
  if (jit_safe && rte_bpf_get_jit(filter.bpf_.get(), &jit) == 0) filter.jit_ = jit.func;
  return filter;
}

bool PacketFilter::jit_encodes_right(const rte_bpf_prm& prm) noexcept {
  // DPDK 22.11's x86 JIT writes `test $imm, %reg` (0xF7 /0, always a 32-bit immediate)
  // with a one-byte immediate when the constant fits one: the code after it is then
  // misread, and the worker crashes. libpcap writes such a JSET for any one-bit test
  // (`ether[39] & 1 = 1`, `tcp[tcpflags] & tcp-syn != 0`).
  for (uint32_t i = 0; i < prm.nb_ins; ++i) {
    const ebpf_insn& ins = prm.ins[i];
    if (ins.code == (BPF_JMP | BPF_JSET | BPF_K) && ins.imm == static_cast<int8_t>(ins.imm)) return false;
  }
  return true;
}

}  // namespace lr::capture
