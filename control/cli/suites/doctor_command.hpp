#pragma once
// `linerate doctor [--profile FILE] [PCI ...] [--json] [--prometheus FILE]`: the host
// checked for what keeps a port from line rate, each item OK / WARN / FAIL / SKIPPED with
// the evidence and the fix, as a table, JSON, or a node_exporter textfile.

#include <optional>
#include <string>
#include <vector>

namespace lr::doctor {

struct DoctorOptions {
  std::string profile_path;          ///< the lcores and ports to check against
  std::vector<std::string> pci;      ///< more ports, by PCI address
  std::string root = "/";            ///< where sysfs and procfs are (tests, containers)
  std::string prometheus_path;       ///< also write the verdicts for node_exporter's textfile collector
  std::optional<unsigned> gid_index;  ///< the RoCE GID index the RDMA application uses
  double fec_window_s = 5;           ///< how long FEC corrections are counted (0: not counted)
  bool pod = false;  ///< also the checks of an engine in a Kubernetes pod (also where $KUBERNETES_SERVICE_HOST is set)
  bool as_json = false;
};

/// Exit code: 0 nothing failed, 1 a check failed, 2 a bad profile or PCI address,
/// 4 the textfile not writable.
int run_doctor_command(const DoctorOptions& options);

}  // namespace lr::doctor
