#include "control/suites/optics/qualify_section.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <toml++/toml.h>

#include "lib/common/port_modes.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/quantity.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::optics {

using api::RateKind;
using api::StreamSpec;
using profile::ConfigError;
using profile::kDurationHelp;
using profile::loc_of;
using profile::parse_duration_ns;
using profile::parse_link_speed_bps;
using profile::parse_rate;
using profile::Profile;
using profile::TableReader;

namespace {

QualifyCfg read_qualify(TableReader& in) {
  QualifyCfg cfg;
  cfg.loc = loc_of(in.table());
  if (auto v = in.strings("ports", "expected an array of port names, e.g. [\"p0\", \"p1\"]")) cfg.ports = std::move(*v);
  if (auto v = in.parsed<uint64_t>("speed", parse_link_speed_bps, "a link speed: write e.g. '40G' or '50G'"))
    cfg.speed_bps = *v;
  if (auto v = in.string("fec")) {
    if (const auto mode = fec_mode_named(*v); !mode || *mode == FecMode::kAuto)  // a mode the link runs
      in.fail(in.find("fec"), "fec", fmt::format("'{}' is not off, baser, rs or llrs (the FEC expected active)", *v));
    cfg.fec = *v;
  }
  if (auto v = in.boolean("set_fec")) cfg.set_fec = *v;
  if (cfg.set_fec && cfg.fec.empty()) in.fail(in.find("set_fec"), "set_fec", "set which FEC mode? add fec = \"rs\"");
  if (auto v = in.string("fec_code")) {
    if (*v != "rs528" && *v != "rs544")
      in.fail(in.find("fec_code"), "fec_code", fmt::format("'{}' is not rs528 (RS(528,514)) or rs544 (RS(544,514))", *v));
    cfg.fec_code = *v;
  }
  if (const toml::node* node = in.find("rate")) {
    const auto text = node->value<std::string>();
    const auto rate = text ? parse_rate(*text) : std::nullopt;
    if (!rate || rate->kind != RateKind::kPercentOfLine || rate->value <= 0)
      in.fail(node, "rate", "expected a share of line rate, e.g. '100%'");
    cfg.rate_percent = rate->value;
  }
  if (const toml::node* node = in.find("duration")) {
    const auto text = node->value<std::string>();
    if (!text) in.fail(node, "duration", fmt::format("expected 'auto' or {}", kDurationHelp));
    if (*text != "auto") {
      const auto ns = parse_duration_ns(*text);
      if (!ns || *ns < 100'000'000) in.fail(node, "duration", fmt::format("'{}' is not 'auto' or a duration of at least 100ms", *text));
      cfg.duration_ns = *ns;
    }
  }
  if (auto v = in.parsed<uint64_t>("max_auto_duration", parse_duration_ns, kDurationHelp)) cfg.max_auto_duration_ns = *v;
  if (auto v = in.parsed<uint64_t>("interval", parse_duration_ns, kDurationHelp)) {
    if (*v < 100'000'000) in.fail(in.find("interval"), "interval", "sample at most every 100ms (the module's monitors update slower)");
    cfg.interval_ns = *v;
  }
  if (auto v = in.number("target_ber", 1e-18, 1e-3)) cfg.target_ber = *v;
  if (auto v = in.number("confidence", 0.5, 0.9999)) cfg.confidence = *v;
  if (auto v = in.number("ber_limit", 1e-18, 1e-2)) cfg.ber_limit = *v;
  if (auto v = in.number("rx_power_drift_db", 0.01, 20)) cfg.rx_power_drift_db = *v;
  if (auto v = in.number("tx_power_drift_db", 0.01, 20)) cfg.tx_power_drift_db = *v;
  cfg.key_locs = in.key_locs();
  in.finish();
  return cfg;
}

void validate_qualify(const Profile& profile, const QualifyCfg& cfg) {
  for (const std::string& name : cfg.ports) {
    if (profile.find_port(name) == nullptr)
      throw ConfigError(profile.path, cfg.loc_of("ports"), "qualify.ports", fmt::format("no [[port]] is named '{}'", name));
    const bool received = std::any_of(profile.streams.begin(), profile.streams.end(),
                                      [&](const StreamSpec& s) { return s.rx_port == name; });
    if (!received)
      throw ConfigError(profile.path, cfg.loc_of("ports"), "qualify.ports",
                        fmt::format("no stream is received on port '{}': add a [[stream]] with rx_port = \"{}\" (its "
                                    "own tx_port for a looped-back module)", name, name));
  }
  if (profile.streams.empty())
    throw ConfigError(profile.path, cfg.loc, "qualify", "the traffic is the profile's streams: add a [[stream]]");
  for (const StreamSpec& s : profile.streams)
    if (!s.rx_port)
      throw ConfigError(profile.path, s.loc, "qualify",
                        fmt::format("stream '{}' has no rx_port: qualification counts every frame back", s.name));
}

}  // namespace

std::optional<QualifyCfg> read_qualify_section(const Profile& profile, std::string_view text) {
  const toml::table root = profile::parse_profile_toml(text, profile.path);
  TableReader in(root, "", profile.path);  // the other keys are the profile's: no finish()
  const toml::table* t = in.subtable("qualify");
  if (t == nullptr) return std::nullopt;
  TableReader r(*t, "qualify.", profile.path);
  QualifyCfg cfg = read_qualify(r);
  validate_qualify(profile, cfg);
  return cfg;
}

}  // namespace lr::optics
