#pragma once
// An OTG capture's `filters` (models 1.60.0 Capture.Filter: ethernet, vlan, ipv4, ipv6 and
// custom fields, each a hex value, a mask and negate) as one libpcap filter expression, the
// form `linerate capture --filter` takes. Every field becomes byte comparisons on the
// frame (`ether[14] & 0xf0 = 0x40`), so a field of any bit width and place is exact. Mask
// bits set are bits that do not matter (as IxNetwork's masks, which OTG's came from); the
// filters of a capture must all match; a header's fields are placed after the headers
// filtered before it (ipv4 after vlan: at byte 18), and a custom field after the last.

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace lr::otg {

/// Throws std::invalid_argument naming the filter's path ("captures[0].filters[1].ipv4.src: ...").
std::string capture_filter_expression(const nlohmann::json& filters, const std::string& path);

}  // namespace lr::otg
