#include "control/reports/hand_over.hpp"

#include <pwd.h>
#include <unistd.h>

#include <array>
#include <cstdlib>

#include "lib/api/json_fields.hpp"

namespace lr::report {

using nlohmann::json;

namespace {

constexpr auto tester_port_fields =
    LR_JSON_FIELDS(name, device, driver, speed_bps, speed_from_profile, link_speed_bps, link_up);

std::string host_name() {
  std::array<char, 256> name{};
  return gethostname(name.data(), name.size() - 1) == 0 ? std::string(name.data()) : std::string();
}

// Who ran it: through sudo, the user who typed the command, not root.
std::string login_name() {
  if (const char* user = std::getenv("SUDO_USER"); user != nullptr && *user != '\0') return user;
  if (const passwd* pw = getpwuid(geteuid()); pw != nullptr) return pw->pw_name;
  if (const char* user = std::getenv("USER"); user != nullptr) return user;
  return "";
}

}  // namespace

HandOver hand_over(const ReportSection& section, const std::vector<api::PortReport>& ports) {
  HandOver out{section.dut, section.notes, LR_VERSION, host_name(),
               section.operator_name.empty() ? login_name() : section.operator_name, {}};
  for (const api::PortReport& p : ports)
    out.ports.push_back({p.name, p.device, p.driver, p.speed_bps, p.speed_from_profile, p.link_speed_bps, p.link_up});
  return out;
}

void write_hand_over(json& report, const HandOver& h) {
  report["dut"] = {{"name", h.dut.empty() ? json(nullptr) : json(h.dut)},
                   {"notes", h.notes.empty() ? json(nullptr) : json(h.notes)}};
  report["tester"] = {{"linerate", h.linerate_version}, {"host", h.host}, {"operator", h.operator_name},
                      {"ports", api::write_items(h.ports, tester_port_fields)}};
}

std::optional<HandOver> read_hand_over(const json& report) {
  const auto tester = report.find("tester");
  if (tester == report.end() || !tester->is_object()) return std::nullopt;
  HandOver h;
  if (const auto dut = report.find("dut"); dut != report.end() && dut->is_object()) {
    const auto read = api::reader(*dut);
    read("name", h.dut);
    read("notes", h.notes);
  }
  const auto read = api::reader(*tester);
  read("linerate", h.linerate_version);
  read("host", h.host);
  read("operator", h.operator_name);
  api::read_field_items(*tester, "ports", h.ports, tester_port_fields);
  return h;
}

}  // namespace lr::report
