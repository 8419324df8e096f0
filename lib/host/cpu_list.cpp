#include "lib/host/cpu_list.hpp"

#include <fmt/format.h>

#include <charconv>
#include <vector>

namespace lr::host {

namespace {

std::optional<unsigned> number(const std::string& text) {
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t at = text.find(separator); at != std::string::npos; at = text.find(separator, start)) {
    out.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  out.push_back(text.substr(start));
  return out;
}

}  // namespace

std::optional<std::set<unsigned>> parse_cpu_list(const std::string& text) {
  std::set<unsigned> cpus;
  if (text.empty()) return cpus;
  for (const std::string& item : split(text, ',')) {
    const size_t dash = item.find('-');
    const auto first = number(item.substr(0, dash));
    const auto last = dash == std::string::npos ? first : number(item.substr(dash + 1));
    if (!first || !last || *last < *first || *last - *first > 4096) return std::nullopt;
    for (unsigned cpu = *first; cpu <= *last; ++cpu) cpus.insert(cpu);
  }
  return cpus;
}

namespace {

// Lcores in the order written, each with its CPU (itself unless "lcore@cpu"); nullopt for
// groups in parentheses, which this does not read.
std::optional<std::vector<std::pair<unsigned, unsigned>>> lcores_on_cpus(const std::string& eal_lcores) {
  if (eal_lcores.find('(') != std::string::npos) return std::nullopt;
  std::vector<std::pair<unsigned, unsigned>> lcores;
  for (const std::string& item : split(eal_lcores, ',')) {
    const size_t at = item.find('@');
    const auto ids = parse_cpu_list(item.substr(0, at));
    if (!ids || ids->empty()) return std::nullopt;
    std::optional<unsigned> cpu;
    if (at != std::string::npos) {
      cpu = number(item.substr(at + 1));
      if (!cpu) return std::nullopt;
    }
    for (unsigned id : *ids) lcores.push_back({id, cpu.value_or(id)});
  }
  return lcores;
}

}  // namespace

std::optional<std::set<unsigned>> worker_cpus(const std::string& eal_lcores) {
  const auto lcores = lcores_on_cpus(eal_lcores);
  if (!lcores) return std::nullopt;
  std::set<unsigned> cpus;
  for (size_t i = 1; i < lcores->size(); ++i) cpus.insert((*lcores)[i].second);  // [0] is the main lcore
  return cpus;
}

std::optional<std::set<unsigned>> lcore_cpus(const std::string& eal_lcores) {
  const auto lcores = lcores_on_cpus(eal_lcores);
  if (!lcores) return std::nullopt;
  std::set<unsigned> cpus;
  for (const auto& [lcore, cpu] : *lcores) cpus.insert(cpu);
  return cpus;
}

std::string cpu_list_text(const std::set<unsigned>& cpus) {
  std::string out;
  for (auto it = cpus.begin(); it != cpus.end();) {
    unsigned first = *it, last = *it;
    for (++it; it != cpus.end() && *it == last + 1; ++it) last = *it;
    out += (out.empty() ? "" : ",") + (first == last ? fmt::format("{}", first) : fmt::format("{}-{}", first, last));
  }
  return out;
}

}  // namespace lr::host
