#include "control/cli/suites/doctor_command.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>
#include <thread>

#include "control/cli/profile_file.hpp"
#include "control/suites/doctor/host_checks.hpp"
#include "control/suites/doctor/link_checks.hpp"
#include "control/suites/doctor/netdev_checks.hpp"
#include "control/views/prometheus_family.hpp"
#include "lib/host/cpu_list.hpp"
#include "lib/views/report_file.hpp"

namespace lr::doctor {

using host::worker_cpus;

using nlohmann::json;

namespace {

// "3b:00.0" or "0000:3b:00.0" (devargs after a comma ignored) -> "0000:3b:00.0"; "" if not PCI.
std::string pci_address(const std::string& device) {
  static const std::regex full("^[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]$");
  static const std::regex short_form("^[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]$");
  std::string address = device.substr(0, device.find(','));
  if (std::regex_match(address, full)) return address;
  if (std::regex_match(address, short_form)) return "0000:" + address;
  return "";
}

std::string textfile(const Findings& findings) {
  std::string out =
      "# HELP linerate_doctor_check One per doctor check: 1 for its verdict (OK, WARN, FAIL, SKIPPED).\n"
      "# TYPE linerate_doctor_check gauge\n";
  size_t failed = 0;
  for (const Finding& f : findings) {
    out += fmt::format("linerate_doctor_check{{item=\"{}\",verdict=\"{}\"}} 1\n", ctl::prometheus_label_value(f.item),
                       verdict_name(f.verdict));
    failed += f.verdict == Verdict::kFail;
  }
  out += "# HELP linerate_doctor_failed Doctor checks that failed.\n# TYPE linerate_doctor_failed gauge\n";
  return out + fmt::format("linerate_doctor_failed {}\n", failed);
}

// Through each port's kernel netdev (ethtool): link, FEC, DDM, then the FEC counters again
// after the window, for every port at once.
Findings link_findings(const HostFs& fs, const DoctorInput& input, const DoctorOptions& options) {
  if (options.root != "/")
    return {{"link, FEC and module DDM", Verdict::kSkipped,
             "read through the kernel's ethtool interface, which --root cannot relocate", ""}};
  const std::unique_ptr<dp::KernelIo> io = dp::system_kernel_io();
  struct Port {
    std::string who;
    std::unique_ptr<dp::KernelNetdev> netdev;
    FecReading before;
  };
  std::vector<Port> ports;
  Findings out;
  for (const PortToCheck& p : input.ports) {
    if (p.pci.empty()) continue;
    const std::string who = port_label(p);
    const auto netdev = pci_netdev(fs, p.pci);
    if (!netdev) {
      out.push_back({"link " + who, Verdict::kSkipped,
                     "no kernel netdev (vfio-pci): `linerate port link` and `linerate module show` read it through DPDK", ""});
      continue;
    }
    ports.push_back({who, std::make_unique<dp::KernelNetdev>(*netdev, *io), {}});
    const bool roce = pci_rdma_device(fs, p.pci).has_value();
    for (Finding& f : check_netdev_link(*ports.back().netdev, who, roce)) out.push_back(std::move(f));
    ports.back().before = read_fec(*ports.back().netdev);
  }
  if (ports.empty() || options.fec_window_s <= 0) return out;
  std::fprintf(stderr, "linerate: counting FEC corrections for %g s (--fec-window)\n", options.fec_window_s);
  std::this_thread::sleep_for(std::chrono::duration<double>(options.fec_window_s));
  for (Port& p : ports) out.push_back(check_fec_growth(p.who, p.before, read_fec(*p.netdev), options.fec_window_s));
  return out;
}

}  // namespace

int run_doctor_command(const DoctorOptions& options) {
  DoctorInput input;
  input.gid_index = options.gid_index;
  if (!options.profile_path.empty()) {
    const auto profile = ctl::read_profile(options.profile_path);
    if (!profile) return 2;
    input.lcores = profile->eal.lcores;
    input.worker_cpus = worker_cpus(profile->eal.lcores);
    input.hugepages_wanted = profile->eal.huge_pages != profile::HugePages::kOff;
    for (const api::PortSpec& p : profile->ports)
      input.ports.push_back({p.name, pci_address(p.device), p.device, p.speed_bps});
  }
  for (const std::string& arg : options.pci) {
    const std::string address = pci_address(arg);
    if (address.empty()) {
      std::fprintf(stderr, "linerate: '%s' is not a PCI address (write it as 0000:3b:00.0 or 3b:00.0)\n", arg.c_str());
      return 2;
    }
    input.ports.push_back({address, address, address, 0});
  }
  input.pod = options.pod || std::getenv("KUBERNETES_SERVICE_HOST") != nullptr;  // the kubelet sets it in every pod
  const HostFs fs(options.root);
  Findings findings = run_doctor(fs, input);
  for (Finding& f : link_findings(fs, input, options)) findings.push_back(std::move(f));

  size_t failed = 0, warned = 0;
  for (const Finding& f : findings) {
    failed += f.verdict == Verdict::kFail;
    warned += f.verdict == Verdict::kWarn;
  }
  if (!options.prometheus_path.empty())
    if (const std::string problem = views::write_report_file(options.prometheus_path, textfile(findings));
        !problem.empty()) {
      std::fprintf(stderr, "linerate: cannot write '%s': %s\n", options.prometheus_path.c_str(), problem.c_str());
      return 4;
    }
  if (options.as_json) {
    json out = json::array();
    for (const Finding& f : findings)
      out.push_back({{"item", f.item}, {"verdict", verdict_name(f.verdict)}, {"evidence", f.evidence}, {"fix", f.fix}});
    std::printf("%s\n", json{{"findings", out}, {"failed", failed}, {"warned", warned}}.dump(2).c_str());
  } else {
    for (const Finding& f : findings) {
      std::printf("%-8s %s\n         %s\n", verdict_name(f.verdict), f.item.c_str(), f.evidence.c_str());
      if (!f.fix.empty()) std::printf("         fix: %s\n", f.fix.c_str());
    }
    std::printf("\n%zu checks: %zu failed, %zu warned\n", findings.size(), failed, warned);
  }
  return failed > 0 ? 1 : 0;
}

}  // namespace lr::doctor
