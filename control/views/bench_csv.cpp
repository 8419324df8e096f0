#include "control/views/bench_csv.hpp"

#include <fmt/format.h>

#include <array>

#include "control/reports/bench_report.hpp"

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

json or_null(const std::optional<double>& v) { return v ? json(*v) : json(); }

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
  std::string text = value.get<std::string>();
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string bench_csv(const json& json_report) {
  const bench::BenchReport report = bench::bench_report_from_json(json_report);
  std::string out;
  for (size_t i = 0; i < kColumns.size(); ++i) out += (i > 0 ? "," : "") + std::string(kColumns[i]);
  out += '\n';
  for (const bench::TrialRow& t : report.trials) {
    json values = bench::to_json(t);
    values["row"] = "trial";
    // A trial sent short that lost frames anyway is the device's fail (sending less only eases its task).
    values["verdict"] = !t.counted() ? "invalid" : t.passed ? "pass" : "fail";
    values["note"] = t.invalid_reason;
    if (t.latency_ns) add_latency(values, bench::to_json(*t.latency_ns));
    row(out, values);
  }
  for (const auto& [test, results] : {std::pair{"throughput", &report.throughput}, {"ndr", &report.ndr}, {"pdr", &report.pdr}})
    for (const bench::RateAnswer& r : *results) {
      json values = bench::to_json(r);
      values["row"] = "result";
      values["test"] = test;
      values["note"] = bench::limit_or_why(r);
      if (r.latency_ns) add_latency(values, bench::to_json(*r.latency_ns));
      row(out, values);
    }
  for (const bench::LatencyAnswer& r : report.latency) {
    json values{{"row", "result"}, {"test", "latency"}, {"frame_size", bench::to_json(r.frame_size)},
                {"rate_percent", or_null(r.rate_percent)}, {"offered_percent", or_null(r.offered_percent)}};
    if (r.across_trials) add_latency(values, bench::to_json(*r.across_trials));
    row(out, values);
  }
  for (const bench::FrameLossPoint& p : report.frame_loss) {
    row(out, {{"row", "result"}, {"test", "frame_loss"}, {"frame_size", bench::to_json(p.frame_size)},
              {"offered_percent", p.offered_percent}, {"loss_percent", p.loss_percent}});
  }
  // MLRsearch: a goal's relevant lower bound as the rate, its conditional throughput as
  // the share of line rate and pps the answer reached (the goal's name in the test column).
  for (const bench::MlrSizeAnswer& size : report.mlrsearch) {
    const json frame_size = bench::to_json(size.frame_size);
    for (const bench::MlrGoalAnswer& g : size.goals)
      row(out, {{"row", "result"}, {"test", "mlrsearch " + g.name}, {"frame_size", frame_size},
                {"rate_percent", or_null(g.relevant_lower_bound_percent)},
                {"percent_line_rate", or_null(g.conditional_throughput_percent)},
                {"pps", or_null(g.conditional_throughput_pps)},
                {"note", fmt::format("loss ratio {}, exceed ratio {}, upper bound {}{}", g.loss_ratio, g.exceed_ratio,
                                     g.relevant_upper_bound_percent ? fmt::format("{} %", *g.relevant_upper_bound_percent)
                                                                    : std::string("none"),
                                     g.note.empty() ? "" : "; " + g.note)}});
  }
  for (const bench::BackToBackAnswer& r : report.back_to_back) {
    row(out, {{"row", "result"}, {"test", "back_to_back"}, {"frame_size", bench::to_json(r.frame_size)},
              {"burst_frames", or_null(r.mean_frames)}, {"note", r.note.value_or("")}});
  }
  return out;
}

}  // namespace lr::ctl
