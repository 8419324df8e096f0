#pragma once
// Reads and validates a TOML profile. Every problem is a ConfigError that names the
// file, the line and column, the key, and why the value is refused.

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "lib/profile/profile.hpp"

namespace lr::profile {

class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string file, api::SourceLoc loc, std::string key, std::string reason);

  const std::string& file() const noexcept { return file_; }
  api::SourceLoc loc() const noexcept { return loc_; }
  const std::string& key() const noexcept { return key_; }
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string file_;
  api::SourceLoc loc_;
  std::string key_;
  std::string reason_;
};

/// The text of the profile file at `path`. Throws ConfigError when it cannot be opened.
std::string profile_file_text(const std::string& path);

/// Reads the profile at `path`. Throws ConfigError.
Profile load_profile_file(const std::string& path);

/// Reads a profile from TOML text; `path` only names it in messages. Throws ConfigError.
Profile load_profile_text(std::string_view text, const std::string& path);

/// Reads the [[stream]] tables of TOML text (a whole profile, or streams alone) against
/// a running data plane's profile: [[port]] tables in the text must name its ports, and
/// so must every stream; its ports and switches (and their cables) stand as they are, and
/// its devices (a stream with eth "auto" is checked against its hosts).
/// Other tables ([eal], [run], [[switch]]) are checked but not used.
/// Throws ConfigError naming the text's own lines.
std::vector<api::StreamSpec> load_streams_text(std::string_view text, const std::string& path, const Profile& running);

/// The [[stream]] tables of TOML text (a whole profile, or streams alone), every key of
/// every table checked but nothing against ports: for a data plane to check against its
/// own (their JSON form carries the file's lines for its errors). Throws ConfigError.
std::vector<api::StreamSpec> read_stream_tables(std::string_view text, const std::string& path);

/// The [run] table of TOML text (checked as a whole profile's sections are), or none when
/// the text has none. Throws ConfigError.
std::optional<api::RunSpec> read_run_table(std::string_view text, const std::string& path);

/// Streams read from their JSON form checked against a running data plane's ports (and,
/// eth "auto", its devices' hosts), as load_streams_text checks a profile's. Throws ConfigError.
void validate_streams(const std::vector<api::StreamSpec>& streams, const std::string& where, const Profile& running);

/// Cross-checks a parsed profile (names resolve, frames hold headers and signature,
/// lanes fit the queues, a stream with eth "auto" has its emulated host). Throws
/// ConfigError. Called by the loaders.
void validate_profile(const Profile& profile);

}  // namespace lr::profile
