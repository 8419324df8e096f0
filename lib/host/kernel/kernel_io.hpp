#pragma once
// The ways into a kernel netdev that port control uses: the SIOCETHTOOL ioctl, a netlink
// request (generic netlink for ethtool, rtnetlink for DCB) and the MTU ioctls. Behind an interface
// so that tests can answer as an mlx5 or ice netdev would (FEC, PFC, counter names)
// where this machine has only veth. Thread: mgmt.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace lr::dp {

struct NetlinkReply {
  int error = 0;                              ///< 0, or the kernel's negative errno
  std::string message;                        ///< the kernel's extended ack text, if any
  std::vector<std::vector<uint8_t>> messages; ///< reply messages (nlmsghdr included), without the ack
};

class KernelIo {
 public:
  virtual ~KernelIo() = default;
  /// SIOCETHTOOL on `ifname`; `command` points to an ethtool command struct (its first
  /// u32 is the ETHTOOL_* command). Returns 0 or a negative errno.
  virtual int ethtool(const std::string& ifname, void* command) = 0;
  /// Sends `request` (one nlmsghdr, NLM_F_ACK set) on a socket of `protocol` and collects
  /// the replies up to the ack. Never waits more than two seconds.
  virtual NetlinkReply netlink(int protocol, std::span<const uint8_t> request) = 0;
  /// SIOCGIFMTU / SIOCSIFMTU on `ifname`. Return 0 or a negative errno.
  virtual int get_mtu(const std::string& ifname, uint32_t& mtu) = 0;
  virtual int set_mtu(const std::string& ifname, uint32_t mtu) = 0;
  /// SIOCGIFFLAGS / SIOCSIFFLAGS (IFF_* bits). Return 0 or a negative errno.
  virtual int get_flags(const std::string& ifname, uint32_t& flags) = 0;
  virtual int set_flags(const std::string& ifname, uint32_t flags) = 0;
};

/// The real kernel of this process's network namespace.
std::unique_ptr<KernelIo> system_kernel_io();

}  // namespace lr::dp
