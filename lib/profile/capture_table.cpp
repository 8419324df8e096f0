#include "lib/profile/capture_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "lib/profile/quantity.hpp"

namespace lr::profile {

api::CaptureSpec read_capture(TableReader& in, const Profile& profile) {
  api::CaptureSpec c;
  c.port = in.required_string("port");
  if (profile.find_port(c.port) == nullptr)
    in.fail(in.find("port"), "port", fmt::format("no [[port]] is named '{}'", c.port));
  for (const api::CaptureSpec& other : profile.captures)
    if (other.port == c.port)
      in.fail(in.find("port"), "port", fmt::format("port '{}' has a [[capture]] already: one capture a port", c.port));
  c.file = std::filesystem::absolute(in.required_string("file")).string();
  if (auto v = in.string("filter")) c.filter = *v;
  if (auto v = in.string("direction")) {
    if (*v != "rx" && *v != "tx" && *v != "both")
      in.fail(in.find("direction"), "direction", fmt::format("'{}' is not one of rx, tx, both", *v));
    c.direction = *v;
  }
  if (auto v = in.integer<uint32_t>("snaplen", 64, 16384)) c.snaplen = *v;
  if (auto v = in.integer<uint64_t>("count", 1, uint64_t{1} << 62)) c.count = *v;
  if (auto v = in.parsed<uint64_t>("duration", parse_duration_ns, kDurationHelp)) c.duration_ns = *v;
  if (auto v = in.string("trigger")) {
    if (*v != "loss" && *v != "ooo" && *v != "dup" && *v != "any")
      in.fail(in.find("trigger"), "trigger", fmt::format("'{}' is not one of loss, ooo, dup, any", *v));
    c.trigger = *v;
    c.trigger_stream = in.required_string("stream");
    const bool known = std::any_of(profile.streams.begin(), profile.streams.end(),
                                   [&](const api::StreamSpec& s) { return s.name == c.trigger_stream; });
    if (!known) in.fail(in.find("stream"), "stream", fmt::format("no [[stream]] is named '{}'", c.trigger_stream));
    if (c.direction != "rx")
      in.fail(in.find("trigger"), "trigger", "watches what the port receives: direction = \"rx\" (the default)");
    c.before = in.integer<uint32_t>("before", 0, 1024).value_or(10);
    c.after = in.integer<uint32_t>("after", 0, 2048).value_or(10);
  }
  for (const char* key : {"stream", "before", "after"})
    if (c.trigger.empty() && in.find(key) != nullptr)
      in.fail(in.find(key), key, "goes with a trigger (trigger = \"loss\", \"ooo\", \"dup\" or \"any\")");
  in.finish();
  return c;
}

}  // namespace lr::profile
