#include "dataplane/mgmt/capture_methods.hpp"

#include <fmt/format.h>

#include "lib/api/json_fields.hpp"
#include "dataplane/fastpath/capture_tap.hpp"
#include "dataplane/mgmt/rpc_result.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

namespace {

constexpr uint32_t kMinSnaplen = 64;     // Ethernet, IPv6 and UDP headers, with tags
constexpr uint32_t kMaxSnaplen = 16384;  // a jumbo frame whole
constexpr uint64_t kMaxAfter = 2048;     // with the held frames, inside a capture's pool

// A whole number in [min, max], or `fallback` when absent.
uint64_t optional_count(const api::Params& p, const char* key, uint64_t min, uint64_t max, uint64_t fallback) {
  if (!p.has(key)) return fallback;
  const json& v = p.raw(key);
  if (!v.is_number_unsigned() || v.get<uint64_t>() < min || v.get<uint64_t>() > max)
    throw RpcError(RpcCode::kInvalidParams,
                   fmt::format("params.{}: expected a whole number from {} to {}, found {}", key, min, max, v.dump()));
  return v.get<uint64_t>();
}

api::CaptureSpec capture_spec(const api::Params& p) {
  api::CaptureSpec spec;
  spec.port = p.string("port");
  spec.file = p.string("file");
  if (!spec.file.starts_with('/'))
    throw RpcError(RpcCode::kInvalidParams,
                   fmt::format("params.file: '{}' is not an absolute path (the data plane writes it, from its own "
                               "directory)", spec.file));
  spec.filter = p.optional_string("filter").value_or("");
  spec.direction = p.optional_string("direction").value_or("rx");
  if (spec.direction != "rx" && spec.direction != "tx" && spec.direction != "both")
    throw RpcError(RpcCode::kInvalidParams,
                   fmt::format("params.direction: '{}' is not one of rx, tx, both", spec.direction));
  spec.snaplen = static_cast<uint32_t>(optional_count(p, "snaplen", kMinSnaplen, kMaxSnaplen, spec.snaplen));
  spec.count = optional_count(p, "count", 0, uint64_t{1} << 62, 0);
  spec.duration_ns = optional_count(p, "duration_ns", 0, uint64_t{1} << 62, 0);
  spec.trigger = p.optional_string("trigger").value_or("");
  spec.trigger_stream = p.optional_string("trigger_stream").value_or("");
  spec.before = static_cast<uint32_t>(optional_count(p, "before", 0, fast::CaptureTrigger::kMaxBefore, 0));
  spec.after = static_cast<uint32_t>(optional_count(p, "after", 0, kMaxAfter, 0));
  if (spec.trigger.empty()) {
    if (!spec.trigger_stream.empty() || spec.before != 0 || spec.after != 0)
      throw RpcError(RpcCode::kInvalidParams, "params: trigger_stream, before and after go with a trigger");
  } else if (spec.trigger != "loss" && spec.trigger != "ooo" && spec.trigger != "dup" && spec.trigger != "any") {
    throw RpcError(RpcCode::kInvalidParams,
                   fmt::format("params.trigger: '{}' is not one of loss, ooo, dup, any", spec.trigger));
  } else if (spec.trigger_stream.empty()) {
    throw RpcError(RpcCode::kInvalidParams, "params.trigger_stream: a trigger watches a stream: name it");
  } else if (spec.direction != "rx") {
    throw RpcError(RpcCode::kInvalidParams,
                   "params.direction: a trigger watches what the port receives: direction rx (the default)");
  }
  return spec;
}

uint32_t capture_id(const api::Params& p) {
  if (!p.has("id")) throw RpcError(RpcCode::kInvalidParams, "params.id: is required");
  return static_cast<uint32_t>(optional_count(p, "id", 1, UINT32_MAX, 0));
}

}  // namespace

void register_capture_methods(Dispatcher& d, Engine& engine) {
  d.add("capture.start",
        "Captures what a port receives into a pcapng file, through the runs that follow, until capture.stop, its "
        "count or its duration, or the end of this session. params {port, file (absolute path), filter? (tcpdump "
        "syntax), direction? (rx, tx or both; default rx), snaplen? (64-16384, default 1518), count?, duration_ns?, trigger? (loss|ooo|dup|any: only the "
        "frames of trigger_stream around the first such event in its sequence), trigger_stream?, before? (0-1024), "
        "after? (0-2048)}. Returns the capture (its id).",
        true, [&](Session& session, const api::Params& p) {
          return to_json(value_or_throw(engine.start_capture(capture_spec(p), session.id)));
        });
  d.add("capture.stop", "Ends a capture; answers when its file is complete. params {id}. Returns the capture.", true,
        [&](Session&, const api::Params& p) { return to_json(value_or_throw(engine.stop_capture(capture_id(p)))); });
  d.add("capture.list",
        "The captures running and those that ended lately: spec, state, frames matched, captured and dropped, file "
        "bytes.",
        false, [&](Session&, const api::Params&) { return api::json_array(engine.capture_reports()); });
}

}  // namespace lr::dp
