#pragma once
// A stream's JSON form, the unit of stream.load: an object with the keys of a profile's
// [[stream]] table and their value forms (rate "10%", durations "250ns", addresses as
// text), so config/README.md is its schema in a file and on the wire alike. Read through
// the [[stream]] table's own reader: the same checks, the same messages.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "lib/api/stream_spec.hpp"
#include "lib/profile/profile.hpp"

namespace lr::profile {

/// Every value the spec holds, under its profile key (those a default leaves as it is
/// included; eth.src / eth.dst "auto" where the spec's flag says so), and, where the spec was read from a file, "source": {file, line, column,
/// keys: {key: [line, column]}}, so that a check made later still names the file's lines.
nlohmann::json to_json(const api::StreamSpec& stream);
nlohmann::json to_json(const std::vector<api::StreamSpec>& streams);

/// One stream from its JSON form, with the [[stream]] table's checks (not those that need
/// the ports). `where` and `index` name it in errors: "params: key 'streams[2].rate': ...".
/// Throws ConfigError.
api::StreamSpec stream_spec_from_json(const nlohmann::json& stream, const std::string& where, size_t index);

/// Streams from their JSON form (an array of objects), checked against a running data
/// plane's ports as load_streams_text checks a profile's. Throws ConfigError.
std::vector<api::StreamSpec> streams_from_json(const nlohmann::json& streams, const std::string& where,
                                               const Profile& running);

}  // namespace lr::profile
