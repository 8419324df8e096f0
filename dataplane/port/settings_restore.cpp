// Leaving a port as it was found: what linerate changed on it (FEC, pause, PFC, link
// speeds, MTU), what the port had before, and putting that back when the data plane
// exits or a client asks (port.settings.restore). Shared lab hosts run the workload
// whose fabric linerate tests; a port left with another FEC or MTU breaks it silently.
#include "dataplane/port/port_control.hpp"

#include <fmt/format.h>
#include <rte_ethdev.h>

#include <algorithm>

namespace lr::dp {

namespace {

constexpr const char* kAtExit = "at_exit";

}  // namespace

void PortControl::record_change(const char* setting, const std::string& before, const std::string& set_to, bool keep) {
  if (restoring_) return;
  const auto it = std::find_if(changes_.begin(), changes_.end(), [&](const api::SettingChange& c) { return c.setting == setting; });
  if (it == changes_.end()) {
    if (before == set_to) return;  // no change to the host
    changes_.push_back(api::SettingChange{setting, before, set_to, keep, kAtExit, ""});
    return;
  }
  it->set_to = set_to;  // `before` stays what the port had before the first change
  it->keep = keep;
  it->restore = kAtExit;
  it->error.clear();
}

Result<uint32_t> PortControl::mtu() {
  if (!netdev_) return std::unexpected(unsupported("MTU get", nullptr));
  return netdev_->mtu();
}

Result<void> PortControl::set_mtu(uint16_t mtu, bool keep) {
  if (ethdev_ == nullptr) return std::unexpected(unsupported("MTU set", nullptr));
  std::optional<uint32_t> before;
  if (netdev_) before = netdev_->mtu().value_or(0);
  if (auto ok = ethdev_->set_mtu(mtu); !ok) return ok;
  if (before && *before != 0) {
    if (!originals_.mtu) originals_.mtu = *before;
    if (auto after = netdev_->mtu()) record_change("mtu", std::to_string(*before), std::to_string(*after), keep);
  }
  return {};
}

Result<void> PortControl::set_promiscuous(bool on, bool keep) {
  if (ethdev_ == nullptr) return std::unexpected(unsupported("promiscuous mode set", nullptr));
  std::optional<bool> before;
  if (netdev_)
    if (auto now = netdev_->promiscuous()) before = *now;
  if (auto ok = ethdev_->set_promiscuous(on); !ok) return ok;
  if (before) {
    if (!originals_.promiscuous) originals_.promiscuous = *before;
    if (auto after = netdev_->promiscuous()) record_change("promiscuous", *before ? "on" : "off", *after ? "on" : "off", keep);
  }
  return {};
}

void PortControl::before_bring_up(bool mtu, bool link, bool promiscuous) {
  if (!netdev_) return;
  if (promiscuous && !originals_.promiscuous)
    if (auto now = netdev_->promiscuous()) originals_.promiscuous = *now;
  if (mtu && !originals_.mtu)
    if (auto now = netdev_->mtu()) originals_.mtu = *now;
  if (link && !originals_.link)
    if (auto now = netdev_->link()) originals_.link = std::move(*now);
}

void PortControl::after_bring_up(bool keep) {
  if (!netdev_) return;
  if (originals_.promiscuous)
    if (auto now = netdev_->promiscuous())
      record_change("promiscuous", *originals_.promiscuous ? "on" : "off", *now ? "on" : "off", keep);
  if (originals_.mtu)
    if (auto now = netdev_->mtu()) record_change("mtu", std::to_string(*originals_.mtu), std::to_string(*now), keep);
  if (originals_.link)
    if (auto now = netdev_->link())
      record_change("link", link_settings_text(*originals_.link), link_settings_text(*now), keep);
}

api::SettingChange PortControl::restore_one(const api::SettingChange& change) {
  api::SettingChange out = change;
  const auto failed = [&](std::string why) {
    out.restore = "failed";
    out.error = std::move(why);
    return out;
  };
  const auto done = [&](bool was_already) {
    out.restore = was_already ? "unchanged" : "restored";
    return out;
  };
  if (change.keep) {
    out.restore = "kept";
    return out;
  }
  if (change.setting == "fec" && originals_.fec) {
    auto now = fec();
    if (now && now->value.configured == *originals_.fec) return done(true);
    if (auto ok = set_fec(*originals_.fec); !ok) return failed(ok.error().context);
    return done(false);
  }
  if (change.setting == "pause" && originals_.pause) {
    auto now = pause();
    if (now && now->value.rx == originals_.pause->rx && now->value.tx == originals_.pause->tx) return done(true);
    if (auto ok = set_pause(*originals_.pause); !ok) return failed(ok.error().context);
    return done(false);
  }
  if (change.setting == "pfc") {
    if (!originals_.pfc)
      return failed("what the port had before is unknown: PFC was set through ethdev, which cannot read it "
                    "(DPDK 22.11 has no PFC get)");
    auto now = pfc();
    if (now && now->value.enabled == *originals_.pfc) return done(true);
    bool read_back = false;
    if (auto ok = set_pfc(*originals_.pfc, read_back); !ok) return failed(ok.error().context);
    return done(false);
  }
  if (change.setting == "link" && originals_.link && netdev_) {
    const LinkStatus& was = *originals_.link;
    auto now = netdev_->link();
    if (now && link_settings_text(*now) == link_settings_text(was)) return done(true);
    LinkRequest request;
    request.autoneg = was.autoneg;
    if (was.autoneg) request.advertise = was.advertised;
    else request.speed_mbps = was.speed_mbps;
    if (auto ok = netdev_->set_link(request); !ok) return failed(ok.error().context);
    now = netdev_->link();
    if (!now || link_settings_text(*now) != link_settings_text(was))
      return failed(fmt::format("{} accepted the link settings but reads back {}", netdev_->ifname(),
                                now ? link_settings_text(*now) : "nothing"));
    return done(false);
  }
  if (change.setting == "mtu" && originals_.mtu && netdev_) {
    auto now = netdev_->mtu();
    if (now && *now == *originals_.mtu) return done(true);
    // Through ethdev while the port is open (so it and the PMD agree), else the kernel.
    auto ok = ethdev_ != nullptr && rte_eth_dev_is_valid_port(port_id_) ? ethdev_->set_mtu(static_cast<uint16_t>(*originals_.mtu))
                                                     : netdev_->set_mtu(*originals_.mtu);
    if (!ok) return failed(ok.error().context);
    now = netdev_->mtu();
    if (!now || *now != *originals_.mtu)
      return failed(fmt::format("{} reads back MTU {}", netdev_->ifname(), now ? std::to_string(*now) : "nothing"));
    return done(false);
  }
  if (change.setting == "admin" && originals_.admin_up && netdev_) {
    const bool was = *originals_.admin_up;
    if (auto now = netdev_->admin_up(); now && *now == was) return done(true);
    if (auto ok = netdev_->set_admin_up(was); !ok) return failed(ok.error().context);
    return done(false);
  }
  if (change.setting == "promiscuous" && originals_.promiscuous && netdev_) {
    const bool was = *originals_.promiscuous;
    auto now = netdev_->promiscuous();
    if (now && *now == was) return done(true);
    auto ok = ethdev_ != nullptr && rte_eth_dev_is_valid_port(port_id_) ? ethdev_->set_promiscuous(was)
                                                                         : netdev_->set_promiscuous(was);
    if (!ok) return failed(ok.error().context);
    now = netdev_->promiscuous();
    if (!now || *now != was)
      return failed(fmt::format("{} reads back promiscuous mode {}", netdev_->ifname(), now ? (*now ? "on" : "off") : "nothing"));
    return done(false);
  }
  return failed("linerate has no record of what the port had before");
}

const std::vector<api::SettingChange>& PortControl::restore_settings() {
  restoring_ = true;
  // Newest setting first: a later change may rest on an earlier one (an MTU on a link).
  for (auto it = changes_.rbegin(); it != changes_.rend(); ++it)
    if (it->restore == kAtExit || it->restore == "failed") *it = restore_one(*it);
  restoring_ = false;
  return changes_;
}

}  // namespace lr::dp
