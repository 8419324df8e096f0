#pragma once
// What `linerate otg serve` accepts at most, and the check of the strings a body holds.
// Each limit is far above a real request and keeps what reaches the data plane within
// what its control socket carries (api::kMaxRequestBytes: tests/unit/otg/otg_limits_test.cpp
// checks a config of 10,000 flows named at these limits against both). Listed, with the
// nesting bound (api::kMaxJsonDepth), in docs/reference/limits.md.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace lr::otg {

/// A request body: 64 MiB (a config of 10,000 flows with every name at its limit and
/// every header linerate reads is 19.5 MB). A longer one is answered 413 before it is read.
inline constexpr size_t kMaxBodyBytes = 64 * 1024 * 1024;
/// A request's start line and header fields: 8 KiB, as most HTTP servers (a client
/// sends a few hundred bytes). Beyond it: 431, and the connection closed.
inline constexpr size_t kMaxHeaderBytes = 8 * 1024;
/// A name (`name`, `*_name`, the items of `*_names`) or an object key: OTG leaves their
/// length open; 256 characters hold any name a person or a generator writes.
inline constexpr size_t kMaxNameChars = 256;
/// Any other string: addresses, choices, hex patterns are a few dozen characters.
inline constexpr size_t kMaxStringChars = 1024;

/// Every string and key of `body` longer than its limit, with its JSON path:
/// "flows[0].tx_rx.port.tx_name: 65536 characters, at most 256". Characters are UTF-8
/// code points. Walks with a stack of its own (no recursion), keys in the order the
/// parsed body keeps them (alphabetical).
std::vector<std::string> string_length_problems(const nlohmann::json& body);

}  // namespace lr::otg
