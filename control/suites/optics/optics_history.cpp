#include "control/suites/optics/optics_history.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace lr::optics {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The older file's suffix is one no newer file has: port eth0's older ring never is the
// newer one of a port eth0.1.
fs::path newer(const fs::path& dir, const std::string& port) { return dir / (history_file_stem(port) + ".jsonl"); }
fs::path older(const fs::path& dir, const std::string& port) { return dir / (history_file_stem(port) + ".jsonl.1"); }

// A file a crash cut in the middle of a line: the line is ended, so that the next one
// appended stays whole (the reader skips the torn one).
void end_torn_line(const fs::path& file) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in || in.tellg() <= 0) return;
  in.seekg(-1, std::ios::end);
  if (in.get() != '\n') std::ofstream(file, std::ios::app) << '\n';
}

size_t count_lines(const fs::path& file) {
  std::ifstream in(file);
  size_t lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

// The lines of one file into `read`, thresholds carried forward in `thresholds`.
void read_file(const fs::path& file, HistoryRead& read, json& thresholds) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    json status = json::parse(line, nullptr, false);
    if (!status.is_object()) {
      ++read.unreadable;
      continue;
    }
    if (status.contains("module") && status["module"].is_object()) {
      json& module = status["module"];
      if (module.contains("thresholds")) thresholds = module["thresholds"];
      else module["thresholds"] = thresholds;
    }
    read.lines.push_back(std::move(status));
  }
}

}  // namespace

std::string history_file_stem(const std::string& port) {
  std::string out;
  for (const char c : port) {
    const bool kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '_' || (c == '.' && !out.empty());
    out += kept ? std::string(1, c) : fmt::format("%{:02X}", static_cast<unsigned char>(c));
  }
  return out.empty() ? "%" : out;
}

OpticsHistory::OpticsHistory(fs::path dir, size_t max_lines)
    : dir_(std::move(dir)), max_lines_(std::max<size_t>(max_lines, 2)) {}

OpticsHistory::Ring& OpticsHistory::ring(const std::string& port) {
  auto [at, added] = rings_.try_emplace(port);
  if (added) {
    at->second.lines = count_lines(newer(dir_, port));
    end_torn_line(newer(dir_, port));
  }
  return at->second;
}

std::string OpticsHistory::append(const json& status) {
  const std::string port = status.value("port", "");
  Ring& r = ring(port);
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (r.lines >= max_lines_ / 2) {
    fs::rename(newer(dir_, port), older(dir_, port), ec);
    if (ec) return fmt::format("history of {}: cannot rotate {}: {}", port, newer(dir_, port).string(), ec.message());
    r.lines = 0;
    r.thresholds.clear();  // the new file starts with them, so that it reads alone
  }
  json line = status;
  std::string thresholds, serial;
  if (line.contains("module") && line["module"].is_object()) {
    json& module = line["module"];
    thresholds = module["thresholds"].dump();
    serial = module.value("serial", "");
    if (thresholds == r.thresholds && serial == r.module_serial) module.erase("thresholds");
  }
  std::ofstream out(newer(dir_, port), std::ios::app);
  out << line.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
  out.flush();
  if (!out)
    return fmt::format("history of {}: cannot write {}: {}", port, newer(dir_, port).string(), std::strerror(errno));
  ++r.lines;
  // Only a line written carries the thresholds that the next lines leave out.
  if (!thresholds.empty()) r.thresholds = thresholds, r.module_serial = serial;
  return "";
}

HistoryRead read_history(const fs::path& dir, const std::string& port) {
  HistoryRead read;
  if (!fs::exists(newer(dir, port)) && !fs::exists(older(dir, port))) {
    read.error = fmt::format("no history of {} in {} (is `linerate optics watch --dir {}` watching it?)", port,
                             dir.string(), dir.string());
    return read;
  }
  json thresholds = json::object();
  read_file(older(dir, port), read, thresholds);
  read_file(newer(dir, port), read, thresholds);
  return read;
}

}  // namespace lr::optics
