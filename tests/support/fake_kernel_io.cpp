#include "tests/support/fake_kernel_io.hpp"

#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace lr::test {

namespace {

constexpr uint16_t kEthtoolFamily = 0x1c;

// A reply message being built: header, family header, attributes.
struct Reply {
  std::vector<uint8_t> buffer = std::vector<uint8_t>(MNL_SOCKET_BUFFER_SIZE);
  nlmsghdr* h = mnl_nlmsg_put_header(buffer.data());
  std::vector<uint8_t> done() const { return {buffer.begin(), buffer.begin() + h->nlmsg_len}; }
};

}  // namespace

FakeKernelIo::FakeKernelIo() : link_mode_names_(__ETHTOOL_LINK_MODE_MASK_NBITS) {
  const std::pair<uint32_t, const char*> named[] = {
      {ETHTOOL_LINK_MODE_Autoneg_BIT, "Autoneg"},
      {ETHTOOL_LINK_MODE_25000baseCR_Full_BIT, "25000baseCR/Full"},
      {ETHTOOL_LINK_MODE_25000baseKR_Full_BIT, "25000baseKR/Full"},
      {ETHTOOL_LINK_MODE_50000baseCR2_Full_BIT, "50000baseCR2/Full"},
      {ETHTOOL_LINK_MODE_50000baseKR2_Full_BIT, "50000baseKR2/Full"},
      {ETHTOOL_LINK_MODE_50000baseKR_Full_BIT, "50000baseKR/Full"},
      {ETHTOOL_LINK_MODE_50000baseCR_Full_BIT, "50000baseCR/Full"},
      {ETHTOOL_LINK_MODE_100000baseCR4_Full_BIT, "100000baseCR4/Full"},
      {ETHTOOL_LINK_MODE_FEC_NONE_BIT, "None"},
      {ETHTOOL_LINK_MODE_FEC_RS_BIT, "RS"},
      {ETHTOOL_LINK_MODE_FEC_BASER_BIT, "BASER"},
  };
  for (const auto& [bit, name] : named) link_mode_names_[bit] = name;
  supported_bits = {ETHTOOL_LINK_MODE_Autoneg_BIT,          ETHTOOL_LINK_MODE_25000baseCR_Full_BIT,
                    ETHTOOL_LINK_MODE_50000baseCR2_Full_BIT, ETHTOOL_LINK_MODE_50000baseCR_Full_BIT,
                    ETHTOOL_LINK_MODE_100000baseCR4_Full_BIT, ETHTOOL_LINK_MODE_FEC_NONE_BIT,
                    ETHTOOL_LINK_MODE_FEC_RS_BIT,           ETHTOOL_LINK_MODE_FEC_BASER_BIT};
  advertised_bits = {ETHTOOL_LINK_MODE_50000baseCR2_Full_BIT, ETHTOOL_LINK_MODE_50000baseCR_Full_BIT};
  fec_configured = ETHTOOL_FEC_AUTO;
  fec_active = ETHTOOL_FEC_RS;
  stats = {{"rx_packets", 1000},          {"tx_packets", 2000},       {"rx_prio3_pause", 17},
           {"rx_prio3_pause_duration", 4400}, {"tx_prio3_pause", 5},  {"rx_corrected_bits_phy", 123},
           {"rx_err_lane_0_phy", 7},      {"rx_err_lane_1_phy", 0},   {"rx_pcs_symbol_err_phy", 2},
           {"link_down_events_phy", 3}};
  fec_corrected = {40, 10, 10, 10, 10};
  fec_uncorrectable = {1, 0, 1, 0, 0};
  fec_corrected_bits = {120, 30, 30, 30, 30};
}

int FakeKernelIo::get_mtu(const std::string& name, uint32_t& value) {
  if (name != ifname) return -ENODEV;
  value = mtu;
  return 0;
}

int FakeKernelIo::set_mtu(const std::string& name, uint32_t value) {
  if (name != ifname) return -ENODEV;
  if (!mtu_supported) return -EOPNOTSUPP;
  ++sets;
  if (!ignore_sets) mtu = value;
  return 0;
}

int FakeKernelIo::get_flags(const std::string& name, uint32_t& value) {
  if (name != ifname) return -ENODEV;
  value = flags;
  return 0;
}

int FakeKernelIo::set_flags(const std::string& name, uint32_t value) {
  if (name != ifname) return -ENODEV;
  ++sets;
  if (!ignore_sets) flags = value;
  return 0;
}

int FakeKernelIo::ethtool(const std::string& name, void* command) {
  if (name != ifname) return -ENODEV;
  uint32_t cmd = 0;
  std::memcpy(&cmd, command, sizeof cmd);
  const auto set_accepted = [&] {
    ++sets;
    return !ignore_sets;
  };
  switch (cmd) {
    case ETHTOOL_GDRVINFO: {
      auto* info = static_cast<ethtool_drvinfo*>(command);
      std::strncpy(info->driver, driver.c_str(), sizeof info->driver - 1);
      return 0;
    }
    case ETHTOOL_GLINK:
      static_cast<ethtool_value*>(command)->data = carrier;
      return 0;
    case ETHTOOL_GSSET_INFO: {
      auto* info = static_cast<ethtool_sset_info*>(command);
      if (info->sset_mask == uint64_t{1} << ETH_SS_STATS) info->data[0] = static_cast<uint32_t>(stats.size());
      else if (info->sset_mask == uint64_t{1} << ETH_SS_LINK_MODES) info->data[0] = static_cast<uint32_t>(link_mode_names_.size());
      else info->sset_mask = 0;
      return 0;
    }
    case ETHTOOL_GSTRINGS: {
      auto* gs = static_cast<ethtool_gstrings*>(command);
      std::vector<std::string> names;
      if (gs->string_set == ETH_SS_STATS)
        for (const auto& s : stats) names.push_back(s.first);
      else if (gs->string_set == ETH_SS_LINK_MODES) names = link_mode_names_;
      else return -EOPNOTSUPP;
      if (gs->len != names.size()) return -EINVAL;
      for (size_t i = 0; i < names.size(); ++i)
        std::strncpy(reinterpret_cast<char*>(gs->data) + i * ETH_GSTRING_LEN, names[i].c_str(), ETH_GSTRING_LEN - 1);
      return 0;
    }
    case ETHTOOL_GSTATS: {
      auto* st = static_cast<::ethtool_stats*>(command);
      if (st->n_stats != stats.size()) return -EINVAL;
      for (size_t i = 0; i < stats.size(); ++i) st->data[i] = stats[i].second;
      return 0;
    }
    case ETHTOOL_GLINKSETTINGS:
    case ETHTOOL_SLINKSETTINGS: {
      auto* ls = static_cast<ethtool_link_settings*>(command);
      constexpr int kWords = (__ETHTOOL_LINK_MODE_MASK_NBITS + 31) / 32;
      if (ls->link_mode_masks_nwords != kWords) {
        if (cmd == ETHTOOL_SLINKSETTINGS) return -EINVAL;
        ls->link_mode_masks_nwords = -kWords;  // the handshake
        return 0;
      }
      uint32_t* masks = ls->link_mode_masks;
      if (cmd == ETHTOOL_GLINKSETTINGS) {
        std::fill(masks, masks + 3 * kWords, 0u);
        for (uint32_t bit : supported_bits) masks[bit / 32] |= 1u << (bit % 32);
        for (uint32_t bit : advertised_bits) masks[kWords + bit / 32] |= 1u << (bit % 32);
        for (uint32_t bit : partner_bits) masks[2 * kWords + bit / 32] |= 1u << (bit % 32);
        ls->speed = carrier ? speed_mbps : static_cast<uint32_t>(SPEED_UNKNOWN);
        ls->duplex = DUPLEX_FULL;
        ls->autoneg = autoneg ? AUTONEG_ENABLE : AUTONEG_DISABLE;
        return 0;
      }
      if (!set_accepted()) return 0;
      autoneg = ls->autoneg == AUTONEG_ENABLE;
      if (!autoneg) speed_mbps = ls->speed;
      advertised_bits.clear();
      for (uint32_t bit = 0; bit < __ETHTOOL_LINK_MODE_MASK_NBITS; ++bit)
        if (masks[kWords + bit / 32] >> (bit % 32) & 1) advertised_bits.push_back(bit);
      return 0;
    }
    case ETHTOOL_GFECPARAM: {
      auto* fec = static_cast<ethtool_fecparam*>(command);
      fec->fec = fec_configured;
      fec->active_fec = fec_active;
      return 0;
    }
    case ETHTOOL_SFECPARAM: {
      const auto* fec = static_cast<const ethtool_fecparam*>(command);
      if (fec->fec & ETHTOOL_FEC_LLRS) return -EINVAL;  // this "NIC" has no LLRS
      if (set_accepted()) fec_configured = fec->fec;
      return 0;
    }
    case ETHTOOL_GPAUSEPARAM: {
      if (!pause_supported) return -EOPNOTSUPP;
      auto* p = static_cast<ethtool_pauseparam*>(command);
      p->rx_pause = pause_rx;
      p->tx_pause = pause_tx;
      return 0;
    }
    case ETHTOOL_SPAUSEPARAM: {
      if (!pause_supported) return -EOPNOTSUPP;
      const auto* p = static_cast<const ethtool_pauseparam*>(command);
      if (set_accepted()) pause_rx = p->rx_pause, pause_tx = p->tx_pause;
      return 0;
    }
    default:
      return -EOPNOTSUPP;
  }
}

dp::NetlinkReply FakeKernelIo::netlink(int protocol, std::span<const uint8_t> request) {
  const auto* h = reinterpret_cast<const nlmsghdr*>(request.data());
  dp::NetlinkReply out;
  Reply reply;
  reply.h->nlmsg_type = h->nlmsg_type;
  // Attributes of the request after its family header, top level and one nest down.
  std::map<uint16_t, const nlattr*> attrs, nested;
  const auto collect = [&](size_t header) {
    mnl_attr_parse(h, static_cast<unsigned>(header), [](const nlattr* a, void* data) {
      (*static_cast<std::map<uint16_t, const nlattr*>*>(data))[mnl_attr_get_type(a)] = a;
      return MNL_CB_OK;
    }, &attrs);
  };
  const auto collect_nested = [&](uint16_t type) {
    if (!attrs.count(type)) return;
    mnl_attr_parse_nested(attrs[type], [](const nlattr* a, void* data) {
      (*static_cast<std::map<uint16_t, const nlattr*>*>(data))[mnl_attr_get_type(a)] = a;
      return MNL_CB_OK;
    }, &nested);
  };

  if (protocol == NETLINK_GENERIC && h->nlmsg_type == GENL_ID_CTRL) {
    collect(sizeof(genlmsghdr));
    if (!attrs.count(CTRL_ATTR_FAMILY_NAME) || std::string(mnl_attr_get_str(attrs[CTRL_ATTR_FAMILY_NAME])) != ETHTOOL_GENL_NAME)
      return dp::NetlinkReply{-ENOENT, "", {}};
    mnl_nlmsg_put_extra_header(reply.h, sizeof(genlmsghdr));
    mnl_attr_put_u16(reply.h, CTRL_ATTR_FAMILY_ID, kEthtoolFamily);
    out.messages.push_back(reply.done());
    return out;
  }
  if (protocol == NETLINK_GENERIC && h->nlmsg_type == kEthtoolFamily) {
    const auto* genl = static_cast<const genlmsghdr*>(mnl_nlmsg_get_payload(h));
    collect(sizeof(genlmsghdr));
    auto* rg = static_cast<genlmsghdr*>(mnl_nlmsg_put_extra_header(reply.h, sizeof(genlmsghdr)));
    if (genl->cmd == ETHTOOL_MSG_FEC_GET) {
      collect_nested(ETHTOOL_A_FEC_HEADER);
      if (!nested.count(ETHTOOL_A_HEADER_DEV_NAME) || ifname != mnl_attr_get_str(nested[ETHTOOL_A_HEADER_DEV_NAME]))
        return dp::NetlinkReply{-ENODEV, "no device", {}};
      rg->cmd = ETHTOOL_MSG_FEC_GET_REPLY;
      nlattr* stats_nest = mnl_attr_nest_start(reply.h, ETHTOOL_A_FEC_STATS);
      mnl_attr_put(reply.h, ETHTOOL_A_FEC_STAT_CORRECTED, sizeof fec_corrected, fec_corrected.data());
      mnl_attr_put(reply.h, ETHTOOL_A_FEC_STAT_UNCORR, sizeof fec_uncorrectable, fec_uncorrectable.data());
      mnl_attr_put(reply.h, ETHTOOL_A_FEC_STAT_CORR_BITS, sizeof fec_corrected_bits, fec_corrected_bits.data());
      mnl_attr_nest_end(reply.h, stats_nest);
      out.messages.push_back(reply.done());
      return out;
    }
    if (genl->cmd == ETHTOOL_MSG_MODULE_EEPROM_GET) {
      const auto key = std::make_tuple(mnl_attr_get_u8(attrs[ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS]),
                                       mnl_attr_get_u8(attrs[ETHTOOL_A_MODULE_EEPROM_PAGE]),
                                       mnl_attr_get_u32(attrs[ETHTOOL_A_MODULE_EEPROM_OFFSET]));
      const auto page = eeprom_pages.find(key);
      if (page == eeprom_pages.end()) return dp::NetlinkReply{-EINVAL, "page not implemented by the module", {}};
      rg->cmd = ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY;
      mnl_attr_put(reply.h, ETHTOOL_A_MODULE_EEPROM_DATA, page->second.size(), page->second.data());
      out.messages.push_back(reply.done());
      return out;
    }
    return dp::NetlinkReply{-EOPNOTSUPP, "", {}};
  }
  if (protocol == NETLINK_ROUTE && (h->nlmsg_type == RTM_GETDCB || h->nlmsg_type == RTM_SETDCB)) {
    if (!dcb_supported) return dp::NetlinkReply{-EOPNOTSUPP, "", {}};
    const auto* dcb = static_cast<const dcbmsg*>(mnl_nlmsg_get_payload(h));
    collect(sizeof(dcbmsg));
    auto* rd = static_cast<dcbmsg*>(mnl_nlmsg_put_extra_header(reply.h, sizeof(dcbmsg)));
    rd->cmd = dcb->cmd;
    if (dcb->cmd == DCB_CMD_IEEE_GET) {
      ieee_pfc pfc{};
      pfc.pfc_cap = 8;
      pfc.pfc_en = pfc_enabled;
      std::copy(pfc_requests.begin(), pfc_requests.end(), pfc.requests);
      std::copy(pfc_indications.begin(), pfc_indications.end(), pfc.indications);
      nlattr* nest = mnl_attr_nest_start(reply.h, DCB_ATTR_IEEE);
      mnl_attr_put(reply.h, DCB_ATTR_IEEE_PFC, sizeof pfc, &pfc);
      if (!dscp_apps.empty()) {
        nlattr* table = mnl_attr_nest_start(reply.h, DCB_ATTR_IEEE_APP_TABLE);
        for (const auto& [dscp, prio] : dscp_apps) {
          const dcb_app app{IEEE_8021QAZ_APP_SEL_DSCP, prio, dscp};
          mnl_attr_put(reply.h, DCB_ATTR_IEEE_APP, sizeof app, &app);
        }
        mnl_attr_nest_end(reply.h, table);
      }
      mnl_attr_nest_end(reply.h, nest);
    } else if (dcb->cmd == DCB_CMD_IEEE_SET) {
      collect_nested(DCB_ATTR_IEEE);
      if (nested.count(DCB_ATTR_IEEE_PFC)) {
        ieee_pfc pfc{};
        std::memcpy(&pfc, mnl_attr_get_payload(nested[DCB_ATTR_IEEE_PFC]), sizeof pfc);
        ++sets;
        if (!ignore_sets) pfc_enabled = pfc.pfc_en;
      }
      mnl_attr_put_u8(reply.h, DCB_ATTR_IEEE, 0);
    } else {
      return dp::NetlinkReply{-EOPNOTSUPP, "", {}};
    }
    out.messages.push_back(reply.done());
    return out;
  }
  return dp::NetlinkReply{-EOPNOTSUPP, "", {}};
}

}  // namespace lr::test
