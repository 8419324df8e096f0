#pragma once
// capture.*: captures of what a port receives into pcapng files the data plane writes
// (dataplane/capture). A capture ends with the session that started it. Thread: mgmt.
//
// Where a capture may be written: a file name alone goes into the capture directory (made
// 0700 when first needed); an absolute path only for a session on the Unix socket, whose
// peer is a process of this host that its permissions let in. A controller over TCP (another
// host's, under mutual TLS) names files in that directory and nothing else of this host.

#include <string>
#include <string_view>

#include "dataplane/engine/engine.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

/// --capture-dir's default: root's, kept across reboots, never a shared folder like /tmp.
inline constexpr std::string_view kDefaultCaptureDir = "/var/lib/linerate/captures";

/// The file `session` may write for `file` (capture.start's params.file): `capture_dir`/NAME
/// for a plain NAME, the path itself for an absolute path from the Unix socket. Throws
/// RpcError kInvalidParams saying why for anything else.
std::string capture_file_for(const Session& session, const std::string& file, const std::string& capture_dir);

void register_capture_methods(Dispatcher& d, Engine& engine, const std::string& capture_dir);

}  // namespace lr::dp
