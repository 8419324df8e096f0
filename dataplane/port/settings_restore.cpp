// Leaving a port as it was found: what linerate changed on it (FEC, pause, PFC, link
// speeds, MTU), what the port had before, and putting that back when the data plane
// exits or a client asks (port.settings.restore). Shared lab hosts run the workload
// whose fabric linerate tests; a port left with another FEC or MTU breaks it silently.
#include "dataplane/port/port_control.hpp"

#include <fmt/format.h>
#include <rte_ethdev.h>

#include <algorithm>
#include <expected>

namespace lr::dp {

namespace {

constexpr const char* kAtExit = "at_exit";

// How putting one setting back went: the port already had it, or it was put back (and
// read back where the port can be read); the error says why not.
enum class Restored { kAlready, kPutBack };
using RestoreOutcome = std::expected<Restored, std::string>;

// The port's ethdev side while the port is open (so it and the PMD agree on the
// setting); null once it is closed: the kernel's side then.
EthdevLink* ethdev_if_open(EthdevLink* ethdev, uint16_t port_id) {
  return ethdev != nullptr && rte_eth_dev_is_valid_port(port_id) ? ethdev : nullptr;
}

RestoreOutcome restore_fec_setting(PortControl& port, uint32_t was) {
  auto now = port.fec();
  if (now && now->value.configured == was) return Restored::kAlready;
  if (auto ok = port.set_fec(was); !ok) return std::unexpected(ok.error().context);
  return Restored::kPutBack;
}

RestoreOutcome restore_pause_setting(PortControl& port, const PauseStatus& was) {
  auto now = port.pause();
  if (now && now->value.rx == was.rx && now->value.tx == was.tx) return Restored::kAlready;
  if (auto ok = port.set_pause(was); !ok) return std::unexpected(ok.error().context);
  return Restored::kPutBack;
}

RestoreOutcome restore_pfc_setting(PortControl& port, std::optional<uint8_t> was) {
  if (!was)
    return std::unexpected(std::string("what the port had before is unknown: PFC was set through ethdev, which cannot "
                                       "read it (DPDK 22.11 has no PFC get)"));
  auto now = port.pfc();
  if (now && now->value.enabled == *was) return Restored::kAlready;
  bool read_back = false;
  if (auto ok = port.set_pfc(*was, read_back); !ok) return std::unexpected(ok.error().context);
  return Restored::kPutBack;
}

// The kernel's link settings: autonegotiation with the modes it advertised, or the speed
// it was forced to.
RestoreOutcome restore_link_setting(KernelNetdev& netdev, const LinkStatus& was) {
  auto now = netdev.link();
  if (now && link_settings_text(*now) == link_settings_text(was)) return Restored::kAlready;
  LinkRequest request;
  request.autoneg = was.autoneg;
  if (was.autoneg) request.advertise = was.advertised;
  else request.speed_mbps = was.speed_mbps;
  if (auto ok = netdev.set_link(request); !ok) return std::unexpected(ok.error().context);
  now = netdev.link();
  if (!now || link_settings_text(*now) != link_settings_text(was))
    return std::unexpected(fmt::format("{} accepted the link settings but reads back {}", netdev.ifname(),
                                       now ? link_settings_text(*now) : "nothing"));
  return Restored::kPutBack;
}

RestoreOutcome restore_mtu_setting(KernelNetdev& netdev, EthdevLink* open_ethdev, uint32_t was) {
  auto now = netdev.mtu();
  if (now && *now == was) return Restored::kAlready;
  auto ok = open_ethdev != nullptr ? open_ethdev->set_mtu(static_cast<uint16_t>(was)) : netdev.set_mtu(was);
  if (!ok) return std::unexpected(ok.error().context);
  now = netdev.mtu();
  if (!now || *now != was)
    return std::unexpected(fmt::format("{} reads back MTU {}", netdev.ifname(), now ? std::to_string(*now) : "nothing"));
  return Restored::kPutBack;
}

RestoreOutcome restore_admin_setting(KernelNetdev& netdev, bool was) {
  if (auto now = netdev.admin_up(); now && *now == was) return Restored::kAlready;
  if (auto ok = netdev.set_admin_up(was); !ok) return std::unexpected(ok.error().context);
  return Restored::kPutBack;
}

RestoreOutcome restore_promiscuous_setting(KernelNetdev& netdev, EthdevLink* open_ethdev, bool was) {
  auto now = netdev.promiscuous();
  if (now && *now == was) return Restored::kAlready;
  auto ok = open_ethdev != nullptr ? open_ethdev->set_promiscuous(was) : netdev.set_promiscuous(was);
  if (!ok) return std::unexpected(ok.error().context);
  now = netdev.promiscuous();
  if (!now || *now != was)
    return std::unexpected(
        fmt::format("{} reads back promiscuous mode {}", netdev.ifname(), now ? (*now ? "on" : "off") : "nothing"));
  return Restored::kPutBack;
}

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
  if (change.keep) {
    out.restore = "kept";
    return out;
  }
  const std::string& setting = change.setting;
  RestoreOutcome outcome = std::unexpected(std::string("linerate has no record of what the port had before"));
  if (setting == "fec" && originals_.fec) {
    outcome = restore_fec_setting(*this, *originals_.fec);
  } else if (setting == "pause" && originals_.pause) {
    outcome = restore_pause_setting(*this, *originals_.pause);
  } else if (setting == "pfc") {
    outcome = restore_pfc_setting(*this, originals_.pfc);
  } else if (setting == "link" && originals_.link && netdev_) {
    outcome = restore_link_setting(*netdev_, *originals_.link);
  } else if (setting == "mtu" && originals_.mtu && netdev_) {
    outcome = restore_mtu_setting(*netdev_, ethdev_if_open(ethdev_, port_id_), *originals_.mtu);
  } else if (setting == "admin" && originals_.admin_up && netdev_) {
    outcome = restore_admin_setting(*netdev_, *originals_.admin_up);
  } else if (setting == "promiscuous" && originals_.promiscuous && netdev_) {
    outcome = restore_promiscuous_setting(*netdev_, ethdev_if_open(ethdev_, port_id_), *originals_.promiscuous);
  }
  if (!outcome) {
    out.restore = "failed";
    out.error = outcome.error();
  } else {
    out.restore = *outcome == Restored::kAlready ? "unchanged" : "restored";
    out.error.clear();  // a retry that succeeds: the failed attempt's reason no longer holds
  }
  return out;
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
