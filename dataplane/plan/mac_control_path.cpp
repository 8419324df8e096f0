#include "dataplane/plan/mac_control_path.hpp"

#include <fmt/format.h>

namespace lr::plan {

namespace {

// i40e installs a TX filter for EtherType 0x8808 that no DPDK application can lift: the
// frames would be counted sent and never leave.
bool pmd_drops_mac_control(std::string_view driver) { return driver == "net_i40e"; }

}  // namespace

std::string MacControlPath::describe() const {
  if (!refusal.empty()) return "none: " + refusal;
  return through_netdev ? fmt::format("kernel netdev {} (AF_PACKET)", netdev) : std::string("PMD");
}

MacControlPath mac_control_path(api::MacControlTx wanted, std::string_view driver, const std::string& netdev) {
  MacControlPath path;
  const bool drops = pmd_drops_mac_control(driver);
  const auto use_netdev = [&] {
    path.through_netdev = true;
    path.netdev = netdev;
  };
  switch (wanted) {
    case api::MacControlTx::kPmd:
      if (drops)
        path.refusal = fmt::format("the {} driver drops EtherType 0x8808 on transmit{}", driver,
                                   netdev.empty() ? "; send them from a port whose driver passes them (e.g. mlx5)"
                                                  : fmt::format("; mac_control_tx = \"netdev\" sends them through {}",
                                                                netdev));
      break;
    case api::MacControlTx::kNetdev:
      if (netdev.empty())
        path.refusal = "mac_control_tx = \"netdev\", but the port has no kernel netdev beside its PMD (a bifurcated "
                       "mlx5 port or an af_packet port has one)";
      else use_netdev();
      break;
    case api::MacControlTx::kAuto:
      if (!drops) break;
      if (netdev.empty())
        path.refusal = fmt::format("the {} driver drops EtherType 0x8808 on transmit and the port has no kernel "
                                   "netdev to send them through; send them from a port whose driver passes them "
                                   "(e.g. mlx5)", driver);
      else use_netdev();
      break;
  }
  return path;
}

}  // namespace lr::plan
