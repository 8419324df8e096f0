#pragma once
// Port control through a kernel netdev: ethtool ioctls (link settings, pause, FEC, -S
// counters, module EEPROM) and netlink (ethtool FEC statistics and module EEPROM pages
// over generic netlink, PFC over DCB rtnetlink). Serves the ports whose PMD lacks these
// (mlx5 has no FEC or PFC ops in DPDK 22.11; its counters with per-priority pause and
// FEC corrections are only in `ethtool -S`). Thread: mgmt.

#include <cstdint>
#include <string>
#include <vector>

#include "lib/common/result.hpp"
#include "lib/host/kernel/kernel_io.hpp"
#include "lib/host/port_settings.hpp"

namespace lr::dp {

class KernelNetdev {
 public:
  KernelNetdev(std::string ifname, KernelIo& io) : ifname_(std::move(ifname)), io_(&io) {}

  const std::string& ifname() const noexcept { return ifname_; }
  /// The kernel driver ("mlx5_core", "veth"), "" when the netdev does not say.
  std::string driver();

  // Each get / set below fails with kNotSupported when the netdev's driver lacks the
  // operation (the message names the operation, the netdev and its driver), kNoDevice
  // when the netdev is gone, kInvalid when the driver refuses the value.
  Result<LinkStatus> link();
  Result<void> set_link(const LinkRequest& request);
  Result<FecStatus> fec();
  Result<void> set_fec(uint32_t modes);
  Result<PauseStatus> pause();
  Result<void> set_pause(const PauseStatus& pause);
  Result<uint32_t> mtu();
  Result<void> set_mtu(uint32_t mtu);
  /// The interface's administrative state (IFF_UP): link up / down for a PMD without it.
  Result<bool> admin_up();
  Result<void> set_admin_up(bool up);
  Result<bool> promiscuous();
  Result<void> set_promiscuous(bool on);
  Result<PfcStatus> pfc();
  Result<void> set_pfc(uint8_t enabled);
  /// `ethtool -S`: the driver's counters by its own names.
  Result<std::vector<NamedCounter>> ethtool_stats();
  /// FEC statistics (corrected / uncorrectable blocks, corrected bits; totals and per lane).
  Result<std::vector<NamedCounter>> fec_stats();
  /// The module EEPROM in the layout the decoders take: page reads over netlink (CMIS
  /// banked pages too), else the ethtool ioctl's flat image.
  Result<std::vector<uint8_t>> module_eeprom();

 private:
  Error failure(const char* what, int rc, const std::string& kernel_message = "");
  int ethtool(void* command) { return io_->ethtool(ifname_, command); }
  Result<std::vector<std::string>> strings(uint32_t string_set);
  Result<bool> flag(uint32_t bit);  ///< an IFF_* bit of the interface
  Result<void> set_flag(uint32_t bit, bool on, const char* what);
  Result<uint16_t> ethtool_family();
  Result<std::vector<uint8_t>> eeprom_page(uint8_t i2c_address, uint8_t page, uint8_t bank, uint32_t offset);

  std::string ifname_;
  KernelIo* io_;
  std::string driver_;
  uint16_t family_ = 0;
};

}  // namespace lr::dp
