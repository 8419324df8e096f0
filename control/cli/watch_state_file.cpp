#include "control/cli/watch_state_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <utility>

namespace lr::ctl {

namespace {

using nlohmann::json;

// A key whose value is not of the shape the watch writes: where, and what it holds.
struct BadKey {
  std::string what;
};

// An object of the state file at `path` ("ports[1].link"), each key read with its type
// checked: a key the watch left out is an empty optional, a key of another type a BadKey.
class Fields {
 public:
  Fields(const json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object())
      throw BadKey{fmt::format("{}: not an object ({})", path_.empty() ? "its top level" : path_, shown(object_))};
  }

  std::string path(std::string_view key) const {
    return path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
  }

  const json* find(const char* key) const {
    const auto at = object_.find(key);
    return at == object_.end() ? nullptr : &*at;
  }

  std::optional<double> number(const char* key) const {
    const json* value = find(key);
    if (value == nullptr) return std::nullopt;
    if (!value->is_number()) bad(key, "not a number", *value);
    return value->get<double>();
  }

  // nlohmann reads a JSON integer of no sign as unsigned: a negative or fractional count is refused.
  std::optional<uint64_t> count(const char* key) const {
    const json* value = find(key);
    if (value == nullptr) return std::nullopt;
    if (!value->is_number_unsigned()) bad(key, "not a count", *value);
    return value->get<uint64_t>();
  }

  std::optional<bool> flag(const char* key) const {
    const json* value = find(key);
    if (value == nullptr) return std::nullopt;
    if (!value->is_boolean()) bad(key, "not true or false", *value);
    return value->get<bool>();
  }

  std::optional<std::string> text(const char* key) const {
    const json* value = find(key);
    if (value == nullptr) return std::nullopt;
    if (!value->is_string()) bad(key, "not a string", *value);
    return value->get<std::string>();
  }

  const json& array(const char* key) const {
    const json* value = find(key);
    if (value == nullptr) missing(key);
    if (!value->is_array()) bad(key, "not an array", *value);
    return *value;
  }

  std::vector<std::string> strings(const char* key) const {
    std::vector<std::string> out;
    if (find(key) == nullptr) return out;
    const json& values = array(key);
    for (size_t i = 0; i < values.size(); ++i) {
      if (!values[i].is_string()) bad(fmt::format("{}[{}]", key, i), "not a string", values[i]);
      out.push_back(values[i].get<std::string>());
    }
    return out;
  }

  template <class T>
  T required(std::optional<T> value, const char* key) const {
    if (!value) missing(key);
    return *value;
  }

  [[noreturn]] void missing(std::string_view key) const { throw BadKey{path(key) + ": missing"}; }
  [[noreturn]] void bad(std::string_view key, const char* why, const json& value) const {
    throw BadKey{fmt::format("{}: {} ({})", path(key), why, shown(value))};
  }

 private:
  // A value as said in an error: short, whatever the file holds.
  static std::string shown(const json& value) {
    std::string text = value.dump();
    return text.size() <= 40 ? text : text.substr(0, 37) + "...";
  }

  const json& object_;
  std::string path_;
};

WatchedMonitor monitor_from(const json& object, const std::string& path) {
  const Fields f(object, path);
  WatchedMonitor m;
  m.quantity = f.required(f.text("quantity"), "quantity");
  m.lane = static_cast<unsigned>(f.count("lane").value_or(0));
  m.value = f.required(f.number("value"), "value");
  m.unit = f.text("unit").value_or("");
  m.alarm_flag = f.flag("alarm_flag").value_or(false);
  m.warning_flag = f.flag("warning_flag").value_or(false);
  return m;
}

WatchedModule module_from(const Fields& f) {
  WatchedModule m;
  m.type = f.text("type").value_or("");
  m.vendor = f.text("vendor").value_or("");
  m.part = f.text("part").value_or("");
  m.serial = f.text("serial").value_or("");
  m.changes = f.count("changes").value_or(0);
  if (f.find("monitors") != nullptr) {
    const json& monitors = f.array("monitors");
    for (size_t i = 0; i < monitors.size(); ++i)
      m.monitors.push_back(monitor_from(monitors[i], fmt::format("{}[{}]", f.path("monitors"), i)));
  }
  if (const json* thresholds = f.find("thresholds")) {
    const Fields by_quantity(*thresholds, f.path("thresholds"));
    for (const auto& [quantity, limits] : thresholds->items())
      if (const auto low = Fields(limits, by_quantity.path(quantity)).number("low_warning"))
        m.low_warning[quantity] = *low;
  }
  return m;
}

void fec_from(const Fields& f, WatchedPort& p) {
  p.corrected_per_s = f.number("corrected_per_second");
  p.corrected_codewords = f.count("corrected_codewords");
  p.uncorrectable_codewords = f.count("uncorrectable_codewords");
  p.pre_fec_ber = f.number("pre_fec_ber");
}

WatchedPort port_from(const json& object, const std::string& path) {
  const Fields f(object, path);
  WatchedPort p;
  p.port = f.required(f.text("port"), "port");
  p.current = f.required(f.flag("current"), "current");
  p.missed = f.text("missed").value_or("");
  if (const json* link = f.find("link")) {
    const Fields l(*link, f.path("link"));
    p.link_up = l.flag("up");
    p.speed_bps = l.count("speed_bps");
    p.flaps = l.count("flaps");
  }
  if (const json* module = f.find("module"); module != nullptr && !module->is_null())
    p.module = module_from(Fields(*module, f.path("module")));
  if (const json* fec = f.find("fec")) fec_from(Fields(*fec, f.path("fec")), p);
  if (const json* unsupported = f.find("unsupported")) {
    const Fields parts(*unsupported, f.path("unsupported"));
    for (const auto& [part, why] : unsupported->items()) p.unsupported[part] = parts.text(part.c_str()).value_or("");
  }
  p.problems = f.strings("problems");
  return p;
}

}  // namespace

std::expected<WatchState, std::string> parse_watch_state(std::string_view text) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    return std::unexpected(fmt::format("not JSON: {}", e.what()));
  }
  try {
    const Fields f(doc, "");
    WatchState state;
    state.time_s = f.required(f.number("time"), "time");
    state.interval_s = f.required(f.number("interval_s"), "interval_s");
    if (state.interval_s <= 0) f.bad("interval_s", "not a positive number of seconds", doc["interval_s"]);
    const json& ports = f.array("ports");
    for (size_t i = 0; i < ports.size(); ++i) state.ports.push_back(port_from(ports[i], fmt::format("ports[{}]", i)));
    return state;
  } catch (const BadKey& e) {
    return std::unexpected(e.what);
  }
}

std::optional<std::string> staleness(const WatchState& state, double now_s) {
  const double age_s = now_s - state.time_s;
  if (age_s <= kStaleIntervals * state.interval_s) return std::nullopt;
  return fmt::format(
      "stale: written {:.0f} s ago, more than {:g} intervals of {:g} s (`linerate optics watch` "
      "is not running, or not with this --dir)",
      age_s, kStaleIntervals, state.interval_s);
}

}  // namespace lr::ctl
