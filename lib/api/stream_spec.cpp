#include "lib/api/stream_spec.hpp"

#include <algorithm>

#include "lib/wire/roce.hpp"

namespace lr::api {

double weighted_mean(const std::vector<uint16_t>& sizes, const std::vector<uint32_t>& weights) noexcept {
  double sum = 0;
  double weight_sum = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    sum += static_cast<double>(sizes[i]) * weights[i];
    weight_sum += weights[i];
  }
  return sum / weight_sum;
}

uint16_t FrameSizeSpec::smallest() const noexcept {
  if (kind == FrameSizeKind::kRange) return min;
  return *std::min_element(sizes.begin(), sizes.end());
}

uint16_t FrameSizeSpec::largest() const noexcept {
  if (kind == FrameSizeKind::kRange) return max;
  return *std::max_element(sizes.begin(), sizes.end());
}

double FrameSizeSpec::mean() const noexcept {
  switch (kind) {
    case FrameSizeKind::kFixed:
      return sizes.front();
    case FrameSizeKind::kRange:
      return (static_cast<double>(min) + static_cast<double>(max)) / 2.0;
    case FrameSizeKind::kImix:
      return weighted_mean(sizes, weights);
  }
  return sizes.front();
}

uint16_t MacControlSpec::max_quanta() const noexcept { return *std::max_element(quanta.begin(), quanta.end()); }

uint16_t RoceSpec::extended_bytes() const noexcept {
  const wire::RoceOpcode* op = wire::find_roce_opcode(opcode);
  return op != nullptr ? op->extended_bytes : 0;
}

}  // namespace lr::api
