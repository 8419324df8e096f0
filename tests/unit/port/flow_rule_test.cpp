// The flow rule language into rte_flow structures: exact bytes of specs and masks,
// actions, and errors that name the word and what was expected.

#include "dataplane/port/flow/flow_rule.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace lr::dp {
namespace {

const uint8_t* bytes(const void* p) { return static_cast<const uint8_t*>(p); }

TEST(FlowRule, RoceV2OnPcp3ToAQueueWithACount) {
  const auto rule = FlowRule::parse("pattern eth / vlan pcp is 3 / ipv4 / udp dst is 4791 actions queue index 2 / count");
  ASSERT_TRUE(rule) << to_string(rule.error());
  const rte_flow_item* items = rule->pattern();
  ASSERT_EQ(items[0].type, RTE_FLOW_ITEM_TYPE_ETH);
  EXPECT_EQ(items[0].spec, nullptr);  // a bare item matches any Ethernet header
  ASSERT_EQ(items[1].type, RTE_FLOW_ITEM_TYPE_VLAN);
  const auto* vlan_spec = static_cast<const rte_flow_item_vlan*>(items[1].spec);
  const auto* vlan_mask = static_cast<const rte_flow_item_vlan*>(items[1].mask);
  EXPECT_EQ(bytes(&vlan_spec->hdr.vlan_tci)[0], 0x60);  // pcp 3 in the top three bits, big-endian
  EXPECT_EQ(bytes(&vlan_spec->hdr.vlan_tci)[1], 0x00);
  EXPECT_EQ(bytes(&vlan_mask->hdr.vlan_tci)[0], 0xE0);
  EXPECT_EQ(bytes(&vlan_mask->hdr.vlan_tci)[1], 0x00);
  EXPECT_EQ(items[2].type, RTE_FLOW_ITEM_TYPE_IPV4);
  ASSERT_EQ(items[3].type, RTE_FLOW_ITEM_TYPE_UDP);
  const auto* udp = static_cast<const rte_flow_item_udp*>(items[3].spec);
  const auto* udp_mask = static_cast<const rte_flow_item_udp*>(items[3].mask);
  EXPECT_EQ(bytes(&udp->hdr.dst_port)[0], 0x12);  // 4791 = 0x12b7
  EXPECT_EQ(bytes(&udp->hdr.dst_port)[1], 0xB7);
  EXPECT_EQ(udp_mask->hdr.dst_port, 0xFFFF);
  EXPECT_EQ(udp_mask->hdr.src_port, 0);
  EXPECT_EQ(items[4].type, RTE_FLOW_ITEM_TYPE_END);
  const rte_flow_action* actions = rule->actions();
  ASSERT_EQ(actions[0].type, RTE_FLOW_ACTION_TYPE_QUEUE);
  EXPECT_EQ(static_cast<const rte_flow_action_queue*>(actions[0].conf)->index, 2);
  EXPECT_EQ(actions[1].type, RTE_FLOW_ACTION_TYPE_COUNT);
  EXPECT_EQ(actions[2].type, RTE_FLOW_ACTION_TYPE_END);
  EXPECT_TRUE(rule->counts());
  EXPECT_EQ(rule->max_queue(), 2);
  EXPECT_TRUE(rule->attr().ingress);
}

TEST(FlowRule, SpecMaskAddressesAttributesAndRss) {
  const auto rule = FlowRule::parse(
      "priority 1 group 0 pattern eth dst is 02:00:00:00:00:01 / ipv4 src spec 10.1.2.3 mask 255.255.0.0 / "
      "end actions rss queues 0 1 3 / mark id 7 / end");
  ASSERT_TRUE(rule) << to_string(rule.error());
  EXPECT_EQ(rule->attr().priority, 1u);
  const auto* eth = static_cast<const rte_flow_item_eth*>(rule->pattern()[0].spec);
  const uint8_t mac[6] = {0x02, 0, 0, 0, 0, 0x01};
  EXPECT_EQ(std::memcmp(&eth->hdr.dst_addr, mac, 6), 0);
  const auto* ip = static_cast<const rte_flow_item_ipv4*>(rule->pattern()[1].spec);
  const auto* ip_mask = static_cast<const rte_flow_item_ipv4*>(rule->pattern()[1].mask);
  const uint8_t src[4] = {10, 1, 0, 0};  // the spec is stored masked
  const uint8_t mask[4] = {255, 255, 0, 0};
  EXPECT_EQ(std::memcmp(&ip->hdr.src_addr, src, 4), 0);
  EXPECT_EQ(std::memcmp(&ip_mask->hdr.src_addr, mask, 4), 0);
  const auto* rss = static_cast<const rte_flow_action_rss*>(rule->actions()[0].conf);
  ASSERT_EQ(rss->queue_num, 3u);
  EXPECT_EQ(rss->queue[2], 3);
  EXPECT_EQ(static_cast<const rte_flow_action_mark*>(rule->actions()[1].conf)->id, 7u);
  EXPECT_EQ(rule->max_queue(), 3);
  EXPECT_FALSE(rule->counts());
  EXPECT_EQ(rule->describe_cause(rule->pattern()[1].spec), "item 2 (ipv4)");
  EXPECT_EQ(rule->describe_cause(&rule->actions()[1]), "action 2 (mark)");
}

TEST(FlowRule, Ipv6TcpAndCommasBetweenActions) {
  const auto rule = FlowRule::parse("pattern ipv6 dst is fd00::1 / tcp src is 179 actions drop, count");
  ASSERT_TRUE(rule) << to_string(rule.error());
  const auto* ip6 = static_cast<const rte_flow_item_ipv6*>(rule->pattern()[0].spec);
  EXPECT_EQ(bytes(&ip6->hdr.dst_addr)[0], 0xFD);
  EXPECT_EQ(bytes(&ip6->hdr.dst_addr)[15], 0x01);
  EXPECT_EQ(rule->actions()[0].type, RTE_FLOW_ACTION_TYPE_DROP);
  EXPECT_EQ(rule->actions()[1].type, RTE_FLOW_ACTION_TYPE_COUNT);
}

TEST(FlowRule, ErrorsNameTheWordAndWhatWasExpected) {
  const std::pair<const char*, const char*> cases[] = {
      {"eth / udp actions drop", "flow rule, word 1 'eth': expected 'pattern' (or ingress, priority N, group N before it)"},
      {"pattern eth / vlan pcp is 9 actions drop", "flow rule, word 7 '9': a number 0-7"},
      {"pattern vlan prio is 3 actions drop", "flow rule, word 3 'prio': vlan has no such field (it has inner_type, pcp, vid)"},
      {"pattern udp dst is http actions drop", "flow rule, word 5 'http': a number 0-65535"},
      {"pattern ipv4 src is 10.0.0.300 actions drop", "flow rule, word 5 '10.0.0.300': an IPv4 address"},
      {"pattern udp dst spec 1 actions drop", "flow rule, word 6 'actions': expected 'mask MASK' after 'spec VALUE'"},
      {"pattern gre actions drop", "flow rule, word 2 'gre': not an item (eth, vlan, ipv4, ipv6, udp, tcp)"},
      {"pattern eth actions queue 3", "flow rule, word 5 '3': expected 'index N'"},
      {"pattern eth actions jump", "flow rule, word 4 'jump': not an action (queue, rss, drop, mark, count)"},
      {"pattern eth", "flow rule, at the end: expected 'actions'"},
      {"pattern eth actions", "flow rule, at the end: the rule needs at least one action"},
      {"pattern actions drop", "flow rule, word 2 'actions': the pattern needs at least one item"},
      {"pattern udp dst", "flow rule, word 3 'dst': expected 'is VALUE' or 'spec VALUE mask MASK' after the field"},
  };
  for (const auto& [text, message] : cases) {
    const auto rule = FlowRule::parse(text);
    ASSERT_FALSE(rule) << text;
    EXPECT_EQ(rule.error().code, Errc::kInvalid);
    EXPECT_EQ(rule.error().context, message) << text;
  }
}

// Random word salads from the language's own vocabulary and junk: a rule or an error,
// never a crash (this binary also runs under ASan + UBSan), and a parsed rule is
// END-terminated. (libFuzzer's clang 14 cannot build std::expected code.)
TEST(FlowRule, RandomTextsParseOrFailCleanly) {
  const std::vector<std::string> vocabulary = {
      "pattern", "actions", "end", "/", ",", "eth", "vlan", "ipv4", "ipv6", "udp", "tcp", "gre", "src", "dst", "type",
      "pcp", "vid", "tos", "proto", "is", "spec", "mask", "queue", "index", "rss", "queues", "drop", "mark", "id",
      "count", "priority", "group", "ingress", "0", "7", "8", "65535", "65536", "4294967296", "0x12", "0x", "-1",
      "10.0.0.1", "255.255.0.0", "fd00::1", "::", "02:00:00:00:00:01", "zz:00", "", "é", "1.2.3.4.5"};
  std::mt19937 rng(11);
  size_t parsed = 0;
  for (int round = 0; round < 50000; ++round) {
    const auto salad = [&](size_t most) {
      std::string out;
      for (size_t i = rng() % most; i > 0; --i) out += vocabulary[rng() % vocabulary.size()] + (rng() % 8 ? " " : "");
      return out;
    };
    // Mostly shaped like a rule, so that the generator reaches the item and action parsers.
    std::string text = rng() % 4 ? "pattern " + salad(10) + (rng() % 4 ? " actions " : "") + salad(6) : salad(24);
    const auto rule = FlowRule::parse(text);
    if (!rule) {
      EXPECT_EQ(rule.error().code, Errc::kInvalid);
      continue;
    }
    ++parsed;
    size_t n = 0;
    while (rule->pattern()[n].type != RTE_FLOW_ITEM_TYPE_END) ASSERT_LT(++n, 64u) << text;
    n = 0;
    while (rule->actions()[n].type != RTE_FLOW_ACTION_TYPE_END) ASSERT_LT(++n, 64u) << text;
  }
  EXPECT_GT(parsed, 0u);  // the generator does reach valid rules
}

}  // namespace
}  // namespace lr::dp
