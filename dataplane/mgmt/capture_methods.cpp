#include "dataplane/mgmt/capture_methods.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "dataplane/fastpath/capture_tap.hpp"
#include "dataplane/mgmt/rpc_result.hpp"
#include "lib/api/json_fields.hpp"
#include "lib/common/base64.hpp"

namespace lr::dp {

using api::RpcCode;
using api::RpcError;
using nlohmann::json;

namespace {

constexpr uint32_t kMinSnaplen = 64;     // Ethernet, IPv6 and UDP headers, with tags
constexpr uint32_t kMaxSnaplen = 16384;  // a jumbo frame whole
constexpr uint64_t kMaxAfter = 2048;     // with the held frames, inside a capture's pool
constexpr uint64_t kMaxReadBytes = 4 << 20;  // capture.read's piece: 5.6 MB of base64, well inside an answer

// A whole number in [min, max], or `fallback` when absent.
uint64_t optional_count(const api::Params& p, const char* key, uint64_t min, uint64_t max, uint64_t fallback) {
  if (!p.has(key)) return fallback;
  const json& v = p.raw(key);
  if (!v.is_number_unsigned() || v.get<uint64_t>() < min || v.get<uint64_t>() > max)
    throw RpcError(RpcCode::kInvalidParams,
                   fmt::format("params.{}: expected a whole number from {} to {}, found {}", key, min, max, v.dump()));
  return v.get<uint64_t>();
}

// A file name that stays in its folder: no separator, no leading dot (".", "..", hidden).
bool plain_file_name(const std::string& name) {
  constexpr size_t kMaxName = 255;  // NAME_MAX
  return !name.empty() && name.size() <= kMaxName && name.front() != '.' &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                  c == '-' || c == '+';
         });
}

// The capture directory, made 0700 where missing (captures hold whatever crossed the wire),
// and refused unless it is this data plane's alone: a real folder (no link), its user's, that
// no one else may write. Else another user could plant a link where a capture is written.
void check_capture_dir(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(dir).parent_path(), error);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw RpcError(RpcCode::kFailed,
                   fmt::format("the capture directory {} cannot be made: {}", dir, std::strerror(errno)));
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0)
    throw RpcError(RpcCode::kFailed, fmt::format("the capture directory {}: {}", dir, std::strerror(errno)));
  const char* why = !S_ISDIR(st.st_mode)       ? "not a folder (a link or a file)"
                    : st.st_uid != ::geteuid() ? "another user's"
                    : (st.st_mode & 022) != 0  ? "one others may write in"
                                               : nullptr;
  if (why != nullptr)
    throw RpcError(RpcCode::kFailed, fmt::format("the capture directory {} is {}: give --capture-dir a folder only "
                                                 "this data plane's user may write",
                                                 dir, why));
}

// A capture's file in the capture directory: a new file, or a plain file it replaces (never
// a link), and no file a running capture writes.
void check_capture_file(const Engine& engine, const std::string& file) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw RpcError(RpcCode::kInvalidParams,
                   fmt::format("params.file: {} is there already and is not a file (a link, a folder)", file));
  for (const api::CaptureReport& c : engine.capture_reports())
    if (c.state == "capturing" && c.spec.file == file)
      throw RpcError(RpcCode::kBusy, fmt::format("params.file: capture {} is writing {}: name another", c.id, file));
}

api::CaptureSpec capture_spec(const Session& session, const api::Params& p, const std::string& capture_dir) {
  api::CaptureSpec spec;
  spec.port = p.string("port");
  spec.file = capture_file_for(session, p.string("file"), capture_dir);
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

// The ended capture `id` names, for capture.read and capture.remove: by its id only, never
// a path. A controller over the network reaches only the files in the capture directory (a
// path a process of this host gave is that process's).
api::CaptureReport ended_capture(const Engine& engine, uint32_t id, const Session& session,
                                 const std::string& capture_dir) {
  const std::vector<api::CaptureReport> captures = engine.capture_reports();
  const auto it = std::find_if(captures.begin(), captures.end(), [&](const auto& c) { return c.id == id; });
  if (it == captures.end())
    throw RpcError(RpcCode::kInvalidParams,
                   fmt::format("params.id: no capture {} (capture.list lists those this data plane keeps)", id));
  if (it->state == "capturing")
    throw RpcError(RpcCode::kBusy, fmt::format("capture {} is still capturing: end it first (capture.stop)", id));
  if (!session.peer.address.empty() && std::filesystem::path(it->spec.file).parent_path() != capture_dir)
    throw RpcError(RpcCode::kInvalidParams,
                   fmt::format("params.id: capture {} was written outside the capture directory {}, where a process of "
                               "this host asked: a controller over the network reads and removes only the files there",
                               id, capture_dir));
  return *it;
}

json read_capture(const Engine& engine, const api::Params& p, const Session& session, const std::string& capture_dir) {
  const uint32_t id = capture_id(p);
  const uint64_t offset = optional_count(p, "offset", 0, uint64_t{1} << 62, 0);
  const uint64_t length = optional_count(p, "length", 1, kMaxReadBytes, kMaxReadBytes);
  const std::string file = ended_capture(engine, id, session, capture_dir).spec.file;
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in)
    throw RpcError(RpcCode::kFailed,
                   fmt::format("capture {}'s file {} cannot be read: {}", id, file, std::strerror(errno)));
  const std::streamoff end = in.tellg();
  if (end < 0) throw RpcError(RpcCode::kFailed, fmt::format("capture {}'s file {}: its size cannot be read", id, file));
  const auto size = static_cast<uint64_t>(end);
  if (offset > size)
    throw RpcError(RpcCode::kInvalidParams,
                   fmt::format("params.offset: {} is past the end of capture {}'s file ({} bytes)", offset, id, size));
  std::string bytes(std::min(length, size - offset), '\0');
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!in) throw RpcError(RpcCode::kFailed, fmt::format("capture {}'s file {}: a read failed", id, file));
  return {{"id", id}, {"size", size}, {"offset", offset}, {"data", base64_encode(bytes)}};
}

json remove_capture_file(const Engine& engine, const api::Params& p, const Session& session,
                         const std::string& capture_dir) {
  const uint32_t id = capture_id(p);
  const api::CaptureReport capture = ended_capture(engine, id, session, capture_dir);
  std::error_code error;
  const bool removed = std::filesystem::remove(capture.spec.file, error);
  if (error)
    throw RpcError(RpcCode::kFailed,
                   fmt::format("capture {}'s file {} cannot be removed: {}", id, capture.spec.file, error.message()));
  return {{"id", id}, {"file", capture.spec.file}, {"removed", removed}};
}

}  // namespace

std::string capture_file_for(const Session& session, const std::string& file, const std::string& capture_dir) {
  if (plain_file_name(file)) return (std::filesystem::path(capture_dir) / file).string();
  const bool remote = !session.peer.address.empty();
  if (remote)
    throw RpcError(RpcCode::kInvalidParams,
                   fmt::format("params.file: '{}' is not a file name: a controller over the network names a file "
                               "(letters, digits, '.', '_', '-', '+'; not starting with '.') in this data plane's "
                               "capture directory {}, never a path of its host",
                               file, capture_dir));
  if (!file.starts_with('/'))
    throw RpcError(RpcCode::kInvalidParams,
                   fmt::format("params.file: '{}' is neither an absolute path nor a file name (letters, digits, '.', "
                               "'_', '-', '+'; not starting with '.') for the capture directory {}",
                               file, capture_dir));
  return file;
}

void register_capture_methods(Dispatcher& d, Engine& engine, const std::string& capture_dir) {
  d.add("capture.start",
        "Captures what a port receives into a pcapng file, through the runs that follow, until capture.stop, its "
        "count or its duration, or the end of this session. params {port, file (a file name, written in the capture "
        "directory; or an absolute path, from the Unix socket only), filter? (tcpdump "
        "syntax), direction? (rx, tx or both; default rx), snaplen? (64-16384, default 1518), count?, duration_ns?, "
        "trigger? (loss|ooo|dup|any: only the "
        "frames of trigger_stream around the first such event in its sequence), trigger_stream?, before? (0-1024), "
        "after? (0-2048)}. Returns the capture (its id).",
        true, [&engine, capture_dir](Session& session, const api::Params& p) {
          api::CaptureSpec spec = capture_spec(session, p, capture_dir);
          if (!p.string("file").starts_with('/')) {
            check_capture_dir(capture_dir);
            check_capture_file(engine, spec.file);
          }
          return to_json(value_or_throw(engine.start_capture(spec, session.id)));
        });
  d.add("capture.stop", "Ends a capture; answers when its file is complete. params {id}. Returns the capture.", true,
        [&](Session&, const api::Params& p) { return to_json(value_or_throw(engine.stop_capture(capture_id(p)))); });
  d.add("capture.list",
        "The captures running and those that ended lately: spec, state, frames matched, captured and dropped, file "
        "bytes.",
        false, [&](Session&, const api::Params&) { return api::json_array(engine.capture_reports()); });
  d.add("capture.read",
        "A piece of an ended capture's file, for a controller on another host. params {id, offset? (default 0), "
        "length? (1-4194304, default 4194304)}. Returns {id, size (the file's bytes), offset, data (base64: the "
        "file's bytes from offset, at most length)}.",
        false, [&engine, capture_dir](Session& session, const api::Params& p) {
          return read_capture(engine, p, session, capture_dir);
        });
  d.add("capture.remove",
        "Removes an ended capture's file, for a controller that read it (capture.read) and keeps no files on this "
        "host. params {id}. Returns {id, file, removed (false: it was gone already)}.",
        true, [&engine, capture_dir](Session& session, const api::Params& p) {
          return remove_capture_file(engine, p, session, capture_dir);
        });
}

}  // namespace lr::dp
