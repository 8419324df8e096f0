#include "control/suites/doctor/pcie_checks.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <regex>

namespace lr::doctor {

namespace {

constexpr size_t kCapabilitiesPointer = 0x34;
constexpr uint8_t kPcieCapability = 0x10;
constexpr size_t kDeviceControl = 8;  // from the PCIe capability

uint16_t le16(const std::vector<uint8_t>& b, size_t at) { return static_cast<uint16_t>(b[at] | b[at + 1] << 8); }

}  // namespace

std::optional<PcieDeviceControl> pcie_device_control(const std::vector<uint8_t>& config) {
  if (config.size() < 0x40 || (le16(config, 0x06) & 0x10) == 0) return std::nullopt;  // status: no capability list
  size_t at = config[kCapabilitiesPointer] & 0xfc;
  for (int hops = 0; at >= 0x40 && at + 1 < config.size() && hops < 48; ++hops) {
    if (config[at] == kPcieCapability) {
      if (at + kDeviceControl + 1 >= config.size()) return std::nullopt;
      const uint16_t control = le16(config, at + kDeviceControl);
      return PcieDeviceControl{128u << ((control >> 5) & 7), 128u << ((control >> 12) & 7)};
    }
    at = config[at + 1] & 0xfc;
  }
  return std::nullopt;
}

std::optional<std::string> kernel_bandwidth_line(const std::vector<std::string>& kmsg, const std::string& pci) {
  std::optional<std::string> last;
  for (const std::string& record : kmsg) {
    const auto text = kmsg_text(record);
    if (text && text->find(pci) != std::string::npos &&
        text->find("available PCIe bandwidth, limited by") != std::string::npos)
      last = text;
  }
  return last;
}

Finding check_path_bandwidth(const HostFs& fs, const PortToCheck& port, uint64_t need_bps) {
  const std::string item = "PCIe path " + port_label(port);
  const std::string function = link_function(fs, port.pci);
  const auto kmsg = fs.lines_now("/dev/kmsg");
  if (!kmsg) return {item, Verdict::kSkipped, "/dev/kmsg is not readable (not root, or a container without it)", ""};
  const auto line = kernel_bandwidth_line(*kmsg, function);
  if (!line)
    return {item, Verdict::kOk,
            fmt::format("the kernel printed no \"available PCIe bandwidth, limited by\" line for {} (it does when the "
                        "path to the root port gives less than the function can use)",
                        function),
            ""};
  // "63.008 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x8 link at 0000:3a:00.0 (capable of ...)"
  static const std::regex form(R"(([0-9.]+) Gb/s available PCIe bandwidth, limited by (.*?) link at ([0-9a-fA-F:.]+))");
  std::smatch m;
  Finding f{item, Verdict::kWarn, "the kernel says: " + *line, ""};
  if (!std::regex_search(*line, m, form)) return f;
  const double available_gbps = std::strtod(m[1].str().c_str(), nullptr);
  const std::string at = m[3].str();
  const double need_gbps = static_cast<double>(need_bps) / 1e9;
  if (need_bps != 0 && available_gbps < need_gbps) {
    f.verdict = Verdict::kFail;
    f.evidence += fmt::format(": {:g} Gbit/s for ports that need {:g}", available_gbps, need_gbps);
  }
  f.fix = at == function ? "the NIC's own link trained narrow or slow: reseat it in a slot as wide and fast as the NIC "
                           "(lspci -vv: LnkCap, LnkSta)"
                         : upstream_link_fix(at, m[2].str());
  return f;
}

std::string upstream_link_fix(const std::string& bridge, const std::string& link) {
  return fmt::format("the narrowest link is upstream of the NIC, at {} ({}): a riser, a PCIe switch or a slot wired "
                     "narrower than it looks; move the NIC to a slot on a full-width path (lspci -tv shows the path)",
                     bridge, link);
}

Finding check_read_request(const HostFs& fs, const PortToCheck& port, uint64_t need_bps) {
  const std::string item = "PCIe MaxReadReq " + port_label(port);
  const std::string function = link_function(fs, port.pci);
  const std::string path = "/sys/bus/pci/devices/" + function + "/config";
  const auto config = fs.bytes(path);
  if (!config) return {item, Verdict::kSkipped, fmt::format("{} cannot be read", path), ""};
  const auto control = pcie_device_control(*config);
  if (!control)
    return {item, Verdict::kSkipped,
            fmt::format("no PCIe capability in the {} bytes of {} (beyond 64 bytes needs root)", config->size(), path), ""};
  Finding f{item, Verdict::kOk,
            fmt::format("MaxPayload {} bytes, MaxReadReq {} bytes ({}: PCIe Device Control)", control->max_payload_bytes,
                        control->max_read_request_bytes, path),
            ""};
  const bool connectx = fs.link_name("/sys/bus/pci/devices/" + function + "/driver").value_or("") == "mlx5_core";
  if (connectx && need_bps >= 40'000'000'000 && control->max_read_request_bytes < 4096) {
    f.verdict = Verdict::kWarn;
    f.evidence += ": a ConnectX at 40G and above reads its descriptors and frames in requests of up to 4096 bytes";
    f.fix = fmt::format("setpci -s {} CAP_EXP+8.w=5000:7000 (MaxReadReq 4096; not kept across reboots)", function);
  }
  return f;
}

Finding check_irqbalance(const HostFs& fs) {
  const std::string item = "irqbalance";
  for (const std::string& entry : fs.list("/proc")) {
    if (entry.empty() || entry.find_first_not_of("0123456789") != std::string::npos) continue;
    if (fs.read("/proc/" + entry + "/comm").value_or("") == "irqbalance")
      return {item, Verdict::kWarn,
              fmt::format("irqbalance runs (pid {}): it moves the NICs' interrupts every few seconds, onto the worker "
                          "CPUs too",
                          entry),
              "systemctl stop irqbalance, or keep it off the workers: IRQBALANCE_BANNED_CPULIST=<workers> in "
              "/etc/default/irqbalance"};
  }
  return {item, Verdict::kOk, "irqbalance is not running (/proc/*/comm)", ""};
}

}  // namespace lr::doctor
