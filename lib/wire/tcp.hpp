#pragma once
// TCP header flags (RFC 9293, with RFC 3168's ECE and CWR), by bit: FIN is bit 0.

#include <array>
#include <string_view>

namespace lr::wire {

inline constexpr std::array<std::string_view, 8> kTcpFlagNames{"fin", "syn", "rst", "psh", "ack", "urg", "ece", "cwr"};

}  // namespace lr::wire
