#pragma once
// One Prometheus metric family in the text exposition format: HELP and TYPE once, then its
// samples, so that a page's families stay whole (promtool's rule). Shared by the data
// plane's exporter page and the optics watch's.

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace lr::ctl {

/// A label value escaped for the text format (backslash, quote, newline).
inline std::string prometheus_label_value(const std::string& value) {
  std::string out;
  for (const char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

using Labels = std::vector<std::pair<std::string, std::string>>;

class Family {
 public:
  Family(std::string name, std::string type, std::string help)
      : name_(std::move(name)), type_(std::move(type)), help_(std::move(help)) {}

  void add(const Labels& labels, double value, const std::string& suffix = "") {
    std::string text = name_ + suffix;
    if (!labels.empty()) {
      text += '{';
      for (size_t i = 0; i < labels.size(); ++i)
        text +=
            fmt::format("{}{}=\"{}\"", i == 0 ? "" : ",", labels[i].first, prometheus_label_value(labels[i].second));
      text += '}';
    }
    // The exposition format's own spellings of what fmt writes as inf and nan.
    const std::string number = std::isnan(value)   ? "NaN"
                               : std::isinf(value) ? (value > 0 ? "+Inf" : "-Inf")
                                                   : fmt::format("{}", value);
    samples_.push_back(text + " " + number);
  }

  std::string text() const {
    if (samples_.empty()) return "";
    std::string out = fmt::format("# HELP {} {}\n# TYPE {} {}\n", name_, help_, name_, type_);
    for (const std::string& s : samples_) out += s + "\n";
    return out;
  }

 private:
  std::string name_;
  std::string type_;
  std::string help_;
  std::vector<std::string> samples_;
};

}  // namespace lr::ctl
