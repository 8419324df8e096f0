#include "control/suites/doctor/link_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "control/suites/optics/qualify_sample.hpp"
#include "control/suites/optics/qualify_verdicts.hpp"
#include "lib/host/module/decoded_module.hpp"

namespace lr::doctor {

namespace {

uint32_t mode_speed(const std::string& mode) { return static_cast<uint32_t>(std::strtoul(mode.c_str(), nullptr, 10)); }

uint32_t fastest(const std::vector<std::string>& modes) {
  uint32_t out = 0;
  for (const std::string& m : modes) out = std::max(out, mode_speed(m));
  return out;
}

std::string modes_at(const std::vector<std::string>& modes, uint32_t speed) {
  std::vector<std::string> out;
  for (const std::string& m : modes)
    if (mode_speed(m) == speed) out.push_back(m.substr(0, m.find('/')));
  return out.empty() ? "none" : fmt::format("{}", fmt::join(out, ", "));
}

Finding link_finding(const dp::LinkStatus& link, const std::string& netdev, const std::string& who) {
  const std::string item = "link " + who;
  if (!link.up)
    return {item, Verdict::kFail, fmt::format("{} has no carrier (ethtool {})", netdev, netdev),
            "check the module and cable (linerate module show, or ethtool -m), and the far end's port"};
  const uint32_t ours = fastest(link.advertised);
  std::string evidence = fmt::format("{} up at {} Mb/s{}", netdev, link.speed_mbps, link.autoneg ? ", autoneg" : ", forced");
  if (!link.autoneg || ours == 0 || link.speed_mbps >= ours) return {item, Verdict::kOk, evidence, ""};
  // Slower than this end offers: what each end advertises at the faster speed says why.
  evidence += fmt::format("; this end advertises up to {} Mb/s ({})", ours, modes_at(link.advertised, ours));
  if (link.partner.empty()) evidence += "; the partner's advertisement is not reported";
  else evidence += fmt::format("; the partner offers {} at {} Mb/s and up to {} Mb/s", modes_at(link.partner, ours), ours,
                               fastest(link.partner));
  return {item, Verdict::kWarn, evidence + ": the link negotiated below what this port can",
          fmt::format("advertise a mode both ends share at {} Mb/s (linerate port link set PORT --advertise MODE; the "
                      "same media type, KR or CR, on the switch port), or force the speed on both ends",
                      ours)};
}

Finding fec_finding(dp::KernelNetdev& netdev, const dp::LinkStatus& link, const std::string& who) {
  const std::string item = "FEC " + who;
  const auto fec = netdev.fec();
  if (!fec) return {item, Verdict::kSkipped, to_string(fec.error()), ""};
  const std::string active = dp::fec_names(fec->active);
  if (active.empty() || active == "off") {
    if (link.up && link.speed_mbps >= 25000)
      return {item, Verdict::kWarn,
              fmt::format("no FEC active at {} Mb/s (configured: {}): 25 Gb/s lanes need RS or BASE-R FEC on most media",
                          link.speed_mbps, dp::fec_names(fec->configured)),
              "ethtool --set-fec IF encoding rs (and the same on the far end), or linerate port fec set PORT rs"};
    return {item, Verdict::kOk, fmt::format("no FEC active (configured: {})", dp::fec_names(fec->configured)), ""};
  }
  return {item, Verdict::kOk, fmt::format("{} active (configured: {})", active, dp::fec_names(fec->configured)), ""};
}

Finding ddm_finding(dp::KernelNetdev& netdev, const std::string& who) {
  const std::string item = "module DDM " + who;
  const auto image = netdev.module_eeprom();
  if (!image) return {item, Verdict::kSkipped, to_string(image.error()), ""};
  try {
    const module::DecodedModule decoded = module::decode_module(*image);
    const module::ModuleIdentity& id = optics::module_identity(decoded);
    const std::vector<module::Monitor>& monitors = optics::module_monitors(decoded);
    const std::string name = fmt::format("{} {} s/n {}", id.vendor_name, id.vendor_pn, id.vendor_sn);
    if (monitors.empty()) return {item, Verdict::kSkipped, name + ": no diagnostics (DDM) in the module", ""};
    std::vector<std::string> alarms, warnings;
    for (const module::Monitor& m : monitors) {
      const std::string beyond = m.beyond();
      if (beyond.empty()) continue;
      (beyond.find("alarm") != std::string::npos ? alarms : warnings).push_back(fmt::format("{} {}", m.name, beyond));
    }
    const std::vector<std::string> rules = optics::rule_of_thumb_breaches(monitors);
    if (!alarms.empty())
      return {item, Verdict::kFail, fmt::format("{}: beyond the module's alarm thresholds: {}", name, fmt::join(alarms, ", ")),
              "clean the connectors, check the fibre and the far end's TX; replace the module if it stays"};
    if (!warnings.empty() || !rules.empty()) {
      std::vector<std::string> all = warnings;
      all.insert(all.end(), rules.begin(), rules.end());
      return {item, Verdict::kWarn, fmt::format("{}: {}", name, fmt::join(all, "; ")),
              "watch it (linerate optics qualify samples it under traffic); clean the connectors, check the airflow"};
    }
    return {item, Verdict::kOk,
            fmt::format("{}: {} monitors inside the module's thresholds and the field's rules of thumb", name, monitors.size()), ""};
  } catch (const module::DecodeError& error) {
    return {item, Verdict::kWarn, std::string("the EEPROM does not decode: ") + error.what(), "reseat the module"};
  }
}

Finding pfc_finding(const lr::Result<dp::PfcStatus>& pfc, dp::KernelNetdev& netdev, const std::string& who) {
  const std::string item = "PFC " + who;
  if (!pfc) return {item, Verdict::kSkipped, to_string(pfc.error()), ""};
  std::vector<std::string> on, paused;
  for (unsigned p = 0; p < 8; ++p) {
    if ((pfc->enabled >> p & 1) == 0) continue;
    on.push_back(std::to_string(p));
    if (p < pfc->indications.size() && pfc->indications[p] > 0)
      paused.push_back(fmt::format("{}: {} received, {} sent", p, pfc->indications[p], p < pfc->requests.size() ? pfc->requests[p] : 0));
  }
  if (on.empty())
    return {item, Verdict::kWarn, fmt::format("PFC is off on every priority of {} (DCB): RoCE traffic is lossy", netdev.ifname()),
            "turn PFC on for the RoCE priority on the port and the switch (linerate port pfc set PORT 3, or mlnx_qos "
            "--pfc 0,0,0,1,0,0,0,0), and trust DSCP or PCP as the switch does"};
  return {item, Verdict::kOk,
          fmt::format("PFC on priorities {} of {} (DCB){}", fmt::join(on, ", "), netdev.ifname(),
                      paused.empty() ? "" : fmt::format("; PFC frames per priority: {}", fmt::join(paused, "; "))),
          ""};
}

// Which field the port classifies by: routed RoCE carries its priority in DSCP only.
Finding trust_finding(const lr::Result<dp::PfcStatus>& pfc, dp::KernelNetdev& netdev, const std::string& who) {
  const std::string item = "DSCP trust " + who;
  if (!pfc) return {item, Verdict::kSkipped, to_string(pfc.error()), ""};
  if (pfc->dscp_priority.empty())
    return {item, Verdict::kWarn,
            fmt::format("no DSCP entry in {}'s DCB APP table: the port trusts PCP, and untagged (routed) RoCE frames all "
                        "land on priority 0",
                        netdev.ifname()),
            fmt::format("mlnx_qos -i {} --trust dscp (as the switch classifies), unless every RoCE link is VLAN-tagged",
                        netdev.ifname())};
  std::map<uint8_t, std::vector<std::string>> by_priority;
  for (const auto& [dscp, prio] : pfc->dscp_priority) by_priority[prio].push_back(std::to_string(dscp));
  std::vector<std::string> parts;
  for (const auto& [prio, dscps] : by_priority)
    parts.push_back(dscps.size() > 4 ? fmt::format("priority {}: {} DSCP values", prio, dscps.size())
                                     : fmt::format("priority {}: DSCP {}", prio, fmt::join(dscps, ", ")));
  return {item, Verdict::kOk, fmt::format("trust dscp ({} entries in the DCB APP table): {}", pfc->dscp_priority.size(),
                                          fmt::join(parts, "; ")),
          ""};
}

}  // namespace

FecReading read_fec(dp::KernelNetdev& netdev) {
  FecReading out;
  const auto stats = netdev.fec_stats();
  if (!stats) return out;
  const std::map<std::string, uint64_t> c = optics::canonical_counters(*stats);
  if (const auto it = c.find("fec_corrected_blocks"); it != c.end()) out.corrected = it->second;
  if (const auto it = c.find("fec_uncorrectable_blocks"); it != c.end()) out.uncorrectable = it->second;
  return out;
}

Findings check_netdev_link(dp::KernelNetdev& netdev, const std::string& who, bool roce) {
  const auto link = netdev.link();
  if (!link) return {{"link " + who, Verdict::kSkipped, to_string(link.error()), ""}};
  Findings out{link_finding(*link, netdev.ifname(), who), fec_finding(netdev, *link, who), ddm_finding(netdev, who)};
  if (roce) {
    const auto pfc = netdev.pfc();
    out.push_back(pfc_finding(pfc, netdev, who));
    out.push_back(trust_finding(pfc, netdev, who));
  }
  return out;
}

Finding check_fec_growth(const std::string& who, const FecReading& before, const FecReading& after, double seconds) {
  const std::string item = "FEC corrections " + who;
  if (!before.corrected || !after.corrected)
    return {item, Verdict::kSkipped, "the netdev has no FEC statistics (ethtool -I --show-fec)", ""};
  const uint64_t corrected = *after.corrected >= *before.corrected ? *after.corrected - *before.corrected : 0;
  const uint64_t lost = before.uncorrectable && after.uncorrectable && *after.uncorrectable >= *before.uncorrectable
                            ? *after.uncorrectable - *before.uncorrectable
                            : 0;
  const double per_minute = seconds > 0 ? static_cast<double>(corrected) * 60.0 / seconds : 0;
  const std::string evidence = fmt::format("{} corrected, {} uncorrectable blocks in {:g} s ({:.0f} corrected a minute)",
                                           corrected, lost, seconds, per_minute);
  if (lost > 0)
    return {item, Verdict::kFail, evidence + ": frames were lost past what FEC corrects",
            "qualify the module and cable: linerate optics qualify"};
  if (per_minute > 1000)
    return {item, Verdict::kWarn, evidence + ": above 1,000 a minute, the link is degrading",
            "clean or replace the module / cable, then linerate optics qualify"};
  return {item, Verdict::kOk, evidence, ""};
}

}  // namespace lr::doctor
