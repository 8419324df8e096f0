#pragma once
// Which way a port's MAC Control frames (PFC, PAUSE) leave: through the PMD, or through
// the port's kernel netdev where the PMD is known to drop them. Pure: decided from the
// profile's choice, the driver's name and the netdev's, so every case is unit-tested.

#include <string>
#include <string_view>

#include "lib/profile/profile.hpp"

namespace lr::plan {

struct MacControlPath {
  bool through_netdev = false;  ///< AF_PACKET on `netdev`, else the PMD
  std::string netdev;
  std::string refusal;          ///< "": the port can send them; else why not, and what would

  /// For the plan and the reports: "PMD", "kernel netdev eth2 (AF_PACKET)" or "none: ...".
  std::string describe() const;
};

/// `driver` the PMD's name ("net_i40e"), `netdev` the port's kernel netdev ("" if none).
MacControlPath mac_control_path(api::MacControlTx wanted, std::string_view driver, const std::string& netdev);

}  // namespace lr::plan
