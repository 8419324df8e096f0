// libFuzzer target: any bytes as the text of `linerate flow create PORT ...` (the flow
// pattern language of dataplane/port/flow/flow_rule.hpp). The parser must answer every
// input with a rule or an error that says at which word and why, never crash or hang; a
// rule it accepts is END-terminated in both lists, each item and action named when the
// PMD points at it. Built with clang by scripts/fuzz.sh.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dataplane/port/flow/flow_rule.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto rule = lr::dp::FlowRule::parse(text);
  if (!rule) {
    if (rule.error().context.empty()) __builtin_trap();
    return 0;
  }
  // Bounded walks: a rule has at most one item and one action per word.
  size_t items = 0;
  while (rule->pattern()[items].type != RTE_FLOW_ITEM_TYPE_END) {
    if (++items > size) __builtin_trap();
    if (rule->describe_cause(&rule->pattern()[items - 1]).empty()) __builtin_trap();
  }
  size_t actions = 0;
  while (rule->actions()[actions].type != RTE_FLOW_ACTION_TYPE_END) {
    if (++actions > size) __builtin_trap();
    if (rule->describe_cause(&rule->actions()[actions - 1]).empty()) __builtin_trap();
  }
  if (actions == 0) __builtin_trap();  // a rule does something
  return 0;
}
