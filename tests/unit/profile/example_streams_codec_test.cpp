// Every stream of every shipped profile (config/examples/*.toml) crosses the RPC as it
// does between the two programs: its JSON form written (profile::to_json), sent as text,
// parsed, and read back (stream_spec_from_json, streams_from_json against the profile's
// own ports) to a StreamSpec equal to the one the file gave, field by field.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "lib/profile/load_toml.hpp"
#include "lib/profile/stream_spec_json.hpp"

namespace lr::profile {
namespace {

using nlohmann::json;

std::vector<std::filesystem::path> example_profiles() {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(LR_SOURCE_ROOT) + "/config/examples"))
    if (entry.path().extension() == ".toml") out.push_back(entry.path());
  return out;
}

TEST(ExampleStreamsCodec, EveryExampleStreamRoundTripsToAnEqualStruct) {
  size_t streams = 0;
  size_t paced = 0;
  const std::vector<std::filesystem::path> files = example_profiles();
  ASSERT_GE(files.size(), 10u);
  for (const std::filesystem::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    const Profile profile = load_profile_file(path.string());
    // As the wire carries it: JSON text, parsed again on the other side.
    const json sent = json::parse(to_json(profile.streams).dump());
    ASSERT_EQ(sent.size(), profile.streams.size());
    for (size_t i = 0; i < profile.streams.size(); ++i) {
      const api::StreamSpec& written = profile.streams[i];
      SCOPED_TRACE(written.name);
      api::StreamSpec read;
      ASSERT_NO_THROW(read = stream_spec_from_json(sent[i], "params", i)) << sent[i].dump();
      EXPECT_EQ(read, written) << sent[i].dump();
      EXPECT_EQ(read.rate, written.rate) << sent[i]["rate"].dump();  // the unit and the value, exactly
      ++streams;
      paced += written.rate.kind != api::RateKind::kMax ? 1 : 0;
    }
    // stream.load's reader, checked against the ports of the profile the streams came from.
    const std::vector<api::StreamSpec> loaded = streams_from_json(sent, "params", profile);
    EXPECT_EQ(loaded, profile.streams);
  }
  EXPECT_GE(streams, 25u);  // 27 when this test was written: every [[stream]] of the examples
  EXPECT_GE(paced, 10u);
}

}  // namespace
}  // namespace lr::profile
