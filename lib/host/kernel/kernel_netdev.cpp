#include "lib/host/kernel/kernel_netdev.hpp"

#include <fmt/format.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <memory>

namespace lr::dp {

namespace {

// An ethtool command with a variable tail, 8-byte aligned (the tails hold u64 counters).
class EthtoolBuffer {
 public:
  explicit EthtoolBuffer(size_t bytes) : words_((bytes + 7) / 8 + 1, 0) {}
  template <class T>
  T* as() { return reinterpret_cast<T*>(words_.data()); }

 private:
  std::vector<uint64_t> words_;
};

// A netlink request under construction (libmnl).
class NetlinkRequest {
 public:
  NetlinkRequest(uint16_t type, uint16_t flags) : buffer_(MNL_SOCKET_BUFFER_SIZE) {
    header_ = mnl_nlmsg_put_header(buffer_.data());
    header_->nlmsg_type = type;
    header_->nlmsg_flags = static_cast<uint16_t>(NLM_F_REQUEST | NLM_F_ACK | flags);
    header_->nlmsg_seq = 1;
  }
  nlmsghdr* header() { return header_; }
  template <class T>
  T* extra() { return static_cast<T*>(mnl_nlmsg_put_extra_header(header_, sizeof(T))); }
  std::span<const uint8_t> bytes() const { return {buffer_.data(), header_->nlmsg_len}; }

 private:
  std::vector<uint8_t> buffer_;
  nlmsghdr* header_;
};

// An ethtool genetlink request `cmd` about `ifname`: its header nest (`header_attr`) names
// the device, with `header_flags` (ETHTOOL_FLAG_STATS: and its statistics).
NetlinkRequest ethtool_request(uint16_t family, uint8_t cmd, uint16_t header_attr, const std::string& ifname,
                               uint32_t header_flags) {
  NetlinkRequest req(family, 0);
  auto* genl = req.extra<genlmsghdr>();
  genl->cmd = cmd;
  genl->version = ETHTOOL_GENL_VERSION;
  nlattr* nest = mnl_attr_nest_start(req.header(), header_attr);
  mnl_attr_put_strz(req.header(), ETHTOOL_A_HEADER_DEV_NAME, ifname.c_str());
  if (header_flags != 0) mnl_attr_put_u32(req.header(), ETHTOOL_A_HEADER_FLAGS, header_flags);
  mnl_attr_nest_end(req.header(), nest);
  return req;
}

const nlmsghdr* as_header(const std::vector<uint8_t>& message) {
  return reinterpret_cast<const nlmsghdr*>(message.data());
}

// Calls `fn(attr)` for each attribute after `offset` bytes of payload.
template <class Fn>
void for_each_attr(const nlmsghdr* h, size_t offset, Fn fn) {
  mnl_attr_parse(h, static_cast<unsigned>(offset), [](const nlattr* attr, void* data) {
    (*static_cast<Fn*>(data))(attr);
    return MNL_CB_OK;
  }, &fn);
}

// Calls `fn(attr)` for each top-level attribute of `type` in every message of `reply`, whose
// payload starts with a `FamilyHeader` (genlmsghdr, dcbmsg).
template <class FamilyHeader, class Fn>
void for_each_reply_attr(const NetlinkReply& reply, uint16_t type, Fn fn) {
  for (const auto& message : reply.messages)
    for_each_attr(as_header(message), sizeof(FamilyHeader), [&](const nlattr* attr) {
      if (mnl_attr_get_type(attr) == type) fn(attr);
    });
}

template <class Fn>
void for_each_nested(const nlattr* nest, Fn fn) {
  mnl_attr_parse_nested(nest, [](const nlattr* attr, void* data) {
    (*static_cast<Fn*>(data))(attr);
    return MNL_CB_OK;
  }, &fn);
}

// The kernel's ETHTOOL_FEC_* bits.
constexpr std::pair<uint32_t, uint32_t> kKernelFec[] = {{ETHTOOL_FEC_OFF, kFecOff},
                                                         {ETHTOOL_FEC_BASER, kFecBaseR},
                                                         {ETHTOOL_FEC_RS, kFecRs},
                                                         {ETHTOOL_FEC_LLRS, kFecLlrs},
                                                         {ETHTOOL_FEC_AUTO, kFecAuto}};

// ETHTOOL_GLINKSETTINGS with its three link-mode bitmaps (supported, advertising, peer)
// in one buffer, as the ioctl takes it.
class LinkSettings {
 public:
  explicit LinkSettings(int nwords)
      : nwords_(nwords), buffer_(sizeof(ethtool_link_settings) + 3 * sizeof(uint32_t) * static_cast<size_t>(nwords)) {
    base()->link_mode_masks_nwords = static_cast<int8_t>(nwords);
  }
  ethtool_link_settings* base() { return buffer_.as<ethtool_link_settings>(); }
  bool bit(int map, size_t index) {
    const size_t word = index / 32;
    return word < static_cast<size_t>(nwords_) && (mask(map, word) >> (index % 32) & 1) != 0;
  }
  void set_bit(int map, size_t index, bool on) {
    const size_t word = index / 32;
    if (word >= static_cast<size_t>(nwords_)) return;
    if (on) mask(map, word) |= 1u << (index % 32);
    else mask(map, word) &= ~(1u << (index % 32));
  }

 private:
  uint32_t& mask(int map, size_t word) { return base()->link_mode_masks[static_cast<size_t>(map * nwords_) + word]; }
  int nwords_;
  EthtoolBuffer buffer_;
};

}  // namespace

Error KernelNetdev::failure(const char* what, int rc, const std::string& kernel_message) {
  const int err = rc < 0 ? -rc : rc;
  const std::string who = driver().empty() ? ifname_ : fmt::format("{} ({})", ifname_, driver_);
  const std::string detail = kernel_message.empty() ? "" : ": " + kernel_message;
  if (err == EOPNOTSUPP || err == ENOTSUP)
    return Error{Errc::kNotSupported, err, fmt::format("{} is not supported by the kernel netdev {}{}", what, who, detail)};
  if (err == ENODEV) return Error{Errc::kNoDevice, err, fmt::format("{}: kernel netdev {} is gone", what, who)};
  return Error{Errc::kInvalid, err, fmt::format("{} on kernel netdev {}{}", what, who, detail)};
}

std::string KernelNetdev::driver() {
  if (!driver_.empty()) return driver_;
  ethtool_drvinfo info{};
  info.cmd = ETHTOOL_GDRVINFO;
  if (ethtool(&info) == 0) driver_ = std::string(info.driver, strnlen(info.driver, sizeof info.driver));
  return driver_;
}

Result<std::vector<std::string>> KernelNetdev::strings(uint32_t string_set) {
  EthtoolBuffer info(sizeof(ethtool_sset_info) + sizeof(uint32_t));
  info.as<ethtool_sset_info>()->cmd = ETHTOOL_GSSET_INFO;
  info.as<ethtool_sset_info>()->sset_mask = uint64_t{1} << string_set;
  if (int rc = ethtool(info.as<ethtool_sset_info>()); rc != 0) return std::unexpected(failure("string set", rc));
  const uint32_t count = info.as<ethtool_sset_info>()->sset_mask != 0 ? info.as<ethtool_sset_info>()->data[0] : 0;
  EthtoolBuffer names(sizeof(ethtool_gstrings) + size_t{count} * ETH_GSTRING_LEN);
  auto* gs = names.as<ethtool_gstrings>();
  gs->cmd = ETHTOOL_GSTRINGS;
  gs->string_set = string_set;
  gs->len = count;
  if (count != 0)
    if (int rc = ethtool(gs); rc != 0) return std::unexpected(failure("strings", rc));
  std::vector<std::string> out;
  for (uint32_t i = 0; i < std::min(count, gs->len); ++i) {
    const auto* s = reinterpret_cast<const char*>(gs->data) + size_t{i} * ETH_GSTRING_LEN;
    out.emplace_back(s, strnlen(s, ETH_GSTRING_LEN));
  }
  return out;
}

namespace {

// Errors: the ioctl's negative errno in `rc`.
std::unique_ptr<LinkSettings> read_link_settings(KernelIo& io, const std::string& ifname, int& rc) {
  // Handshake: nwords 0 makes the kernel answer with -nwords.
  LinkSettings probe(0);
  probe.base()->cmd = ETHTOOL_GLINKSETTINGS;
  rc = io.ethtool(ifname, probe.base());
  if (rc != 0) return nullptr;
  const int nwords = -probe.base()->link_mode_masks_nwords;
  if (nwords <= 0 || nwords > 127) {
    rc = -EPROTO;
    return nullptr;
  }
  auto ls = std::make_unique<LinkSettings>(nwords);
  ls->base()->cmd = ETHTOOL_GLINKSETTINGS;
  rc = io.ethtool(ifname, ls->base());
  return rc == 0 ? std::move(ls) : nullptr;
}

bool is_speed_mode(const std::string& name) { return name.find("base") != std::string::npos; }

// "25000baseCR/Full, 50000baseCR2/Full", or what to say when the driver reports none.
std::string supported_modes(const std::vector<std::string>& names, LinkSettings& ls) {
  std::string out;
  for (size_t bit = 0; bit < names.size(); ++bit)
    if (is_speed_mode(names[bit]) && ls.bit(0, bit)) out += (out.empty() ? "" : ", ") + names[bit];
  return out.empty() ? "no link modes at all (its driver reports none)" : out;
}

}  // namespace

Result<LinkStatus> KernelNetdev::link() {
  int rc = 0;
  auto ls = read_link_settings(*io_, ifname_, rc);
  if (!ls) return std::unexpected(failure("link get", rc));
  LinkStatus status;
  ethtool_value carrier{};
  carrier.cmd = ETHTOOL_GLINK;
  status.up = ethtool(&carrier) == 0 && carrier.data != 0;
  status.speed_mbps = ls->base()->speed == static_cast<uint32_t>(SPEED_UNKNOWN) ? 0 : ls->base()->speed;
  status.full_duplex = ls->base()->duplex == DUPLEX_FULL;
  status.autoneg = ls->base()->autoneg == AUTONEG_ENABLE;
  if (auto names = strings(ETH_SS_LINK_MODES)) {
    for (size_t bit = 0; bit < names->size(); ++bit) {
      if (!is_speed_mode((*names)[bit])) continue;
      if (ls->bit(0, bit)) status.supported.push_back((*names)[bit]);
      if (ls->bit(1, bit)) status.advertised.push_back((*names)[bit]);
      if (ls->bit(2, bit)) status.partner.push_back((*names)[bit]);
    }
  }
  return status;
}

Result<void> KernelNetdev::set_link(const LinkRequest& request) {
  if (request.up) return std::unexpected(failure("link up / down", -EOPNOTSUPP, "the ethdev sets the link state"));
  if (!request.autoneg && !request.speed_mbps && !request.advertise) return {};
  int rc = 0;
  auto ls = read_link_settings(*io_, ifname_, rc);
  if (!ls) return std::unexpected(failure("link get", rc));
  const bool autoneg = request.autoneg.value_or(request.advertise ? true : ls->base()->autoneg == AUTONEG_ENABLE);
  ls->base()->autoneg = autoneg ? AUTONEG_ENABLE : AUTONEG_DISABLE;
  if (!autoneg && request.speed_mbps) {
    ls->base()->speed = *request.speed_mbps;
    ls->base()->duplex = DUPLEX_FULL;
  }
  if (autoneg && (request.advertise || request.speed_mbps)) {
    auto names = strings(ETH_SS_LINK_MODES);
    if (!names) return std::unexpected(names.error());
    const std::string prefix = request.speed_mbps ? fmt::format("{}base", *request.speed_mbps) : "";
    size_t chosen = 0;
    for (size_t bit = 0; bit < names->size(); ++bit) {
      const std::string& name = (*names)[bit];
      if (!is_speed_mode(name)) continue;
      const bool want = request.advertise
                            ? std::find(request.advertise->begin(), request.advertise->end(), name) != request.advertise->end()
                            : name.starts_with(prefix);
      const bool on = want && ls->bit(0, bit);
      ls->set_bit(1, bit, on);
      chosen += on;
    }
    if (chosen == 0)
      return make_error(Errc::kInvalid, fmt::format("link set on {}: none of the requested link modes is supported; it "
                                                    "supports {}", ifname_, supported_modes(*names, *ls)));
  }
  ls->base()->cmd = ETHTOOL_SLINKSETTINGS;
  if (int wrc = ethtool(ls->base()); wrc != 0) return std::unexpected(failure("link set", wrc));
  return {};
}

Result<FecStatus> KernelNetdev::fec() {
  ethtool_fecparam param{};
  param.cmd = ETHTOOL_GFECPARAM;
  if (int rc = ethtool(&param); rc != 0) return std::unexpected(failure("FEC get", rc));
  FecStatus status;
  status.configured = fec_from_backend(param.fec, kKernelFec);
  status.active = fec_from_backend(param.active_fec, kKernelFec);
  // What the port can do: the FEC bits of its supported link modes (one set per port).
  int rc = 0;
  if (auto ls = read_link_settings(*io_, ifname_, rc); ls) {
    uint32_t modes = 0;
    if (ls->bit(0, ETHTOOL_LINK_MODE_FEC_NONE_BIT)) modes |= kFecOff;
    if (ls->bit(0, ETHTOOL_LINK_MODE_FEC_BASER_BIT)) modes |= kFecBaseR;
    if (ls->bit(0, ETHTOOL_LINK_MODE_FEC_RS_BIT)) modes |= kFecRs;
    if (ls->bit(0, ETHTOOL_LINK_MODE_FEC_LLRS_BIT)) modes |= kFecLlrs;
    if (modes != 0) status.capability.push_back(FecCapability{0, modes | kFecAuto});
  }
  return status;
}

Result<void> KernelNetdev::set_fec(uint32_t modes) {
  ethtool_fecparam param{};
  param.cmd = ETHTOOL_SFECPARAM;
  param.fec = fec_to_backend(modes, kKernelFec);
  if (int rc = ethtool(&param); rc != 0) return std::unexpected(failure("FEC set", rc));
  return {};
}

Result<uint32_t> KernelNetdev::mtu() {
  uint32_t mtu = 0;
  if (int rc = io_->get_mtu(ifname_, mtu); rc != 0) return std::unexpected(failure("MTU get", rc));
  return mtu;
}

Result<void> KernelNetdev::set_mtu(uint32_t mtu) {
  if (int rc = io_->set_mtu(ifname_, mtu); rc != 0) return std::unexpected(failure(fmt::format("MTU set {}", mtu).c_str(), rc));
  return {};
}

// IFF_* bits (<net/if.h> clashes with <linux/if.h>).
constexpr uint32_t kIffUp = 0x1;
constexpr uint32_t kIffPromisc = 0x100;

Result<bool> KernelNetdev::flag(uint32_t bit) {
  uint32_t flags = 0;
  if (int rc = io_->get_flags(ifname_, flags); rc != 0) return std::unexpected(failure("interface flags get", rc));
  return (flags & bit) != 0;
}

Result<void> KernelNetdev::set_flag(uint32_t bit, bool on, const char* what) {
  uint32_t flags = 0;
  if (int rc = io_->get_flags(ifname_, flags); rc != 0) return std::unexpected(failure("interface flags get", rc));
  flags = on ? flags | bit : flags & ~bit;
  if (int rc = io_->set_flags(ifname_, flags); rc != 0) return std::unexpected(failure(what, rc));
  return {};
}

Result<bool> KernelNetdev::admin_up() { return flag(kIffUp); }
Result<void> KernelNetdev::set_admin_up(bool up) { return set_flag(kIffUp, up, up ? "link up" : "link down"); }
Result<bool> KernelNetdev::promiscuous() { return flag(kIffPromisc); }
Result<void> KernelNetdev::set_promiscuous(bool on) { return set_flag(kIffPromisc, on, "promiscuous mode set"); }

Result<PauseStatus> KernelNetdev::pause() {
  ethtool_pauseparam param{};
  param.cmd = ETHTOOL_GPAUSEPARAM;
  if (int rc = ethtool(&param); rc != 0) return std::unexpected(failure("pause get", rc));
  return PauseStatus{param.rx_pause != 0, param.tx_pause != 0, param.autoneg != 0};
}

Result<void> KernelNetdev::set_pause(const PauseStatus& pause) {
  ethtool_pauseparam param{};
  param.cmd = ETHTOOL_SPAUSEPARAM;
  param.rx_pause = pause.rx;
  param.tx_pause = pause.tx;
  param.autoneg = pause.autoneg;
  if (int rc = ethtool(&param); rc != 0) return std::unexpected(failure("pause set", rc));
  return {};
}

namespace {

// DCB_CMD_IEEE_GET: the ieee_pfc struct, or nothing when the driver has no IEEE PFC.
NetlinkReply dcb_request(KernelIo& io, const std::string& ifname, uint16_t type, uint8_t cmd, const ieee_pfc* set) {
  NetlinkRequest req(type, 0);
  auto* dcb = req.extra<dcbmsg>();
  dcb->dcb_family = AF_UNSPEC;
  dcb->cmd = cmd;
  mnl_attr_put_strz(req.header(), DCB_ATTR_IFNAME, ifname.c_str());
  if (set != nullptr) {
    nlattr* nest = mnl_attr_nest_start(req.header(), DCB_ATTR_IEEE);
    mnl_attr_put(req.header(), DCB_ATTR_IEEE_PFC, sizeof *set, set);
    mnl_attr_nest_end(req.header(), nest);
  }
  return io.netlink(NETLINK_ROUTE, req.bytes());
}

std::optional<ieee_pfc> parse_ieee_pfc(const NetlinkReply& reply) {
  std::optional<ieee_pfc> pfc;
  for_each_reply_attr<dcbmsg>(reply, DCB_ATTR_IEEE, [&](const nlattr* attr) {
    for_each_nested(attr, [&](const nlattr* inner) {
      if (mnl_attr_get_type(inner) == DCB_ATTR_IEEE_PFC && mnl_attr_get_payload_len(inner) >= sizeof(ieee_pfc)) {
        ieee_pfc value{};
        std::memcpy(&value, mnl_attr_get_payload(inner), sizeof value);
        pfc = value;
      }
    });
  });
  return pfc;
}

// The DCB APP table's DSCP entries (selector 5): what "trust dscp" installs.
std::vector<std::pair<uint8_t, uint8_t>> parse_dscp_apps(const NetlinkReply& reply) {
  std::vector<std::pair<uint8_t, uint8_t>> out;
  for_each_reply_attr<dcbmsg>(reply, DCB_ATTR_IEEE, [&](const nlattr* attr) {
    for_each_nested(attr, [&](const nlattr* table) {
      if (mnl_attr_get_type(table) != DCB_ATTR_IEEE_APP_TABLE) return;
      for_each_nested(table, [&](const nlattr* app) {
        if (mnl_attr_get_type(app) != DCB_ATTR_IEEE_APP || mnl_attr_get_payload_len(app) < sizeof(dcb_app)) return;
        dcb_app value{};
        std::memcpy(&value, mnl_attr_get_payload(app), sizeof value);
        if (value.selector == IEEE_8021QAZ_APP_SEL_DSCP)
          out.emplace_back(static_cast<uint8_t>(value.protocol), value.priority);
      });
    });
  });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Result<PfcStatus> KernelNetdev::pfc() {
  const NetlinkReply reply = dcb_request(*io_, ifname_, RTM_GETDCB, DCB_CMD_IEEE_GET, nullptr);
  if (reply.error != 0) return std::unexpected(failure("PFC get (DCB)", reply.error, reply.message));
  const auto pfc = parse_ieee_pfc(reply);
  if (!pfc) return std::unexpected(failure("PFC get (DCB IEEE)", -EOPNOTSUPP));
  PfcStatus status;
  status.enabled = pfc->pfc_en;
  status.capable = pfc->pfc_cap;
  status.requests.assign(pfc->requests, pfc->requests + IEEE_8021QAZ_MAX_TCS);
  status.indications.assign(pfc->indications, pfc->indications + IEEE_8021QAZ_MAX_TCS);
  status.dscp_priority = parse_dscp_apps(reply);
  return status;
}

Result<void> KernelNetdev::set_pfc(uint8_t enabled) {
  const NetlinkReply current = dcb_request(*io_, ifname_, RTM_GETDCB, DCB_CMD_IEEE_GET, nullptr);
  if (current.error != 0) return std::unexpected(failure("PFC get (DCB)", current.error, current.message));
  auto pfc = parse_ieee_pfc(current);
  if (!pfc) return std::unexpected(failure("PFC set (DCB IEEE)", -EOPNOTSUPP));
  pfc->pfc_en = enabled;
  const NetlinkReply reply = dcb_request(*io_, ifname_, RTM_SETDCB, DCB_CMD_IEEE_SET, &*pfc);
  if (reply.error != 0) return std::unexpected(failure("PFC set (DCB)", reply.error, reply.message));
  // The driver's own status comes back as a u8 DCB_ATTR_IEEE.
  int status = 0;
  for_each_reply_attr<dcbmsg>(reply, DCB_ATTR_IEEE, [&](const nlattr* attr) {
    if (mnl_attr_get_payload_len(attr) == 1) status = mnl_attr_get_u8(attr);
  });
  if (status != 0) return std::unexpected(failure("PFC set (DCB)", -EINVAL, fmt::format("driver status {}", status)));
  return {};
}

Result<std::vector<NamedCounter>> KernelNetdev::ethtool_stats() {
  auto names = strings(ETH_SS_STATS);
  if (!names) return std::unexpected(names.error());
  EthtoolBuffer buffer(sizeof(::ethtool_stats) + names->size() * sizeof(uint64_t));
  auto* stats = buffer.as<::ethtool_stats>();
  stats->cmd = ETHTOOL_GSTATS;
  stats->n_stats = static_cast<uint32_t>(names->size());
  if (int rc = ethtool(stats); rc != 0) return std::unexpected(failure("ethtool -S", rc));
  std::vector<NamedCounter> out;
  for (size_t i = 0; i < std::min<size_t>(names->size(), stats->n_stats); ++i)
    out.push_back(NamedCounter{(*names)[i], "ethtool", stats->data[i]});
  return out;
}

Result<uint16_t> KernelNetdev::ethtool_family() {
  if (family_ != 0) return family_;
  NetlinkRequest req(GENL_ID_CTRL, 0);
  auto* genl = req.extra<genlmsghdr>();
  genl->cmd = CTRL_CMD_GETFAMILY;
  genl->version = 1;
  mnl_attr_put_strz(req.header(), CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
  const NetlinkReply reply = io_->netlink(NETLINK_GENERIC, req.bytes());
  if (reply.error != 0) return std::unexpected(failure("ethtool netlink", reply.error, reply.message));
  for_each_reply_attr<genlmsghdr>(reply, CTRL_ATTR_FAMILY_ID,
                                  [&](const nlattr* attr) { family_ = mnl_attr_get_u16(attr); });
  if (family_ == 0) return std::unexpected(failure("ethtool netlink", -EOPNOTSUPP, "no ethtool genetlink family"));
  return family_;
}

Result<std::vector<NamedCounter>> KernelNetdev::fec_stats() {
  auto family = ethtool_family();
  if (!family) return std::unexpected(family.error());
  const NetlinkRequest req = ethtool_request(*family, ETHTOOL_MSG_FEC_GET, ETHTOOL_A_FEC_HEADER, ifname_, ETHTOOL_FLAG_STATS);
  const NetlinkReply reply = io_->netlink(NETLINK_GENERIC, req.bytes());
  if (reply.error != 0) return std::unexpected(failure("FEC statistics", reply.error, reply.message));
  std::vector<NamedCounter> out;
  for_each_reply_attr<genlmsghdr>(reply, ETHTOOL_A_FEC_STATS, [&](const nlattr* attr) {
    for_each_nested(attr, [&](const nlattr* stat) {
      const char* name = nullptr;
      switch (mnl_attr_get_type(stat)) {
        case ETHTOOL_A_FEC_STAT_CORRECTED: name = "corrected_blocks"; break;
        case ETHTOOL_A_FEC_STAT_UNCORR: name = "uncorrectable_blocks"; break;
        case ETHTOOL_A_FEC_STAT_CORR_BITS: name = "corrected_bits"; break;
        default: return;
      }
      // An array of u64: the total, then one per lane.
      const size_t n = mnl_attr_get_payload_len(stat) / sizeof(uint64_t);
      const auto* bytes = static_cast<const uint8_t*>(mnl_attr_get_payload(stat));
      for (size_t i = 0; i < n; ++i) {
        uint64_t v = 0;
        std::memcpy(&v, bytes + i * sizeof v, sizeof v);
        out.push_back(NamedCounter{i == 0 ? std::string(name) : fmt::format("{}_lane{}", name, i - 1), "fec", v});
      }
    });
  });
  return out;
}

Result<std::vector<uint8_t>> KernelNetdev::eeprom_page(uint8_t i2c_address, uint8_t page, uint8_t bank,
                                                      uint32_t offset) {
  auto family = ethtool_family();
  if (!family) return std::unexpected(family.error());
  NetlinkRequest req = ethtool_request(*family, ETHTOOL_MSG_MODULE_EEPROM_GET, ETHTOOL_A_MODULE_EEPROM_HEADER, ifname_, 0);
  mnl_attr_put_u32(req.header(), ETHTOOL_A_MODULE_EEPROM_OFFSET, offset);
  mnl_attr_put_u32(req.header(), ETHTOOL_A_MODULE_EEPROM_LENGTH, 128);
  mnl_attr_put_u8(req.header(), ETHTOOL_A_MODULE_EEPROM_PAGE, page);
  mnl_attr_put_u8(req.header(), ETHTOOL_A_MODULE_EEPROM_BANK, bank);
  mnl_attr_put_u8(req.header(), ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, i2c_address);
  const NetlinkReply reply = io_->netlink(NETLINK_GENERIC, req.bytes());
  if (reply.error != 0) return std::unexpected(failure("module EEPROM page read", reply.error, reply.message));
  std::vector<uint8_t> data;
  for_each_reply_attr<genlmsghdr>(reply, ETHTOOL_A_MODULE_EEPROM_DATA, [&](const nlattr* attr) {
    const auto* bytes = static_cast<const uint8_t*>(mnl_attr_get_payload(attr));
    data.assign(bytes, bytes + mnl_attr_get_payload_len(attr));
  });
  if (data.size() != 128)
    return make_error(Errc::kInvalid, fmt::format("module EEPROM on {}: page {:02x}h offset {} returned {} bytes, "
                                                  "not 128", ifname_, page, offset, data.size()));
  return data;
}

Result<std::vector<uint8_t>> KernelNetdev::module_eeprom() {
  // Netlink page reads: lower page and upper page 00h, then what the identifier needs.
  if (auto lower = eeprom_page(0x50, 0, 0, 0); lower) {
    auto upper = eeprom_page(0x50, 0, 0, 128);
    if (!upper) return std::unexpected(upper.error());
    std::vector<uint8_t> image = *lower;
    image.insert(image.end(), upper->begin(), upper->end());
    // Optional pages, all or none: without them the 256-byte image still decodes.
    struct PageRead {
      uint8_t i2c_address;
      uint8_t page;
      uint32_t offset;
    };
    const auto append_all = [&](std::initializer_list<PageRead> reads) {
      std::vector<uint8_t> extra;
      for (const PageRead& r : reads) {
        auto bytes = eeprom_page(r.i2c_address, r.page, 0, r.offset);
        if (!bytes) return;
        extra.insert(extra.end(), bytes->begin(), bytes->end());
      }
      image.insert(image.end(), extra.begin(), extra.end());
    };
    switch (image[0]) {
      case 0x03:  // SFP: A2h (diagnostics) when the module has them
        if (image[92] & 0x40) append_all({{0x51, 0, 0}, {0x51, 0, 128}});
        break;
      case 0x0C: case 0x0D: case 0x11:  // SFF-8636: pages 01h-03h unless flat
        if ((image[2] & 0x04) == 0) append_all({{0x50, 0x01, 128}, {0x50, 0x02, 128}, {0x50, 0x03, 128}});
        break;
      case 0x18: case 0x19: case 0x1E:  // CMIS: pages 01h, 02h, 10h, 11h of bank 0 unless flat
        if ((image[2] & 0x80) == 0)
          append_all({{0x50, 0x01, 128}, {0x50, 0x02, 128}, {0x50, 0x10, 128}, {0x50, 0x11, 128}});
        break;
      default: break;
    }
    return image;
  } else if (lower.error().code != Errc::kNotSupported) {
    return std::unexpected(lower.error());
  }
  // The ioctl: one flat image of the length the driver states.
  ethtool_modinfo info{};
  info.cmd = ETHTOOL_GMODULEINFO;
  if (int rc = ethtool(&info); rc != 0) return std::unexpected(failure("module EEPROM read", rc));
  EthtoolBuffer buffer(sizeof(ethtool_eeprom) + info.eeprom_len);
  auto* eeprom = buffer.as<ethtool_eeprom>();
  eeprom->cmd = ETHTOOL_GMODULEEEPROM;
  eeprom->len = info.eeprom_len;
  if (int rc = ethtool(eeprom); rc != 0) return std::unexpected(failure("module EEPROM read", rc));
  return std::vector<uint8_t>(eeprom->data, eeprom->data + info.eeprom_len);
}

}  // namespace lr::dp
