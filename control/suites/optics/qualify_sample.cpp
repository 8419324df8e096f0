#include "control/suites/optics/qualify_sample.hpp"

#include <set>

#include "lib/host/counter_names.hpp"

namespace lr::optics {

namespace {

void keep_larger(std::map<std::string, uint64_t>& out, const std::string& name, uint64_t value) {
  auto [it, inserted] = out.emplace(name, value);
  if (!inserted && value > it->second) it->second = value;
}

}  // namespace

std::map<std::string, uint64_t> canonical_counters(const std::vector<dp::NamedCounter>& counters) {
  std::map<std::string, uint64_t> out;
  for (const dp::NamedCounter& c : counters)
    if (const std::string name = dp::canonical_counter_name(c.source, c.name); !name.empty()) keep_larger(out, name, c.value);
  return out;
}

std::map<std::string, uint64_t> canonical_counters(const std::vector<api::NicCounter>& port_counters) {
  std::map<std::string, uint64_t> out;
  for (const api::NicCounter& c : port_counters)
    if (c.canonical) keep_larger(out, *c.canonical, c.total);
  return out;
}

const std::vector<module::Monitor>& module_monitors(const module::DecodedModule& decoded) {
  return std::visit([](const auto& m) -> const std::vector<module::Monitor>& { return m.monitors; }, decoded);
}

const module::ModuleIdentity& module_identity(const module::DecodedModule& decoded) {
  return std::visit([](const auto& m) -> const module::ModuleIdentity& { return m; }, decoded);
}

uint64_t counter_delta(const QualifySample& from, const QualifySample& to, const std::string& name) {
  const auto a = from.counters.find(name);
  const auto b = to.counters.find(name);
  if (a == from.counters.end() || b == to.counters.end() || b->second < a->second) return 0;
  return b->second - a->second;
}

bool has_counter(const std::vector<QualifySample>& samples, const std::string& name) {
  for (const QualifySample& s : samples)
    if (s.counters.contains(name)) return true;
  return false;
}

std::vector<std::string> counters_named(const std::vector<QualifySample>& samples, const std::string& prefix) {
  std::set<std::string> names;
  for (const QualifySample& s : samples)
    for (const auto& [name, value] : s.counters)
      if (name.starts_with(prefix)) names.insert(name);
  return {names.begin(), names.end()};
}

}  // namespace lr::optics
