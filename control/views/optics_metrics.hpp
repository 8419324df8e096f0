#pragma once
// The optics watch's page for Prometheus: per module and lane its monitors with the
// module's own thresholds and flags (lr_module_*), per port FEC codewords, rates and a
// pre-FEC BER estimate (lr_fec_*), the link with its flaps (lr_link_*). A port whose read
// did not arrive this interval has lr_optics_port_up 0 and nothing else; what a driver
// lacks is absent, never zero, and listed in lr_optics_unsupported. The metrics are listed
// in docs/guide/optics-watch.md; docker/prometheus/optics-alerts.yml alerts on them.

#include <string>
#include <vector>

#include "control/suites/optics/port_watch.hpp"

namespace lr::ctl {

std::string optics_metrics_text(const std::vector<optics::PortStatus>& ports);

/// The unit a monitor's metric is exported in, and its value there: temperature in C,
/// voltage in V, bias in A (from mA), power in dBm (from mW). Empty name: not exported.
struct ExportedMonitor {
  std::string metric;  ///< "lr_module_rx_power_dbm"
  double value = 0;
};
ExportedMonitor exported_monitor(const std::string& quantity, double value);

}  // namespace lr::ctl
