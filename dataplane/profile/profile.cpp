#include "dataplane/profile/profile.hpp"

#include <algorithm>
#include <numeric>

#include "dataplane/common/line_rate.hpp"
#include "dataplane/wire/signature.hpp"

namespace lr::profile {

uint16_t FrameSizeCfg::smallest() const noexcept {
  if (kind == FrameSizeKind::kRange) return min;
  return *std::min_element(sizes.begin(), sizes.end());
}

uint16_t FrameSizeCfg::largest() const noexcept {
  if (kind == FrameSizeKind::kRange) return max;
  return *std::max_element(sizes.begin(), sizes.end());
}

double FrameSizeCfg::mean() const noexcept {
  switch (kind) {
    case FrameSizeKind::kFixed:
      return sizes.front();
    case FrameSizeKind::kRange:
      return (static_cast<double>(min) + static_cast<double>(max)) / 2.0;
    case FrameSizeKind::kImix: {
      double sum = 0;
      double weight_sum = 0;
      for (size_t i = 0; i < sizes.size(); ++i) {
        sum += static_cast<double>(sizes[i]) * weights[i];
        weight_sum += weights[i];
      }
      return sum / weight_sum;
    }
  }
  return sizes.front();
}

const PortCfg* Profile::find_port(const std::string& name) const noexcept {
  for (const PortCfg& port : ports)
    if (port.name == name) return &port;
  return nullptr;
}

uint16_t header_bytes(const StreamCfg& stream) noexcept {
  uint16_t bytes = 14 + 8;  // Ethernet + UDP
  if (stream.vlan) bytes += 4;
  bytes += stream.ip_version == IpVersion::kV4 ? 20 : 40;
  return bytes;
}

uint16_t min_frame_bytes(const StreamCfg& stream) noexcept {
  const auto needed = static_cast<uint16_t>(header_bytes(stream) + wire::kSignatureBytes + kFcsBytes);
  return std::max<uint16_t>(needed, kMinFrameBytes);
}

}  // namespace lr::profile
