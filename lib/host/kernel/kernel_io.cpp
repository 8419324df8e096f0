#include "lib/host/kernel/kernel_io.hpp"

#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace lr::dp {

namespace {

// One interface ioctl on a throw-away socket: `fill` sets the request's payload, `take`
// reads the answer's once the call succeeded.
template <class Fill, class Take>
int interface_ioctl(const std::string& ifname, unsigned long request, Fill&& fill, Take&& take) {
  if (ifname.size() >= IFNAMSIZ) return -ENODEV;
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -errno;
  ifreq ifr{};
  std::memcpy(ifr.ifr_name, ifname.c_str(), ifname.size());
  fill(ifr);
  const int rc = ::ioctl(fd, request, &ifr) < 0 ? -errno : 0;
  ::close(fd);
  if (rc == 0) take(std::as_const(ifr));
  return rc;
}

constexpr auto kNoPayload = [](const auto&) {};

class SystemKernelIo final : public KernelIo {
 public:
  int ethtool(const std::string& ifname, void* command) override {
    const auto fill = [&](ifreq& r) { r.ifr_data = static_cast<char*>(command); };
    return interface_ioctl(ifname, SIOCETHTOOL, fill, kNoPayload);
  }

  int get_mtu(const std::string& ifname, uint32_t& mtu) override {
    return interface_ioctl(ifname, SIOCGIFMTU, kNoPayload, [&](const ifreq& r) { mtu = static_cast<uint32_t>(r.ifr_mtu); });
  }

  int set_mtu(const std::string& ifname, uint32_t mtu) override {
    return interface_ioctl(ifname, SIOCSIFMTU, [&](ifreq& r) { r.ifr_mtu = static_cast<int>(mtu); }, kNoPayload);
  }

  int get_flags(const std::string& ifname, uint32_t& flags) override {
    const auto take = [&](const ifreq& r) { flags = static_cast<uint16_t>(r.ifr_flags); };
    return interface_ioctl(ifname, SIOCGIFFLAGS, kNoPayload, take);
  }

  int set_flags(const std::string& ifname, uint32_t flags) override {
    return interface_ioctl(ifname, SIOCSIFFLAGS, [&](ifreq& r) { r.ifr_flags = static_cast<short>(flags); }, kNoPayload);
  }

  NetlinkReply netlink(int protocol, std::span<const uint8_t> request) override {
    NetlinkReply reply;
    mnl_socket* nl = mnl_socket_open2(protocol, SOCK_CLOEXEC);
    if (nl == nullptr) return NetlinkReply{-errno, "netlink socket", {}};
    int on = 1;
    mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &on, sizeof on);
    mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &on, sizeof on);
    const timeval timeout{2, 0};  // a netlink answer never takes this long; never hang the mgmt loop
    setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
        mnl_socket_sendto(nl, request.data(), request.size()) < 0) {
      reply.error = -errno;
      mnl_socket_close(nl);
      return reply;
    }
    std::vector<uint8_t> buffer(MNL_SOCKET_BUFFER_SIZE * 4);
    for (bool done = false; !done;) {
      const ssize_t n = mnl_socket_recvfrom(nl, buffer.data(), buffer.size());
      if (n < 0) {
        reply.error = errno == EAGAIN ? -ETIMEDOUT : -errno;
        break;
      }
      int len = static_cast<int>(n);
      for (auto* h = reinterpret_cast<nlmsghdr*>(buffer.data()); mnl_nlmsg_ok(h, len); h = mnl_nlmsg_next(h, &len)) {
        if (h->nlmsg_type == NLMSG_DONE) {
          done = true;
        } else if (h->nlmsg_type == NLMSG_ERROR) {
          const auto* err = static_cast<const nlmsgerr*>(mnl_nlmsg_get_payload(h));
          reply.error = err->error;
          if (h->nlmsg_flags & NLM_F_ACK_TLVS) {
            // With NETLINK_CAP_ACK the request is not echoed: the TLVs follow the nlmsgerr.
            const size_t offset = sizeof(nlmsgerr);
            mnl_attr_parse(h, offset, [](const nlattr* attr, void* data) {
              if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG)
                *static_cast<std::string*>(data) = mnl_attr_get_str(attr);
              return MNL_CB_OK;
            }, &reply.message);
          }
          done = true;
        } else {
          const auto* bytes = reinterpret_cast<const uint8_t*>(h);
          reply.messages.emplace_back(bytes, bytes + h->nlmsg_len);
        }
      }
    }
    mnl_socket_close(nl);
    return reply;
  }
};

}  // namespace

std::unique_ptr<KernelIo> system_kernel_io() { return std::make_unique<SystemKernelIo>(); }

}  // namespace lr::dp
