#include "control/otg/otg_flow_timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace lr::otg {

using nlohmann::json;

namespace {

// OTG's predefined size distributions (frame sizes with FCS, weights in hundredths).
const std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>>& predefined_mixes() {
  static const std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> kMixes{
      {"imix", {{64, 700}, {570, 400}, {1518, 100}}},
      {"ipsec_imix", {{90, 5867}, {92, 200}, {594, 2366}, {1418, 1567}}},
      {"ipv6_imix", {{60, 5867}, {496, 200}, {594, 2366}, {1518, 1567}}},
      {"standard_imix", {{58, 5867}, {62, 200}, {594, 2366}, {1518, 1567}}},
      {"tcp_imix", {{90, 5867}, {92, 200}, {594, 2366}, {1518, 1567}}}};
  return kMixes;
}

// The mean frame of the stream's sizes (bytes with FCS), for frame rates from bit rates.
double mean_frame_bytes(const json& stream) {
  const json size = stream.value("frame_size", json(64));
  if (size.is_number()) return size.get<double>();
  if (size.is_object()) return (size.value("min", 64.0) + size.value("max", 64.0)) / 2;
  const json weights = stream.value("frame_weights", json::array());
  double total = 0, weight_sum = 0;
  for (size_t i = 0; i < size.size() && i < weights.size(); ++i) {
    total += size[i].get<double>() * weights[i].get<double>();
    weight_sum += weights[i].get<double>();
  }
  return weight_sum > 0 ? total / weight_sum : 64;
}

// A gap or delay in bytes, nanoseconds or microseconds, in ns (bytes at the port's speed).
std::optional<double> gap_ns(const json& gap, const char* fallback, uint64_t speed_bps) {
  const std::string choice = choice_of(gap, fallback);
  const auto n = number(gap.value(choice, json(0)));
  if (!n) return std::nullopt;
  if (choice == "nanoseconds") return *n;
  if (choice == "microseconds") return *n * 1e3;
  if (speed_bps == 0) return std::nullopt;
  return *n * 8e9 / static_cast<double>(speed_bps);
}

}  // namespace

// The flow's frame sizes: fixed, increment, random or weight pairs (IMIX).
void read_size(const json& size, const std::string& path, json& stream, Problems& p) {
  const std::string choice = choice_of(size, "fixed");
  if (stream.contains("kind")) {
    if (choice != "fixed" || whole_number(size.value("fixed", json(64))) != 64u)
      p.warnings.push_back(path + ".size: MAC Control frames are 64 bytes");
    return;
  }
  if (choice == "fixed") {
    if (auto n = whole_number(size.value("fixed", json(64)))) stream["frame_size"] = *n;
    else p.refuse(path + ".size.fixed", "expected a whole number of bytes");
  } else if (choice == "increment" || choice == "random") {
    const json& r = size.value(choice, json::object());
    stream["frame_size"] = {{"min", r.value(choice == "random" ? "min" : "start", json(64))},
                            {"max", r.value(choice == "random" ? "max" : "end", json(1518))},
                            {"order", choice}};
    if (choice == "increment" && whole_number(r.value("step", json(1))) != 1u)
      p.warnings.push_back(path + ".size.increment.step: linerate steps sizes by one byte");
  } else if (choice == "weight_pairs") {
    const json& pairs = size.value("weight_pairs", json::object());
    std::vector<std::pair<uint64_t, uint64_t>> mix;
    if (choice_of(pairs, "predefined") == "predefined") {
      const std::string name = string_at(pairs, "predefined", "imix");
      const auto it = predefined_mixes().find(name);
      if (it == predefined_mixes().end())
        return p.refuse(path + ".size.weight_pairs.predefined", fmt::format("'{}' is not a mix linerate knows", name));
      mix = it->second;
    } else {
      const json custom = pairs.value("custom", json::array());
      for (size_t i = 0; i < custom.size(); ++i) {
        const auto bytes = whole_number(custom[i].value("size", json(64)));
        const auto weight = number(custom[i].value("weight", json(1)));
        if (!bytes || !weight || *weight <= 0)
          return p.refuse(fmt::format("{}.size.weight_pairs.custom[{}]", path, i), "expected a size and a weight above 0");
        mix.emplace_back(*bytes, static_cast<uint64_t>(std::llround(*weight * 100)));
      }
      if (mix.empty()) return p.refuse(path + ".size.weight_pairs.custom", "names no size");
    }
    json sizes = json::array(), weights = json::array();
    for (const auto& [bytes, weight] : mix) {
      sizes.push_back(bytes);
      weights.push_back(std::max<uint64_t>(weight, 1));
    }
    stream["frame_size"] = sizes;
    stream["frame_weights"] = weights;
    p.warnings.push_back(path + ".size.weight_pairs: linerate sends the mix in a fixed order that repeats, each size "
                                "in its exact share, not drawn at random");
  } else {
    p.refuse(path + ".size", fmt::format("'{}' is not a size linerate knows", choice));
  }
}

// The flow's rate into the stream's; returns it in frames per second (0: not known, a
// share of a port whose speed is not known).
double read_rate(const json& rate, const std::string& path, uint64_t speed_bps, json& stream, Problems& p) {
  const std::string choice = choice_of(rate, "pps");
  static const std::map<std::string, std::pair<double, const char*>> kRates{
      {"pps", {1, "pps"}}, {"bps", {1, "bps"}}, {"kbps", {1e3, "bps"}}, {"mbps", {1e6, "bps"}},
      {"gbps", {1e9, "bps"}}, {"percentage", {1, "%"}}};
  const auto unit = kRates.find(choice);
  if (unit == kRates.end()) {
    p.refuse(path + ".rate", fmt::format("'{}' is not a rate linerate knows", choice));
    return 0;
  }
  const auto v = number(rate.value(choice, json(choice == "percentage" ? 100 : 1000)));
  if (!v) {
    p.refuse(path + ".rate." + choice, "expected a number");
    return 0;
  }
  // OTG's bit rates are L1 here, as linerate's own "5Gbps" (frames, preamble and gap).
  const double value = *v * unit->second.first;
  stream["rate"] = fmt::format("{}{}", value, unit->second.second);
  const double frame_bits = (mean_frame_bytes(stream) + 20) * 8;
  if (choice == "pps") return value;
  if (choice == "percentage") return static_cast<double>(speed_bps) * value / 100 / frame_bits;
  return value / frame_bits;
}

// How long the flow sends: a count, a time, bursts or for ever; with a delay first.
void read_duration(const json& duration, const std::string& path, double pps, uint64_t speed_bps, json& stream,
                   Problems& p) {
  const std::string choice = choice_of(duration, "continuous");
  const std::string at = path + ".duration." + choice;
  const json& d = duration.value(choice, json::object());
  if (choice == "fixed_packets") {
    if (auto n = whole_number(d.value("packets", json(1)))) stream["count"] = *n;
  } else if (choice == "fixed_seconds") {
    if (auto s = number(d.value("seconds", json(1)))) stream["duration"] = fmt::format("{}ns", std::llround(*s * 1e9));
  } else if (choice == "burst") {
    // `packets` frames at the flow's rate, then the inter-burst gap: linerate's burst
    // of `packets` every (packets / rate + gap).
    const auto packets = whole_number(d.value("packets", json(1)));
    const auto bursts = whole_number(d.value("bursts", json(0)));
    const auto gap = gap_ns(d.value("inter_burst_gap", json::object()), "bytes", speed_bps);
    if (!packets || *packets == 0 || !bursts) return p.refuse(at, "expected whole packets (at least 1) and bursts");
    if (!gap) return p.refuse(at + ".inter_burst_gap", "expected a number (bytes need the port's speed)");
    if (pps <= 0) return p.refuse(path + ".rate", "a burst needs a rate linerate can turn into frames per second");
    const double interval = static_cast<double>(*packets) * 1e9 / pps + *gap;
    stream["burst"] = {{"packets", *packets}, {"interval", fmt::format("{}ns", std::llround(interval))}};
    if (*bursts != 0) stream["count"] = *bursts * *packets;
  } else if (choice != "continuous") {
    return p.refuse(path + ".duration", fmt::format("'{}' is not a duration linerate knows", choice));
  }
  if (const auto n = whole_number(d.value("gap", json(12))); n && *n != 12)
    p.warnings.push_back(at + ".gap: linerate paces frames by the rate; the minimum gap is the port's");
  const json delay = d.value("delay", json::object());
  if (choice_of(delay, "bytes") == "bytes" && number(delay.value("bytes", json(0))).value_or(0) == 0) return;
  const auto ns = gap_ns(delay, "bytes", speed_bps);
  if (!ns) return p.refuse(at + ".delay", "expected a number (bytes need the port's speed)");
  if (*ns > 0) stream["start_after"] = fmt::format("{}ns", std::llround(*ns));
}

}  // namespace lr::otg
