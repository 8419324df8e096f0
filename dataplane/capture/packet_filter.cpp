#include "dataplane/capture/packet_filter.hpp"

#include <fmt/format.h>
#include <pcap/pcap.h>

#include <vector>

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
  std::vector<fast::BpfInsn> insns;
  insns.reserve(program.bf_len);
  for (u_int i = 0; i < program.bf_len; ++i) {
    const bpf_insn& in = program.bf_insns[i];
    insns.push_back(fast::BpfInsn{in.code, in.jt, in.jf, in.k});
  }
  pcap_freecode(&program);
  if (std::string why = fast::BurstFilter::check(insns); !why.empty())
    return make_error(Errc::kInvalid, fmt::format("filter '{}': libpcap's program is refused: {}", expression, why));
  filter.burst_ = std::make_unique<fast::BurstFilter>(insns);
  return filter;
}

}  // namespace lr::capture
