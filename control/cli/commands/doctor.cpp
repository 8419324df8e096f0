// `linerate doctor`: the host checked for what keeps a port from line rate.

#include <memory>

#include "control/cli/commands/commands.hpp"
#include "control/cli/suites/doctor_command.hpp"

namespace lr::ctl {

void add_doctor_command(CLI::App& app, Commands& commands) {
  auto* doctor = app.add_subcommand("doctor", "check the host for what keeps a port from line rate (NUMA, PCIe, "
                                               "hugepages, isolation, governor, ASPM, driver, IRQs, RoCE, kernel log)");
  auto options = std::make_shared<doctor::DoctorOptions>();
  doctor->add_option("pci", options->pci, "ports by PCI address (default: the profile's, else every NIC found)");
  doctor->add_option("--profile", options->profile_path, "the profile whose lcores and ports to check")
      ->check(CLI::ExistingFile);
  doctor->add_option("--prometheus", options->prometheus_path,
                     "also write the verdicts to this file for node_exporter's textfile collector");
  doctor->add_option("--gid-index", options->gid_index,
                     "the RoCE GID index the RDMA application uses (perftest -x, NCCL_IB_GID_INDEX): must be RoCE v2");
  doctor->add_option("--fec-window", options->fec_window_s,
                     "seconds to count FEC corrections on each port with a kernel netdev (default 5; 0: skip)")
      ->check(CLI::Range(0.0, 3600.0));
  doctor->add_flag("--pod", options->pod,
                   "also check what the kubelet gave this container (its own CPUs, on the NIC's NUMA node, hugepages "
                   "mounted): on by itself in a Kubernetes pod");
  doctor->add_option("--root", options->root, "where sysfs and procfs are mounted (a container's view of the host)")
      ->check(CLI::ExistingDirectory);
  commands.push_back(command_for(doctor, [options](const GlobalOptions& global) {
    options->as_json = global.as_json;
    return doctor::run_doctor_command(*options);
  }));
}

}  // namespace lr::ctl
