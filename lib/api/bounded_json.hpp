#pragma once
// JSON from a client, read with a bound on its nesting. nlohmann's DOM is copied,
// compared and printed by recursion, so a body nested 100,000 deep ends a process in
// SIGSEGV on its stack however the parser reads it; a text nested deeper than the bound
// is refused before a tree is built. The check is one pass over the bytes (strings and
// their escapes skipped), so the refusal names the byte where the bound is crossed,
// which nlohmann's SAX events cannot (they carry no position).
//
// The bound: kMaxJsonDepth levels. An OTG config nests about a dozen deep, a
// stream.load request about ten; 64 is far above both and far below the stack (a copy
// of a 64-deep tree takes a few KiB). Every place client JSON enters reads through here:
// the OTG server's bodies and the control socket's request lines (docs/reference/limits.md).

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lr::api {

inline constexpr size_t kMaxJsonDepth = 64;

/// A text nested deeper than the bound; what() is "JSON nested deeper than 64 levels
/// at byte N" (N from 1, the bracket that opens level 65).
class JsonTooDeep : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// The refusal for `text`, when an array or object in it opens level `max_depth` + 1;
/// none otherwise (whether or not the text is valid JSON: the parser says that).
std::optional<std::string> json_depth_problem(std::string_view text, size_t max_depth = kMaxJsonDepth);

/// json::parse(text) once the depth is checked. Throws JsonTooDeep, or
/// nlohmann::json::parse_error for text that is not JSON.
nlohmann::json parse_bounded_json(std::string_view text, size_t max_depth = kMaxJsonDepth);

}  // namespace lr::api
