#pragma once
// A flow steering rule from a short text, the words testpmd users already know:
//
//   [ingress] [priority N] [group N] pattern ITEM [FIELD is V | FIELD spec V mask M]... / ITEM ...
//       actions ACTION [ARGS] / ACTION ...
//
// items:   eth (src, dst, type), vlan (pcp, vid, inner_type), ipv4 (src, dst, proto, tos),
//          ipv6 (src, dst, proto), udp (src, dst), tcp (src, dst)
// actions: queue index N | rss queues N... | drop | mark id N | count
// ("end" after the pattern or the actions is accepted and not needed.)
//
// Parsed into rte_flow structures this object owns, so that a rule is validated and
// created from exactly what was parsed. Pure (DPDK headers only): unit-tested without EAL.

#include <rte_flow.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lib/common/result.hpp"

namespace lr::dp {

class FlowRule {
 public:
  /// Errors: kInvalid, saying at which word and why ("word 6 'pcp': a number 0-7").
  static Result<FlowRule> parse(std::string_view text);

  FlowRule(FlowRule&&) noexcept = default;
  FlowRule& operator=(FlowRule&&) noexcept = default;

  const std::string& text() const noexcept { return text_; }
  const rte_flow_attr& attr() const noexcept { return attr_; }
  const rte_flow_item* pattern() const noexcept { return items_.data(); }    ///< END-terminated
  const rte_flow_action* actions() const noexcept { return actions_.data(); }  ///< END-terminated
  bool counts() const noexcept { return counts_; }
  /// The highest RX queue an action names, -1 for none (checked against the port's queues).
  int max_queue() const noexcept { return max_queue_; }
  /// What the PMD's error `cause` points at: "item 2 (vlan)", "action 1 (queue)", or "".
  std::string describe_cause(const void* cause) const;

 private:
  class Parser;  // the flow language, word by word (flow_rule.cpp)

  FlowRule() = default;
  void* store(size_t bytes);  // zeroed, stable storage for specs, masks and confs

  std::string text_;
  rte_flow_attr attr_{};
  std::vector<rte_flow_item> items_;
  std::vector<std::string> item_names_;
  std::vector<rte_flow_action> actions_;
  std::vector<std::string> action_names_;
  std::vector<std::unique_ptr<uint64_t[]>> storage_;
  bool counts_ = false;
  int max_queue_ = -1;
};

}  // namespace lr::dp
