#include "lib/profile/profile.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "lib/common/line_rate.hpp"
#include "lib/wire/roce.hpp"
#include "lib/wire/signature.hpp"

namespace lr::profile {

using api::IpVersion;
using api::StreamKind;
using api::StreamSpec;

const api::PortSpec* Profile::find_port(const std::string& name) const noexcept {
  for (const api::PortSpec& port : ports)
    if (port.name == name) return &port;
  return nullptr;
}

uint16_t header_bytes(const StreamSpec& stream) noexcept {
  // Ethernet + opcode + (PFC: class-enable vector and eight quanta | PAUSE: one quanta).
  if (stream.kind == StreamKind::kPfc) return 14 + 2 + 2 + 16;
  if (stream.kind == StreamKind::kPause) return 14 + 2 + 2;
  uint16_t bytes = 14 + (stream.tcp ? 20 : 8);  // Ethernet + TCP or UDP
  if (stream.vlan) bytes += 4;
  bytes += stream.ip_version == IpVersion::kV4 ? 20 : 40;
  if (stream.roce) bytes += wire::kBthBytes + stream.roce->extended_bytes();
  return bytes;
}

uint16_t roce_payload_bytes(const StreamSpec& stream, uint16_t frame_bytes) noexcept {
  const int payload = int{frame_bytes} - kFcsBytes - wire::kIcrcBytes - header_bytes(stream);
  return static_cast<uint16_t>(std::max(payload, 0));
}

std::string roce_frame_size_problem(const StreamSpec& stream, uint16_t frame_bytes) {
  const uint16_t payload = roce_payload_bytes(stream, frame_bytes);
  if (!stream.roce || frame_bytes < min_frame_bytes(stream) || payload % 4 == 0) return "";
  return fmt::format("a {}-byte RoCEv2 frame has a {}-byte payload; InfiniBand payloads are whole 4-byte words: "
                     "{} or {} bytes fit",
                     frame_bytes, payload, frame_bytes - payload % 4, frame_bytes + 4 - payload % 4);
}

uint16_t min_frame_bytes(const StreamSpec& stream) noexcept {
  if (stream.roce) {
    // The payload holds the signature and is a whole number of 4-byte words.
    const uint16_t payload = (wire::kSignatureBytes + 3) / 4 * 4;
    uint16_t bytes = static_cast<uint16_t>(header_bytes(stream) + payload + wire::kIcrcBytes + kFcsBytes);
    while (bytes < kMinFrameBytes) bytes += 4;
    return bytes;
  }
  const auto needed = static_cast<uint16_t>(header_bytes(stream) + wire::kSignatureBytes + kFcsBytes);
  return std::max<uint16_t>(needed, kMinFrameBytes);
}


}  // namespace lr::profile

namespace lr::profile {

std::optional<uint8_t> stream_priority(const StreamSpec& stream, const api::PortSpec& tx_port) {
  if (stream.kind != StreamKind::kUdp) return std::nullopt;
  if (stream.vlan) return stream.vlan->pcp;
  const uint8_t dscp = stream.ip_version == IpVersion::kV4 ? stream.ipv4.dscp : stream.ipv6.dscp;
  const auto it = tx_port.dscp_to_priority.find(dscp);
  if (it == tx_port.dscp_to_priority.end()) return std::nullopt;
  return it->second;
}

}  // namespace lr::profile

namespace lr::profile {

std::optional<std::string> cable_name(std::string_view device) {
  constexpr std::string_view kPrefix = "cable:";
  if (!device.starts_with(kPrefix) || device.size() == kPrefix.size()) return std::nullopt;
  return std::string(device.substr(kPrefix.size()));
}

}  // namespace lr::profile
