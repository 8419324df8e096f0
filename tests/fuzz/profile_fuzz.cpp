// libFuzzer target: any bytes as a TOML profile. The loader must answer every input with a
// profile or a ConfigError (file, line, column, key, why), never a crash, hang, assert or
// another exception. A profile it accepts also goes through the suites' section readers
// ([rfc2544], [ndr], [lossless], [qualify]) and, as the text of `stream.load`, through the stream
// reader against a running data plane's profile; its streams' JSON form reads back as the
// same specs. Bytes that are JSON go through the streams' JSON reader too, which must answer
// with streams or a ConfigError. Built with clang by scripts/fuzz.sh.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "control/suites/bench/bench_sections.hpp"
#include "control/suites/optics/qualify_section.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/stream_spec_json.hpp"

namespace {

// A serving data plane's profile, as `stream.load` reads streams against it.
const lr::profile::Profile& running_profile() {
  static const lr::profile::Profile running = lr::profile::load_profile_text(R"(
[[port]]
name = "p0"
device = "net_ring0"
[[port]]
name = "p1"
device = "net_null0"
speed = "40G"
)", "running.toml");
  return running;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const lr::profile::Profile p = lr::profile::load_profile_text(text, "fuzz.toml");
    for (size_t i = 0; i < p.streams.size(); ++i)
      if (lr::profile::stream_spec_from_json(lr::profile::to_json(p.streams[i]), "fuzz.toml", i) != p.streams[i])
        __builtin_trap();  // the JSON form lost or changed a value
    try {
      (void)lr::bench::read_bench_sections(p, text);
    } catch (const lr::profile::ConfigError& e) {
      if (e.reason().empty()) __builtin_trap();
    }
    try {
      (void)lr::optics::read_qualify_section(p, text);
    } catch (const lr::profile::ConfigError& e) {
      if (e.reason().empty()) __builtin_trap();
    }
  } catch (const lr::profile::ConfigError& e) {
    // Where and why: a message without its reason is a defect too.
    if (e.reason().empty() || e.file() != "fuzz.toml") __builtin_trap();
  }
  try {
    (void)lr::profile::load_streams_text(text, "streams.toml", running_profile());
  } catch (const lr::profile::ConfigError& e) {
    if (e.reason().empty()) __builtin_trap();
  }
  const nlohmann::json streams = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!streams.is_discarded()) {
    try {
      (void)lr::profile::streams_from_json(streams.is_array() ? streams : nlohmann::json::array({streams}), "params",
                                           running_profile());
    } catch (const lr::profile::ConfigError& e) {
      if (e.reason().empty()) __builtin_trap();
    }
  }
  return 0;
}
