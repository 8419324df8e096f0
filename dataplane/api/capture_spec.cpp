#include "dataplane/api/capture_spec.hpp"

#include <nlohmann/json.hpp>

#include "dataplane/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

namespace {

constexpr auto spec_fields = [](auto& s, auto&& fn) {
  fn("port", s.port);
  fn("file", s.file);
  fn("filter", s.filter);
  fn("direction", s.direction);
  fn("snaplen", s.snaplen);
  fn("count", s.count);
  fn("duration_ns", s.duration_ns);
  fn("trigger", s.trigger);
  fn("trigger_stream", s.trigger_stream);
  fn("before", s.before);
  fn("after", s.after);
};

constexpr auto report_fields = [](auto& r, auto&& fn) {
  fn("id", r.id);
  spec_fields(r.spec, fn);
  fn("state", r.state);
  fn("started_at", r.started_at);
  fn("filter_jit", r.filter_jit);
  fn("matched", r.matched);
  fn("captured", r.captured);
  fn("capture_dropped", r.capture_dropped);
  fn("file_bytes", r.file_bytes);
  fn("error", r.error);
  fn("trigger_event", r.trigger_event);
  fn("trigger_fired_at", r.trigger_fired_at);
};

}  // namespace

json to_json(const CaptureSpec& spec) { return write_fields(spec, spec_fields); }
json to_json(const CaptureReport& report) { return write_fields(report, report_fields); }
CaptureSpec capture_spec_from_json(const json& j) { return read_fields<CaptureSpec>(j, spec_fields); }
CaptureReport capture_report_from_json(const json& j) { return read_fields<CaptureReport>(j, report_fields); }

std::vector<CaptureReport> capture_reports_from_json(const json& j) {
  std::vector<CaptureReport> out;
  read_items(json{{"captures", j}}, "captures", out, capture_report_from_json);
  return out;
}

}  // namespace lr::api
