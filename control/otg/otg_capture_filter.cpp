#include "control/otg/otg_capture_filter.hpp"

#include <fmt/format.h>

#include <cctype>
#include <map>
#include <vector>

#include "control/otg/otg_json.hpp"

namespace lr::otg {

using nlohmann::json;

namespace {

struct FieldPlace {
  unsigned bit_offset;  ///< from the header's start
  unsigned bit_length;
};

// Each header's fields, and its length in bytes (where the next header starts).
struct HeaderLayout {
  unsigned bytes;
  std::map<std::string, FieldPlace> fields;
};

const std::map<std::string, HeaderLayout>& layouts() {
  static const std::map<std::string, HeaderLayout> kLayouts{
      {"ethernet", {14, {{"dst", {0, 48}}, {"src", {48, 48}}, {"ether_type", {96, 16}}}}},
      // From the tag's TCI: the 802.1Q type is the Ethernet header's last two bytes.
      {"vlan", {4, {{"priority", {0, 3}}, {"cfi", {3, 1}}, {"id", {4, 12}}, {"protocol", {16, 16}}}}},
      {"ipv4", {20, {{"version", {0, 4}}, {"header_length", {4, 4}}, {"priority", {8, 8}}, {"total_length", {16, 16}},
                     {"identification", {32, 16}}, {"reserved", {48, 1}}, {"dont_fragment", {49, 1}},
                     {"more_fragments", {50, 1}}, {"fragment_offset", {51, 13}}, {"time_to_live", {64, 8}},
                     {"protocol", {72, 8}}, {"header_checksum", {80, 16}}, {"src", {96, 32}}, {"dst", {128, 32}}}}},
      {"ipv6", {40, {{"version", {0, 4}}, {"traffic_class", {4, 8}}, {"flow_label", {12, 20}},
                     {"payload_length", {32, 16}}, {"next_header", {48, 8}}, {"hop_limit", {56, 8}},
                     {"src", {64, 128}}, {"dst", {192, 128}}}}}};
  return kLayouts;
}

// A custom field's offset at most: the largest capture (a snaplen of 16384 bytes) in bits.
constexpr uint64_t kMaxCustomOffsetBits = 16384 * 8;

// A hex string ("0a", "0x0A0B", "00:11:22:33:44:55") as `bits` bits, most significant first.
std::vector<bool> hex_bits(const json& text, unsigned bits, const std::string& at) {
  std::string digits;
  if (!text.is_string()) throw std::invalid_argument(at + ": expected a hex string");
  std::string s = text.get<std::string>();
  if (s.starts_with("0x") || s.starts_with("0X")) s = s.substr(2);
  for (const char c : s) {
    if (c == ':' || c == '.' || c == '-') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c)))
      throw std::invalid_argument(fmt::format("{}: '{}' is not hex", at, text.get<std::string>()));
    digits += c;
  }
  std::vector<bool> out(bits, false);
  // Right-aligned: the last digit is the field's lowest 4 bits.
  unsigned bit = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it, bit += 4) {
    const int v = std::isdigit(static_cast<unsigned char>(*it)) ? *it - '0' : std::tolower(*it) - 'a' + 10;
    for (unsigned b = 0; b < 4; ++b) {
      if (((v >> b) & 1) == 0) continue;
      if (bit + b >= bits) throw std::invalid_argument(fmt::format("{}: wider than the field's {} bits", at, bits));
      out[bits - 1 - (bit + b)] = true;
    }
  }
  return out;
}

// A field at `bit_offset` of the frame: byte comparisons over the bits the mask keeps.
std::string field_expression(unsigned bit_offset, unsigned bit_length, const json& field, const std::string& at) {
  const std::vector<bool> value = hex_bits(field.value("value", json("00")), bit_length, at + ".value");
  const std::vector<bool> ignored = hex_bits(field.value("mask", json("00")), bit_length, at + ".mask");
  std::map<unsigned, std::pair<unsigned, unsigned>> bytes;  // byte -> (mask, value)
  for (unsigned i = 0; i < bit_length; ++i) {
    if (ignored[i]) continue;
    const unsigned bit = bit_offset + i;
    auto& [mask, want] = bytes[bit / 8];
    const unsigned weight = 0x80u >> (bit % 8);
    mask |= weight;
    if (value[i]) want |= weight;
  }
  std::vector<std::string> terms;
  for (const auto& [byte, mv] : bytes)
    terms.push_back(mv.first == 0xFF ? fmt::format("ether[{}] = {:#04x}", byte, mv.second)
                                     : fmt::format("ether[{}] & {:#04x} = {:#04x}", byte, mv.first, mv.second));
  if (terms.empty()) return "";
  const std::string all = fmt::format("({})", fmt::join(terms, " and "));
  return field.value("negate", false) ? "not " + all : all;
}

}  // namespace

std::string capture_filter_expression(const json& filters, const std::string& path) {
  std::vector<std::string> parts;
  unsigned header_start = 0;  // bytes: where the next header filtered begins
  unsigned custom_start = 0;  // bits: where a custom field's offset counts from
  for (size_t i = 0; i < filters.size(); ++i) {
    const std::string at = fmt::format("{}[{}]", path, i);
    const std::string choice = filters[i].value("choice", "custom");
    const json& f = filters[i].value(choice, json::object());
    if (choice == "custom") {
      // Read as whole numbers first: a number out of unsigned's range (1e30, -1) converted
      // by nlohmann's value() was undefined behaviour (found by the otg_request fuzz target).
      const auto offset = whole_number(f.value("offset", json(0)));
      const auto length = whole_number(f.value("bit_length", json(8)));
      if (!offset || *offset > kMaxCustomOffsetBits)
        throw std::invalid_argument(fmt::format("{}.custom.offset: expected 0-{} bits", at, kMaxCustomOffsetBits));
      if (!length || *length == 0 || *length > 128)
        throw std::invalid_argument(at + ".custom.bit_length: expected 1-128 bits");
      if (auto e = field_expression(custom_start + static_cast<unsigned>(*offset), static_cast<unsigned>(*length), f,
                                    at + ".custom");
          !e.empty())
        parts.push_back(e);
      custom_start += static_cast<unsigned>(*offset + *length);
      continue;
    }
    const auto layout = layouts().find(choice);
    if (layout == layouts().end())
      throw std::invalid_argument(fmt::format("{}: a {} filter is not supported by linerate", at, choice));
    // A header filtered first follows an Ethernet header; a vlan filter's fields start at the
    // tag's TCI (where an IP header would begin), its protocol is the type after the tag.
    const unsigned start = choice != "ethernet" && header_start == 0 ? 14 : header_start;
    for (const auto& [name, field] : f.items()) {
      const auto place = layout->second.fields.find(name);
      if (place == layout->second.fields.end())
        throw std::invalid_argument(fmt::format("{}.{}.{}: not a field linerate filters on", at, choice, name));
      const std::string e = field_expression(start * 8 + place->second.bit_offset, place->second.bit_length, field,
                                             fmt::format("{}.{}.{}", at, choice, name));
      if (!e.empty()) parts.push_back(e);
    }
    header_start = start + layout->second.bytes;
    custom_start = header_start * 8;
  }
  return fmt::format("{}", fmt::join(parts, " and "));
}

}  // namespace lr::otg
