#pragma once
// A kernel netdev answered in memory, the way an mlx5 netdev answers ethtool ioctls and
// netlink (link modes, FEC and its statistics, pause, DCB PFC, `ethtool -S` names, module
// EEPROM pages): what the kernel backend is tested against where this machine has only
// veth. Each capability can be switched off or told to ignore sets.

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "lib/host/kernel/kernel_io.hpp"

namespace lr::test {

class FakeKernelIo final : public dp::KernelIo {
 public:
  FakeKernelIo();

  int ethtool(const std::string& ifname, void* command) override;
  dp::NetlinkReply netlink(int protocol, std::span<const uint8_t> request) override;
  int get_mtu(const std::string& name, uint32_t& value) override;
  int set_mtu(const std::string& name, uint32_t value) override;
  int get_flags(const std::string& name, uint32_t& value) override;
  int set_flags(const std::string& name, uint32_t value) override;

  // The netdev's state, as a test sets and reads it.
  std::string ifname = "eth9";
  std::string driver = "mlx5_core";
  bool carrier = true;
  bool autoneg = true;
  uint32_t speed_mbps = 50000;
  std::vector<uint32_t> supported_bits;   ///< ETHTOOL_LINK_MODE_*_BIT
  std::vector<uint32_t> advertised_bits;
  std::vector<uint32_t> partner_bits;     ///< the link partner's advertisement
  uint32_t fec_configured = 0;            ///< ETHTOOL_FEC_* bits
  uint32_t fec_active = 0;
  bool pause_supported = true;
  bool pause_rx = false, pause_tx = false;
  bool dcb_supported = true;
  uint8_t pfc_enabled = 0;
  uint32_t mtu = 1500;
  uint32_t flags = 0x1043;  ///< IFF_UP | IFF_BROADCAST | IFF_RUNNING | IFF_MULTICAST
  bool mtu_supported = true;
  std::array<uint64_t, 8> pfc_requests{}, pfc_indications{};
  std::vector<std::pair<uint8_t, uint8_t>> dscp_apps;  ///< DCB APP table: DSCP -> priority ("trust dscp")
  std::vector<std::pair<std::string, uint64_t>> stats;
  std::array<uint64_t, 5> fec_corrected{}, fec_uncorrectable{}, fec_corrected_bits{};  ///< total, lanes 0-3
  std::map<std::tuple<uint8_t, uint8_t, uint32_t>, std::vector<uint8_t>> eeprom_pages;  ///< (i2c, page, offset)
  bool ignore_sets = false;  ///< accept every set and change nothing (a driver that lies)
  int sets = 0;              ///< set calls accepted

 private:
  std::vector<std::string> link_mode_names_;
};

}  // namespace lr::test
