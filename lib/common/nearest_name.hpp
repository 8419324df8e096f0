#pragma once
// The name a mistyped word most likely meant, for "did you mean ...?" in errors: the CLI's
// subcommands, a profile's keys.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lr {

/// Levenshtein distance: the single-character edits that turn `a` into `b`.
size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate `word` most likely meant: one that begins with it, else the nearest within
/// two edits (the first of equals); "" when none is that near, or `word` is a candidate.
std::string nearest_name(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace lr
