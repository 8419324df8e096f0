#include "lib/api/capture_spec.hpp"

#include <nlohmann/json.hpp>

#include "lib/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

constexpr auto spec_fields = LR_JSON_FIELDS(port, file, filter, direction, snaplen, count, duration_ns, trigger,
                                            trigger_stream, before, after);

constexpr auto report_state_fields = LR_JSON_FIELDS(state, started_at, matched, captured, capture_dropped, file_bytes,
                                                    error, trigger_event, trigger_fired_at);

// A report carries its spec's fields at its own level, after its id.
constexpr auto report_fields = [](auto& r, auto&& fn) {
  fn("id", r.id);
  spec_fields(r.spec, fn);
  report_state_fields(r, fn);
};

}  // namespace

LR_JSON_CODEC(CaptureSpec, capture_spec_from_json, spec_fields)
LR_JSON_CODEC(CaptureReport, capture_report_from_json, report_fields)

std::vector<CaptureReport> capture_reports_from_json(const json& j) {
  std::vector<CaptureReport> out;
  read_items(json{{"captures", j}}, "captures", out, capture_report_from_json);
  return out;
}

}  // namespace lr::api
