#include "dataplane/port/flow/flow_rule.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <rte_ethdev.h>

#include <charconv>
#include <cstring>
#include <functional>
#include <map>
#include <optional>

namespace lr::dp {

namespace {

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n')) ++at;
    if (at >= text.size()) break;
    if (text[at] == '/' || text[at] == ',') {  // separators stand alone even without spaces
      words.emplace_back(1, '/');
      ++at;
      continue;
    }
    const size_t end = text.find_first_of(" \t\n/,", at);
    words.emplace_back(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    at = end == std::string_view::npos ? text.size() : end;
  }
  return words;
}

std::optional<uint64_t> number(const std::string& word, uint64_t max) {
  uint64_t v = 0;
  const int base = word.starts_with("0x") ? 16 : 10;
  const char* first = word.data() + (base == 16 ? 2 : 0);
  const auto [ptr, ec] = std::from_chars(first, word.data() + word.size(), v, base);
  if (ec != std::errc() || ptr != word.data() + word.size() || first == ptr || v > max) return std::nullopt;
  return v;
}

// A field's value and mask as big-endian bytes written into the spec and mask structs.
struct FieldType {
  const char* what;  // for errors: "a MAC address"
  size_t bytes;
  std::function<bool(const std::string&, uint8_t*)> parse;  // writes `bytes` network-order bytes
};

bool parse_uint(const std::string& word, uint8_t* out, size_t bytes, uint64_t max) {
  const auto v = number(word, max);
  if (!v) return false;
  for (size_t i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(*v >> (8 * (bytes - 1 - i)));
  return true;
}

const FieldType kU8{"a number 0-255", 1, [](const std::string& w, uint8_t* o) { return parse_uint(w, o, 1, 0xFF); }};
const FieldType kU16{"a number 0-65535", 2, [](const std::string& w, uint8_t* o) { return parse_uint(w, o, 2, 0xFFFF); }};
const FieldType kMac{"a MAC address (aa:bb:cc:dd:ee:ff)", 6, [](const std::string& w, uint8_t* o) {
                       unsigned b[6];
                       char tail = 0;
                       if (std::sscanf(w.c_str(), "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
                                       &tail) != 6)
                         return false;
                       for (int i = 0; i < 6; ++i) o[i] = static_cast<uint8_t>(b[i]);
                       return true;
                     }};
const FieldType kIpv4{"an IPv4 address", 4, [](const std::string& w, uint8_t* o) { return inet_pton(AF_INET, w.c_str(), o) == 1; }};
const FieldType kIpv6{"an IPv6 address", 16, [](const std::string& w, uint8_t* o) { return inet_pton(AF_INET6, w.c_str(), o) == 1; }};

// Where a field lives in its item's spec struct. VLAN pcp and vid share the TCI: they
// are written through a mask of their own bits (see set_tci).
struct Field {
  const FieldType* type;
  size_t offset;
  uint16_t tci_bits = 0;  // non-zero: a part of vlan's TCI
};

struct ItemType {
  rte_flow_item_type type;
  size_t size;
  std::map<std::string, Field, std::less<>> fields;
};

const std::map<std::string, ItemType, std::less<>>& item_types() {
  static const std::map<std::string, ItemType, std::less<>> kItems{
      {"eth", {RTE_FLOW_ITEM_TYPE_ETH, sizeof(rte_flow_item_eth),
               {{"dst", {&kMac, offsetof(rte_flow_item_eth, hdr.dst_addr)}},
                {"src", {&kMac, offsetof(rte_flow_item_eth, hdr.src_addr)}},
                {"type", {&kU16, offsetof(rte_flow_item_eth, hdr.ether_type)}}}}},
      {"vlan", {RTE_FLOW_ITEM_TYPE_VLAN, sizeof(rte_flow_item_vlan),
                {{"pcp", {&kU8, offsetof(rte_flow_item_vlan, hdr.vlan_tci), 0xE000}},
                 {"vid", {&kU16, offsetof(rte_flow_item_vlan, hdr.vlan_tci), 0x0FFF}},
                 {"inner_type", {&kU16, offsetof(rte_flow_item_vlan, hdr.eth_proto)}}}}},
      {"ipv4", {RTE_FLOW_ITEM_TYPE_IPV4, sizeof(rte_flow_item_ipv4),
                {{"src", {&kIpv4, offsetof(rte_flow_item_ipv4, hdr.src_addr)}},
                 {"dst", {&kIpv4, offsetof(rte_flow_item_ipv4, hdr.dst_addr)}},
                 {"proto", {&kU8, offsetof(rte_flow_item_ipv4, hdr.next_proto_id)}},
                 {"tos", {&kU8, offsetof(rte_flow_item_ipv4, hdr.type_of_service)}}}}},
      {"ipv6", {RTE_FLOW_ITEM_TYPE_IPV6, sizeof(rte_flow_item_ipv6),
                {{"src", {&kIpv6, offsetof(rte_flow_item_ipv6, hdr.src_addr)}},
                 {"dst", {&kIpv6, offsetof(rte_flow_item_ipv6, hdr.dst_addr)}},
                 {"proto", {&kU8, offsetof(rte_flow_item_ipv6, hdr.proto)}}}}},
      {"udp", {RTE_FLOW_ITEM_TYPE_UDP, sizeof(rte_flow_item_udp),
               {{"src", {&kU16, offsetof(rte_flow_item_udp, hdr.src_port)}},
                {"dst", {&kU16, offsetof(rte_flow_item_udp, hdr.dst_port)}}}}},
      {"tcp", {RTE_FLOW_ITEM_TYPE_TCP, sizeof(rte_flow_item_tcp),
               {{"src", {&kU16, offsetof(rte_flow_item_tcp, hdr.src_port)}},
                {"dst", {&kU16, offsetof(rte_flow_item_tcp, hdr.dst_port)}}}}},
  };
  return kItems;
}

// pcp / vid into the big-endian TCI: value shifted into its bits.
void set_tci(uint8_t* tci, uint16_t bits, uint64_t value) {
  const unsigned shift = static_cast<unsigned>(__builtin_ctz(bits));
  const uint16_t current = static_cast<uint16_t>(tci[0] << 8 | tci[1]);
  const uint16_t next = static_cast<uint16_t>((current & ~bits) | ((value << shift) & bits));
  tci[0] = static_cast<uint8_t>(next >> 8);
  tci[1] = static_cast<uint8_t>(next);
}

}  // namespace

void* FlowRule::store(size_t bytes) {
  storage_.push_back(std::make_unique<uint64_t[]>((bytes + 7) / 8));  // value-initialised: zeroed
  return storage_.back().get();
}

// Reads the flow language word by word into a FlowRule: attributes, the pattern's items
// (each field `is VALUE` or `spec VALUE mask MASK`), the actions. Every refusal names the
// word and what was expected there.
class FlowRule::Parser {
 public:
  Parser(FlowRule& rule, std::vector<std::string> words) : rule_(rule), w_(std::move(words)) {}

  Result<void> attributes() {
    while (i_ < w_.size() && w_[i_] != "pattern") {
      if (w_[i_] == "ingress") {
        ++i_;
      } else if (w_[i_] == "priority" || w_[i_] == "group") {
        const auto v = i_ + 1 < w_.size() ? number(w_[i_ + 1], UINT32_MAX) : std::nullopt;
        if (!v) return fail(i_ + 1, "a number");
        (w_[i_] == "priority" ? rule_.attr_.priority : rule_.attr_.group) = static_cast<uint32_t>(*v);
        i_ += 2;
      } else {
        return fail(i_, "expected 'pattern' (or ingress, priority N, group N before it)");
      }
    }
    if (i_ >= w_.size()) return fail(i_, "expected 'pattern'");
    ++i_;
    return {};
  }

  // Pattern items, separated by '/', up to 'actions'.
  Result<void> pattern() {
    while (i_ < w_.size() && w_[i_] != "actions") {
      if (w_[i_] == "/" || w_[i_] == "end") {
        ++i_;
        continue;
      }
      if (Result<void> done = item(); !done) return done;
    }
    if (rule_.items_.empty()) return fail(i_, "the pattern needs at least one item");
    rule_.items_.push_back(rte_flow_item{RTE_FLOW_ITEM_TYPE_END, nullptr, nullptr, nullptr});
    if (i_ >= w_.size()) return fail(i_, "expected 'actions'");
    ++i_;
    return {};
  }

  Result<void> actions() {
    while (i_ < w_.size()) {
      if (w_[i_] == "/" || w_[i_] == "end") {
        ++i_;
        continue;
      }
      if (Result<void> done = action(); !done) return done;
    }
    if (rule_.actions_.empty()) return fail(i_, "the rule needs at least one action");
    rule_.actions_.push_back(rte_flow_action{RTE_FLOW_ACTION_TYPE_END, nullptr});
    return {};
  }

 private:
  std::unexpected<Error> fail(size_t at, const std::string& why) const {
    return make_error(Errc::kInvalid, at < w_.size() ? fmt::format("flow rule, word {} '{}': {}", at + 1, w_[at], why)
                                                     : fmt::format("flow rule, at the end: {}", why));
  }

  Result<void> item() {
    const auto type = item_types().find(w_[i_]);
    if (type == item_types().end()) return fail(i_, "not an item (eth, vlan, ipv4, ipv6, udp, tcp)");
    const std::string item_name = w_[i_++];
    auto* spec = static_cast<uint8_t*>(rule_.store(type->second.size));
    auto* mask = static_cast<uint8_t*>(rule_.store(type->second.size));
    bool any_field = false;
    while (i_ < w_.size() && w_[i_] != "/" && w_[i_] != "actions" && w_[i_] != "end") {
      const auto field = type->second.fields.find(w_[i_]);
      if (field == type->second.fields.end()) {
        std::string names;
        for (const auto& [name, f] : type->second.fields) names += (names.empty() ? "" : ", ") + name;
        return fail(i_, fmt::format("{} has no such field (it has {})", item_name, names));
      }
      if (Result<void> done = field_value(field->second, spec, mask); !done) return done;
      any_field = true;
    }
    rte_flow_item out{};
    out.type = type->second.type;
    out.spec = any_field ? spec : nullptr;  // a bare item matches any header of its kind
    out.mask = any_field ? mask : nullptr;
    rule_.items_.push_back(out);
    rule_.item_names_.push_back(item_name);
    return {};
  }

  // `FIELD is VALUE` or `FIELD spec VALUE mask MASK`, into the item's spec and mask.
  Result<void> field_value(const Field& f, uint8_t* spec, uint8_t* mask) {
    if (i_ + 1 >= w_.size()) return fail(i_, "expected 'is VALUE' or 'spec VALUE mask MASK' after the field");
    const std::string how = w_[i_ + 1];
    if (how != "is" && how != "spec") return fail(i_ + 1, "expected 'is' or 'spec'");
    if (i_ + 2 >= w_.size()) return fail(i_ + 2, "a value");
    std::vector<uint8_t> value(f.type->bytes), bits(f.type->bytes, 0xFF);
    if (!f.type->parse(w_[i_ + 2], value.data())) return fail(i_ + 2, f.type->what);
    size_t next = i_ + 3;
    if (how == "spec") {
      if (next + 1 >= w_.size() || w_[next] != "mask") return fail(next, "expected 'mask MASK' after 'spec VALUE'");
      if (!f.type->parse(w_[next + 1], bits.data())) return fail(next + 1, f.type->what);
      next += 2;
    }
    if (f.tci_bits != 0) {
      uint64_t v = 0, m = 0;
      for (uint8_t b : value) v = v << 8 | b;
      for (uint8_t b : bits) m = m << 8 | b;
      const uint64_t limit = f.tci_bits >> __builtin_ctz(f.tci_bits);
      if (v > limit) return fail(i_ + 2, fmt::format("a number 0-{}", limit));
      set_tci(spec + f.offset, f.tci_bits, v);
      set_tci(mask + f.offset, f.tci_bits, m);
    } else {
      for (size_t b = 0; b < f.type->bytes; ++b) {
        spec[f.offset + b] = static_cast<uint8_t>(value[b] & bits[b]);
        mask[f.offset + b] = bits[b];
      }
    }
    i_ = next;
    return {};
  }

  // "KEYWORD N" at the cursor, N at most `max` (`what` says what N must be); moves past both.
  Result<uint64_t> keyed_number(std::string_view keyword, uint64_t max, const char* what) {
    if (i_ + 1 >= w_.size() || w_[i_] != keyword) return fail(i_, fmt::format("expected '{} N'", keyword));
    const auto n = number(w_[i_ + 1], max);
    if (!n) return fail(i_ + 1, what);
    i_ += 2;
    return *n;
  }

  Result<void> action() {
    const std::string name = w_[i_++];
    rte_flow_action out{};
    if (name == "drop") {
      out.type = RTE_FLOW_ACTION_TYPE_DROP;
    } else if (name == "count") {
      out.type = RTE_FLOW_ACTION_TYPE_COUNT;
      out.conf = rule_.store(sizeof(rte_flow_action_count));
      rule_.counts_ = true;
    } else if (name == "queue") {
      const Result<uint64_t> q = keyed_number("index", UINT16_MAX, "a queue number");
      if (!q) return std::unexpected(q.error());
      auto* conf = static_cast<rte_flow_action_queue*>(rule_.store(sizeof(rte_flow_action_queue)));
      conf->index = static_cast<uint16_t>(*q);
      rule_.max_queue_ = std::max(rule_.max_queue_, static_cast<int>(*q));
      out = {RTE_FLOW_ACTION_TYPE_QUEUE, conf};
    } else if (name == "mark") {
      const Result<uint64_t> id = keyed_number("id", UINT32_MAX, "a mark id 0-4294967295");
      if (!id) return std::unexpected(id.error());
      auto* conf = static_cast<rte_flow_action_mark*>(rule_.store(sizeof(rte_flow_action_mark)));
      conf->id = static_cast<uint32_t>(*id);
      out = {RTE_FLOW_ACTION_TYPE_MARK, conf};
    } else if (name == "rss") {
      Result<const void*> conf = rss();
      if (!conf) return std::unexpected(conf.error());
      out.type = RTE_FLOW_ACTION_TYPE_RSS;
      out.conf = *conf;
    } else {
      return fail(i_ - 1, "not an action (queue, rss, drop, mark, count)");
    }
    rule_.actions_.push_back(out);
    rule_.action_names_.push_back(name);
    return {};
  }

  // `rss queues N...`: the queues, hashed over IP, UDP and TCP.
  Result<const void*> rss() {
    if (i_ >= w_.size() || w_[i_] != "queues") return fail(i_, "expected 'queues N...'");
    ++i_;
    std::vector<uint16_t> queues;
    while (i_ < w_.size() && w_[i_] != "/" && w_[i_] != "end") {
      const auto q = number(w_[i_], UINT16_MAX);
      if (!q) return fail(i_, "a queue number");
      queues.push_back(static_cast<uint16_t>(*q));
      rule_.max_queue_ = std::max(rule_.max_queue_, static_cast<int>(*q));
      ++i_;
    }
    if (queues.empty()) return fail(i_, "rss needs at least one queue");
    auto* list = static_cast<uint16_t*>(rule_.store(queues.size() * sizeof(uint16_t)));
    std::memcpy(list, queues.data(), queues.size() * sizeof(uint16_t));
    auto* conf = static_cast<rte_flow_action_rss*>(rule_.store(sizeof(rte_flow_action_rss)));
    conf->func = RTE_ETH_HASH_FUNCTION_DEFAULT;
    conf->types = RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP;
    conf->queue_num = static_cast<uint32_t>(queues.size());
    conf->queue = list;
    return conf;
  }

  FlowRule& rule_;
  std::vector<std::string> w_;
  size_t i_ = 0;
};

Result<FlowRule> FlowRule::parse(std::string_view text) {
  FlowRule rule;
  rule.text_ = std::string(text);
  rule.attr_.ingress = 1;
  Parser parser(rule, words_of(text));
  for (Result<void> (Parser::*step)() : {&Parser::attributes, &Parser::pattern, &Parser::actions})
    if (Result<void> done = (parser.*step)(); !done) return std::unexpected(done.error());
  return rule;
}

std::string FlowRule::describe_cause(const void* cause) const {
  if (cause == nullptr) return "";
  for (size_t k = 0; k + 1 < items_.size(); ++k) {
    const rte_flow_item& it = items_[k];
    if (cause == &it || cause == it.spec || cause == it.mask || cause == it.last)
      return fmt::format("item {} ({})", k + 1, item_names_[k]);
  }
  for (size_t k = 0; k + 1 < actions_.size(); ++k)
    if (cause == &actions_[k] || cause == actions_[k].conf) return fmt::format("action {} ({})", k + 1, action_names_[k]);
  if (cause == &attr_) return "the attributes";
  return "";
}

}  // namespace lr::dp
