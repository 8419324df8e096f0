#include "dataplane/port/port_control.hpp"

#include <fmt/format.h>
#include <net/if.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>

#include <algorithm>
#include <array>
#include <filesystem>

#include "dataplane/port/port.hpp"
#include "lib/host/counter_names.hpp"

namespace lr::dp {

namespace {

constexpr size_t kHistoryLength = 256;

// DPDK FEC capability bits (22.11 has no LLRS).
constexpr std::pair<uint32_t, uint32_t> kEthdevFec[] = {{RTE_ETH_FEC_MODE_TO_CAPA(RTE_ETH_FEC_NOFEC), kFecOff},
                                                         {RTE_ETH_FEC_MODE_TO_CAPA(RTE_ETH_FEC_AUTO), kFecAuto},
                                                         {RTE_ETH_FEC_MODE_TO_CAPA(RTE_ETH_FEC_BASER), kFecBaseR},
                                                         {RTE_ETH_FEC_MODE_TO_CAPA(RTE_ETH_FEC_RS), kFecRs}};

bool not_supported(int rc) { return rc == -ENOTSUP || rc == -EOPNOTSUPP; }

// A set starts by reading: "FEC get is not supported by ..." becomes "FEC set is not
// supported by ..." (same backends, same reasons).
Error as_set_error(Error e, const std::string& what) {
  if (e.code == Errc::kNotSupported && e.context.starts_with(what + " get"))
    e.context.replace(what.size() + 1, 3, "set");
  return e;
}

PauseStatus pause_from_mode(rte_eth_fc_mode mode, bool autoneg) {
  return PauseStatus{mode == RTE_ETH_FC_RX_PAUSE || mode == RTE_ETH_FC_FULL,
                     mode == RTE_ETH_FC_TX_PAUSE || mode == RTE_ETH_FC_FULL, autoneg};
}

rte_eth_fc_mode mode_from_pause(const PauseStatus& p) {
  if (p.rx && p.tx) return RTE_ETH_FC_FULL;
  if (p.rx) return RTE_ETH_FC_RX_PAUSE;
  if (p.tx) return RTE_ETH_FC_TX_PAUSE;
  return RTE_ETH_FC_NONE;
}

}  // namespace

PortControl::PortControl(std::string name, uint16_t port_id, std::string driver, std::unique_ptr<KernelNetdev> netdev,
                         EthdevLink* ethdev)
    : name_(std::move(name)),
      port_id_(port_id),
      driver_(std::move(driver)),
      netdev_(std::move(netdev)),
      ethdev_(ethdev),
      flows_(port_id_, name_, driver_) {}

Error PortControl::unsupported(const std::string& what, const Error* kernel_error) const {
  std::string text = fmt::format("{} is not supported by {} on port {} ('{}')", what, driver_, port_id_, name_);
  // The kernel's refusal names its own operation ("PFC get (DCB) is not supported by the
  // kernel netdev eth9 (mlx5_core)"): keep only whom it concerns, and any reason after.
  constexpr std::string_view kKernelSays = " is not supported by the kernel netdev ";
  if (kernel_error != nullptr) {
    const size_t at = kernel_error->context.find(kKernelSays);
    text += at != std::string::npos
                ? fmt::format(", nor by its kernel netdev {}", kernel_error->context.substr(at + kKernelSays.size()))
                : fmt::format(", nor through its kernel netdev: {}", kernel_error->context);
  } else if (!netdev_) {
    text += " (it has no kernel netdev to fall back on)";
  }
  return Error{Errc::kNotSupported, kernel_error != nullptr ? kernel_error->sys_errno : ENOTSUP, std::move(text)};
}

// ---- link ----

Result<Served<LinkStatus>> PortControl::link() {
  if (!rte_eth_dev_is_valid_port(port_id_)) return make_error(Errc::kNoDevice, fmt::format("port '{}' is closed", name_));
  auto read = read_ethdev_link(port_id_);
  if (!read) return std::unexpected(read.error());
  LinkStatus status = std::move(*read);
  Backend backend = Backend::kEthdev;
  rte_eth_dev_info info{};
  if (rte_eth_dev_info_get(port_id_, &info) == 0) {
    for (uint32_t mbps : {10u, 100u, 1000u, 2500u, 5000u, 10000u, 20000u, 25000u, 40000u, 50000u, 56000u, 100000u,
                          200000u, 400000u})
      if (info.speed_capa & rte_eth_speed_bitflag(mbps, RTE_ETH_LINK_FULL_DUPLEX))
        status.supported.push_back(fmt::format("{}Mb/s", mbps));
  }
  // The kernel knows the link modes (supported, advertised) that ethdev does not show,
  // and its carrier is the wire's state (af_packet's ethdev link stays up regardless).
  if (netdev_) {
    if (auto k = netdev_->link()) {
      status.up = k->up;
      status.autoneg = k->autoneg;
      status.supported = std::move(k->supported);
      status.advertised = std::move(k->advertised);
      if (status.speed_mbps == 0) status.speed_mbps = k->speed_mbps;
      backend = Backend::kKernel;
    }
  }
  return Served<LinkStatus>{std::move(status), backend};
}

Result<Served<LinkStatus>> PortControl::set_link(const LinkRequest& request, const std::string& cause, bool keep) {
  Backend backend = Backend::kEthdev;
  if (request.autoneg || request.speed_mbps || request.advertise) {
    std::optional<LinkStatus> before;
    if (netdev_) before = netdev_->link().value_or(LinkStatus{});
    auto ok = netdev_ ? set_kernel_speeds(request) : set_ethdev_speeds(request);
    if (!ok) return std::unexpected(ok.error());
    backend = netdev_ ? Backend::kKernel : Backend::kEthdev;
    if (before) {
      if (!originals_.link) originals_.link = before;
      if (auto after = netdev_->link())
        record_change("link", link_settings_text(*before), link_settings_text(*after), keep);
    }
  }
  std::optional<LinkInstant> up_down_at;
  if (request.up) {
    up_down_at = LinkInstant::now();
    const char* what = *request.up ? "link up" : "link down";
    Result<void> ok = ethdev_ != nullptr ? ethdev_->set_link_up(*request.up)
                                          : Result<void>(std::unexpected(unsupported(what, nullptr)));
    // A PMD without link up / down (af_packet, tap): the kernel netdev's admin state.
    if (!ok && ok.error().code == Errc::kNotSupported && netdev_) {
      const auto was_up = netdev_->admin_up();
      ok = netdev_->set_admin_up(*request.up);
      if (!ok && ok.error().code == Errc::kNotSupported) ok = std::unexpected(unsupported(what, &ok.error()));
      if (ok && was_up) record_change("admin", *was_up ? "up" : "down", *request.up ? "up" : "down", keep);
      if (ok && was_up && !originals_.admin_up) originals_.admin_up = *was_up;
      backend = Backend::kKernel;
    }
    if (!ok) return std::unexpected(ok.error());
  }
  auto status = link();
  if (!status) return std::unexpected(status.error());
  // A link that went as asked is recorded as of the set's call: the change happens inside
  // it (a veth's carrier follows its admin state before the call returns), and the read
  // above comes later still. As of the call, no frame of the new state precedes the event,
  // so a recovery measured from it (run_s) is never short.
  const bool as_asked = up_down_at && status->value.up == *request.up;
  record_link(status->value, cause, as_asked ? *up_down_at : LinkInstant::now());
  status->backend = backend;
  return status;
}

Result<void> PortControl::set_kernel_speeds(const LinkRequest& request) {
  auto before = netdev_->link();
  if (!before) return std::unexpected(unsupported("link speed / autoneg set", &before.error()));
  LinkRequest speed_only = request;
  speed_only.up.reset();  // up / down is ethdev's
  if (auto ok = netdev_->set_link(speed_only); !ok) {
    if (ok.error().code == Errc::kNotSupported) return std::unexpected(unsupported("link speed / autoneg set", &ok.error()));
    return std::unexpected(ok.error());
  }
  auto after = netdev_->link();
  const bool autoneg_wanted = request.autoneg.value_or(request.advertise ? true : before->autoneg);
  const bool taken = after && after->autoneg == autoneg_wanted &&
                     (!request.advertise || std::is_permutation(request.advertise->begin(), request.advertise->end(),
                                                                after->advertised.begin(), after->advertised.end()));
  if (!taken) {
    LinkRequest restore;
    restore.autoneg = before->autoneg;
    if (before->autoneg) restore.advertise = before->advertised;
    else if (before->speed_mbps != 0) restore.speed_mbps = before->speed_mbps;
    (void)netdev_->set_link(restore);
    return make_error(Errc::kInvalid, fmt::format("link set on port '{}': {} accepted it but reads back something "
                                                  "else; the previous settings were restored", name_,
                                                  netdev_->ifname()));
  }
  return {};
}

Result<void> PortControl::set_ethdev_speeds(const LinkRequest& request) {
  if (ethdev_ == nullptr || request.advertise)
    return std::unexpected(
        unsupported(request.advertise ? "advertising exact link modes" : "link speed / autoneg set", nullptr));
  const bool autoneg = request.autoneg.value_or(true);
  auto bits = link_speeds_bits(autoneg, request.speed_mbps.value_or(0));
  if (!bits) return std::unexpected(bits.error());
  const uint32_t before = ethdev_->link_speeds();
  if (auto ok = ethdev_->set_link_speeds(*bits); !ok) {
    if (ok.error().code == Errc::kNotSupported) return std::unexpected(unsupported("link speed / autoneg set", nullptr));
    return std::unexpected(ok.error());
  }
  // Read back once the link is up (verify_link_set): it must come up at the speed asked for.
  if (request.speed_mbps) pending_speed_check_ = SpeedCheck{before, *request.speed_mbps};
  return {};
}

Result<void> PortControl::verify_link_set() {
  if (!pending_speed_check_) return {};
  const SpeedCheck check = *pending_speed_check_;
  pending_speed_check_.reset();
  const auto link = read_ethdev_link(port_id_);
  if (link && link->up && link->speed_mbps != check.speed_mbps) {
    const uint32_t got = link->speed_mbps;
    (void)ethdev_->set_link_speeds(check.link_speeds_before);
    return make_error(Errc::kInvalid, fmt::format("link set on port '{}': {} came up at {} Mb/s, not {}; the previous "
                                                  "link settings were restored", name_, driver_, got, check.speed_mbps));
  }
  return {};
}

LinkInstant LinkInstant::now() noexcept { return LinkInstant{std::chrono::system_clock::now(), rte_rdtsc()}; }

void PortControl::record_link(const LinkStatus& status, const std::string& cause, LinkInstant when) {
  const std::pair<bool, uint32_t> now{status.up, status.up ? status.speed_mbps : 0};
  if (last_link_ == now) return;
  last_link_ = now;
  history_.push_back(LinkEvent{when, now.first, now.second, cause});
  if (history_.size() > kHistoryLength) history_.pop_front();
}

bool PortControl::observe_link(const std::string& cause) {
  if (!rte_eth_dev_is_valid_port(port_id_)) return false;  // closed at the end of a run: nothing more to see
  if (netdev_) {
    if (auto k = netdev_->link()) {
      record_link(*k, cause);
      return k->up;
    }
  }
  const auto status = read_ethdev_link(port_id_);
  if (!status) return false;
  record_link(*status, cause);
  return status->up;
}

void PortControl::poll_link() { (void)observe_link(history_.empty() ? "first seen" : "observed"); }

// ---- FEC ----

Result<Served<FecStatus>> PortControl::fec() {
  const int n = rte_eth_fec_get_capability(port_id_, nullptr, 0);
  if (!not_supported(n)) {
    if (n < 0) return make_error(Errc::kInvalid, fmt::format("FEC capability of port '{}'", name_), -n);
    std::vector<rte_eth_fec_capa> capa(static_cast<size_t>(n));
    const int got = rte_eth_fec_get_capability(port_id_, capa.data(), static_cast<unsigned>(n));
    uint32_t current = 0;
    if (got < 0 || rte_eth_fec_get(port_id_, &current) != 0)
      return make_error(Errc::kInvalid, fmt::format("FEC get on port '{}'", name_));
    FecStatus status;
    status.configured = status.active = fec_from_backend(current, kEthdevFec);
    for (int i = 0; i < std::min(got, n); ++i)
      status.capability.push_back(FecCapability{capa[static_cast<size_t>(i)].speed, fec_from_backend(capa[static_cast<size_t>(i)].capa, kEthdevFec)});
    return Served<FecStatus>{std::move(status), Backend::kEthdev};
  }
  if (!netdev_) return std::unexpected(unsupported("FEC get", nullptr));
  auto k = netdev_->fec();
  if (!k) return std::unexpected(k.error().code == Errc::kNotSupported ? unsupported("FEC get", &k.error()) : k.error());
  return Served<FecStatus>{std::move(*k), Backend::kKernel};
}

Result<Served<FecStatus>> PortControl::set_fec(uint32_t mode, bool keep) {
  auto before = fec();
  if (!before) return std::unexpected(as_set_error(before.error(), "FEC"));
  const auto apply = [&](uint32_t m) -> Result<void> {
    if (before->backend == Backend::kEthdev) {
      if (int rc = rte_eth_fec_set(port_id_, fec_to_backend(m, kEthdevFec)); rc != 0)
        return make_error(not_supported(rc) ? Errc::kNotSupported : Errc::kInvalid,
                          fmt::format("FEC set {} on port '{}' ({})", fec_names(m), name_, driver_), -rc);
      return {};
    }
    return netdev_->set_fec(m);
  };
  if (auto ok = apply(mode); !ok) return std::unexpected(ok.error());
  auto after = fec();
  if (!after || (after->value.configured & mode) == 0) {
    (void)apply(before->value.configured);
    return make_error(Errc::kInvalid, fmt::format("FEC set {} on port '{}': the port reads back {}; the previous mode "
                                                  "({}) was restored", fec_names(mode), name_,
                                                  after ? fec_names(after->value.configured) : "nothing",
                                                  fec_names(before->value.configured)));
  }
  if (!originals_.fec) originals_.fec = before->value.configured;
  record_change("fec", fec_names(before->value.configured), fec_names(after->value.configured), keep);
  return after;
}

// ---- 802.3x pause ----

Result<Served<PauseStatus>> PortControl::pause() {
  rte_eth_fc_conf fc{};
  const int rc = rte_eth_dev_flow_ctrl_get(port_id_, &fc);
  if (rc == 0) return Served<PauseStatus>{pause_from_mode(fc.mode, fc.autoneg != 0), Backend::kEthdev};
  if (!not_supported(rc)) return make_error(Errc::kInvalid, fmt::format("pause get on port '{}'", name_), -rc);
  if (!netdev_) return std::unexpected(unsupported("pause get", nullptr));
  auto k = netdev_->pause();
  if (!k) return std::unexpected(k.error().code == Errc::kNotSupported ? unsupported("pause get", &k.error()) : k.error());
  return Served<PauseStatus>{*k, Backend::kKernel};
}

Result<Served<PauseStatus>> PortControl::set_pause(const PauseStatus& want, bool keep) {
  auto before = pause();
  if (!before) return std::unexpected(as_set_error(before.error(), "pause"));
  const auto apply = [&](const PauseStatus& p) -> Result<void> {
    if (before->backend == Backend::kKernel) return netdev_->set_pause(p);
    rte_eth_fc_conf fc{};
    if (int rc = rte_eth_dev_flow_ctrl_get(port_id_, &fc); rc != 0)
      return make_error(Errc::kInvalid, fmt::format("pause get on port '{}'", name_), -rc);
    fc.mode = mode_from_pause(p);
    fc.autoneg = p.autoneg;
    if (int rc = rte_eth_dev_flow_ctrl_set(port_id_, &fc); rc != 0)
      return make_error(not_supported(rc) ? Errc::kNotSupported : Errc::kInvalid,
                        fmt::format("pause set on port '{}' ({})", name_, driver_), -rc);
    return {};
  };
  if (auto ok = apply(want); !ok) return std::unexpected(ok.error());
  auto after = pause();
  if (!after || after->value.rx != want.rx || after->value.tx != want.tx) {
    (void)apply(before->value);
    return make_error(Errc::kInvalid, fmt::format("pause set on port '{}': the port reads back rx {} tx {}; the "
                                                  "previous setting was restored", name_,
                                                  after && after->value.rx ? "on" : "off",
                                                  after && after->value.tx ? "on" : "off"));
  }
  if (!originals_.pause) originals_.pause = before->value;
  record_change("pause", pause_text(before->value), pause_text(after->value), keep);
  return after;
}

// ---- PFC ----

Result<Served<PfcStatus>> PortControl::pfc() {
  if (!netdev_)
    return std::unexpected(unsupported("PFC get (DPDK 22.11 ethdev can set PFC but not read it)", nullptr));
  auto k = netdev_->pfc();
  if (!k) return std::unexpected(k.error().code == Errc::kNotSupported ? unsupported("PFC get", &k.error()) : k.error());
  return Served<PfcStatus>{std::move(*k), Backend::kKernel};
}

Result<Served<PfcStatus>> PortControl::set_pfc(uint8_t enabled, bool& read_back, bool keep) {
  read_back = false;
  Error kernel_error{Errc::kNotSupported, ENOTSUP, "no kernel netdev"};
  if (netdev_) {
    auto before = netdev_->pfc();
    if (before) {
      if (auto ok = netdev_->set_pfc(enabled); !ok) return std::unexpected(ok.error());
      auto after = netdev_->pfc();
      if (!after || after->enabled != enabled) {
        (void)netdev_->set_pfc(before->enabled);
        return make_error(Errc::kInvalid, fmt::format("PFC set on port '{}': {} reads back priorities 0x{:02x}, not "
                                                      "0x{:02x}; the previous setting was restored", name_,
                                                      netdev_->ifname(), after ? after->enabled : 0, enabled));
      }
      read_back = true;
      if (!originals_.pfc) originals_.pfc = before->enabled;
      record_change("pfc", pfc_text(before->enabled), pfc_text(after->enabled), keep);
      return Served<PfcStatus>{std::move(*after), Backend::kKernel};
    }
    kernel_error = before.error();
  }
  // ethdev: one call per priority, no read back.
  for (uint8_t priority = 0; priority < 8; ++priority) {
    rte_eth_pfc_conf conf{};
    conf.fc.mode = (enabled >> priority & 1) ? RTE_ETH_FC_FULL : RTE_ETH_FC_NONE;
    conf.fc.pause_time = 0xFFFF;
    conf.priority = priority;
    const int rc = rte_eth_dev_priority_flow_ctrl_set(port_id_, &conf);
    if (not_supported(rc)) return std::unexpected(unsupported("PFC set", netdev_ ? &kernel_error : nullptr));
    if (rc != 0)
      return make_error(Errc::kInvalid, fmt::format("PFC set on port '{}' ({}), priority {}", name_, driver_, priority), -rc);
  }
  PfcStatus status;
  status.enabled = enabled;
  record_change("pfc", "", pfc_text(enabled), keep);  // before: ethdev cannot read it
  return Served<PfcStatus>{std::move(status), Backend::kEthdev};
}

// ---- module EEPROM ----

Result<Served<std::vector<uint8_t>>> PortControl::module_eeprom() {
  rte_eth_dev_module_info info{};
  const int rc = rte_eth_dev_get_module_info(port_id_, &info);
  if (rc == 0 && info.eeprom_len > 0) {
    std::vector<uint8_t> bytes(info.eeprom_len);
    rte_dev_eeprom_info request{};
    request.data = bytes.data();
    request.length = info.eeprom_len;
    if (int erc = rte_eth_dev_get_module_eeprom(port_id_, &request); erc != 0)
      return make_error(Errc::kInvalid, fmt::format("module EEPROM read on port '{}' ({})", name_, driver_), -erc);
    // ethdev reads a flat image; a CMIS module's lane pages are banked, which the kernel
    // netdev (ethtool netlink page reads) can fetch: prefer its fuller image.
    const bool cmis = !bytes.empty() && (bytes[0] == 0x18 || bytes[0] == 0x19 || bytes[0] == 0x1E);
    if (cmis && netdev_) {
      if (auto paged = netdev_->module_eeprom(); paged && paged->size() > bytes.size())
        return Served<std::vector<uint8_t>>{std::move(*paged), Backend::kKernel};
    }
    return Served<std::vector<uint8_t>>{std::move(bytes), Backend::kEthdev};
  }
  if (rc != 0 && !not_supported(rc))
    return make_error(Errc::kInvalid, fmt::format("module info on port '{}' ({})", name_, driver_), -rc);
  if (!netdev_) return std::unexpected(unsupported("module EEPROM read", nullptr));
  auto k = netdev_->module_eeprom();
  if (!k)
    return std::unexpected(k.error().code == Errc::kNotSupported ? unsupported("module EEPROM read", &k.error()) : k.error());
  return Served<std::vector<uint8_t>>{std::move(*k), Backend::kKernel};
}

// ---- counters ----

std::vector<NamedCounter> PortControl::read_named_counters(std::vector<std::string>* errors) {
  std::vector<NamedCounter> all;
  const auto note = [&](const Error& e) {
    if (errors != nullptr) errors->push_back(to_string(e));
  };
  if (auto xstats = read_xstats(port_id_)) {
    for (auto& [name, value] : *xstats) all.push_back(NamedCounter{std::move(name), "xstats", value});
  } else {
    note(xstats.error());
  }
  if (netdev_) {
    for (auto source : {&KernelNetdev::ethtool_stats, &KernelNetdev::fec_stats}) {
      auto kernel = ((*netdev_).*source)();
      if (kernel) all.insert(all.end(), kernel->begin(), kernel->end());
      else if (kernel.error().code != Errc::kNotSupported) note(kernel.error());
    }
  }
  return all;
}

std::vector<MergedCounter> PortControl::counters(std::vector<std::string>* errors) {
  std::vector<MergedCounter> out;
  const auto add = [&](NamedCounter c, uint64_t since) {
    std::string canonical = canonical_counter_name(c.source, c.name);
    out.push_back(MergedCounter{std::move(c), std::move(canonical), since});
  };
  if (auto basic = read_port_counters(port_id_)) {
    const auto now = basic->named();
    const auto since = (*basic - baseline_.ethdev).named();
    for (size_t i = 0; i < now.size(); ++i) add(NamedCounter{now[i].first, "ethdev", now[i].second}, since[i].second);
  } else if (errors != nullptr) {
    errors->push_back(to_string(basic.error()));
  }
  for (NamedCounter& c : read_named_counters(errors)) {
    const auto base = baseline_.named.find(c.source + "/" + c.name);
    const uint64_t since = base == baseline_.named.end() ? c.value : c.value - std::min(c.value, base->second);
    add(std::move(c), since);
  }
  return out;
}

Result<PortCounters> PortControl::port_counters_this_run() const {
  auto now = read_port_counters(port_id_);
  if (!now) return std::unexpected(now.error());
  return *now - baseline_.ethdev;
}

void PortControl::mark_baseline() {
  RunBaseline next;
  if (auto basic = read_port_counters(port_id_)) next.ethdev = *basic;
  for (const NamedCounter& c : read_named_counters(nullptr)) next.named[c.source + "/" + c.name] = c.value;
  baseline_ = std::move(next);
}

// ---- discovery ----

std::unique_ptr<KernelNetdev> find_kernel_netdev(uint16_t port_id, const std::string& device, KernelIo& io) {
  rte_eth_dev_info info{};
  if (rte_eth_dev_info_get(port_id, &info) == 0 && info.if_index != 0) {
    char name[IF_NAMESIZE] = {};
    if (if_indextoname(info.if_index, name) != nullptr) return std::make_unique<KernelNetdev>(name, io);
  }
  // A PCI device ("0000:3b:00.0", maybe with ",devargs") whose kernel driver kept a netdev.
  const std::string pci = device.substr(0, device.find(','));
  std::error_code ec;
  const std::filesystem::path net = std::filesystem::path("/sys/bus/pci/devices") / pci / "net";
  if (pci.find(':') != std::string::npos && std::filesystem::is_directory(net, ec)) {
    for (const auto& entry : std::filesystem::directory_iterator(net, ec))
      return std::make_unique<KernelNetdev>(entry.path().filename().string(), io);
  }
  return nullptr;
}

}  // namespace lr::dp
