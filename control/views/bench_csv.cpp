#include "control/views/bench_csv.hpp"

#include <fmt/format.h>

#include <array>

namespace lr::ctl {

using nlohmann::json;

namespace {

constexpr std::array kColumns{"row",          "test",           "frame_size",      "rate_percent",  "offered_percent",
                              "offered_pps",  "tx_packets",     "rx_packets",      "lost",          "loss_percent",
                              "burst_frames", "verdict",        "percent_line_rate", "pps",         "l1_bps",
                              "l2_bps",       "latency_min_ns", "latency_mean_ns", "latency_p50_ns", "latency_p99_ns",
                              "latency_p999_ns", "latency_max_ns", "jitter_ns",    "note"};


void row(std::string& out, const json& values) {
  for (size_t i = 0; i < kColumns.size(); ++i) {
    if (i > 0) out += ',';
    out += csv_field(values.value(kColumns[i], json()));
  }
  out += '\n';
}

// The latency columns of a result from its `latency_ns` object.
void add_latency(json& values, const json& latency) {
  for (const auto& [from, to] : std::array<std::pair<const char*, const char*>, 7>{
           {{"min", "latency_min_ns"}, {"mean", "latency_mean_ns"}, {"p50", "latency_p50_ns"}, {"p99", "latency_p99_ns"},
            {"p999", "latency_p999_ns"}, {"max", "latency_max_ns"}, {"jitter", "jitter_ns"}}})
    if (latency.contains(from)) values[to] = latency[from];
}

}  // namespace

std::string csv_field(const json& value) {
  if (value.is_null()) return "";
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  // Nine significant digits: finer than any measurement here, without the last bits of a
  // double's arithmetic (23.729999999999585 is 23.73); report.json keeps every bit.
  if (value.is_number_float()) return fmt::format("{:.9g}", value.get<double>());
  if (!value.is_string()) return value.dump();
  const std::string text = value.get<std::string>();
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string bench_csv(const json& report) {
  std::string out;
  for (size_t i = 0; i < kColumns.size(); ++i) out += (i > 0 ? "," : "") + std::string(kColumns[i]);
  out += '\n';
  for (const json& t : report.value("trials", json::array())) {
    json values = t;
    values["row"] = "trial";
    // A trial sent short that lost frames anyway is the device's fail (sending less only eases its task).
    const bool counted = t.value("valid", true) || t.value("lost_though_sent_short", false);
    values["verdict"] = !counted ? "invalid" : t.value("passed", false) ? "pass" : "fail";
    values["note"] = t.value("invalid_reason", "");
    add_latency(values, t.value("latency_ns", json::object()));
    row(out, values);
  }
  for (const char* test : {"throughput", "ndr", "pdr"})
    for (const json& r : report.value(test, json::array())) {
      json values = r;
      values["row"] = "result";
      values["test"] = test;
      values["note"] = r.value("limited_by", r.value("why", ""));
      add_latency(values, r.value("latency_ns", json::object()));
      row(out, values);
    }
  for (const json& r : report.value("latency", json::array())) {
    json values{{"row", "result"}, {"test", "latency"}, {"frame_size", r.at("frame_size")},
                {"rate_percent", r.value("rate_percent", json())}, {"offered_percent", r.value("offered_percent", json())}};
    add_latency(values, r.value("across_trials", json::object()));
    row(out, values);
  }
  for (const json& r : report.value("frame_loss", json::array()))
    row(out, {{"row", "result"}, {"test", "frame_loss"}, {"frame_size", r.at("frame_size")},
              {"offered_percent", r.at("offered_percent")}, {"loss_percent", r.at("loss_percent")}});
  for (const json& r : report.value("back_to_back", json::array()))
    row(out, {{"row", "result"}, {"test", "back_to_back"}, {"frame_size", r.at("frame_size")},
              {"burst_frames", r.value("mean_frames", json())}, {"note", r.value("note", "")}});
  return out;
}

}  // namespace lr::ctl
