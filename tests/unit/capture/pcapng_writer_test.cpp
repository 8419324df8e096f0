// The pcapng writer's blocks, byte for byte: the section header with the application, an
// interface with name, description, speed and nanosecond resolution, a packet padded to
// 32 bits with its comment and direction, the statistics; and an unwritable path refused.
#include "dataplane/capture/pcapng_writer.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <vector>

namespace lr::capture {
namespace {

struct Block {
  uint32_t type = 0;
  std::vector<uint8_t> body;
};

uint32_t u32(const std::vector<uint8_t>& b, size_t at) {
  uint32_t v = 0;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

uint16_t u16(const std::vector<uint8_t>& b, size_t at) {
  uint16_t v = 0;
  std::memcpy(&v, b.data() + at, 2);
  return v;
}

// Splits the file into blocks, checking each one's two length fields agree.
std::vector<Block> blocks_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<Block> out;
  for (size_t at = 0; at < bytes.size();) {
    const uint32_t total = u32(bytes, at + 4);
    EXPECT_EQ(total % 4, 0u);
    EXPECT_EQ(u32(bytes, at + total - 4), total);
    out.push_back({u32(bytes, at), std::vector<uint8_t>(bytes.begin() + at + 8, bytes.begin() + at + total - 4)});
    at += total;
  }
  return out;
}

// The options after `from`: code -> value.
std::map<uint16_t, std::vector<uint8_t>> options_of(const std::vector<uint8_t>& body, size_t from) {
  std::map<uint16_t, std::vector<uint8_t>> out;
  for (size_t at = from; at + 4 <= body.size();) {
    const uint16_t code = u16(body, at);
    const uint16_t len = u16(body, at + 2);
    if (code == 0) break;
    out[code] = std::vector<uint8_t>(body.begin() + at + 4, body.begin() + at + 4 + len);
    at += 4 + ((len + 3u) & ~3u);
  }
  return out;
}

std::string text(const std::vector<uint8_t>& v) { return std::string(v.begin(), v.end()); }

class PcapngWriterTest : public ::testing::Test {
 protected:
  std::string path = (std::filesystem::temp_directory_path() / "lr_pcapng_writer_test.pcapng").string();
  void TearDown() override { std::filesystem::remove(path); }
};

TEST_F(PcapngWriterTest, WritesEachBlockAsTheFormatSays) {
  auto writer = PcapngWriter::create(path, "linerate 1.0", "Linux 6.1");
  ASSERT_TRUE(writer.has_value());
  EXPECT_EQ(writer->add_interface({"p0", "net_ring0 (driver net_ring)", 40'000'000'000, 1518}), 0u);
  const std::vector<uint8_t> frame{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
  writer->packet(0, 0x0000'0001'0000'0002, frame, 60, Direction::kInbound, "stream a lane 0 seq 7 latency 900 ns");
  writer->statistics(0, 0x0000'0003'0000'0004, {10, 20, 5, 1, "5 matched"});
  ASSERT_TRUE(writer->close().has_value());
  EXPECT_EQ(writer->bytes_written(), std::filesystem::file_size(path));

  const std::vector<Block> blocks = blocks_of(path);
  ASSERT_EQ(blocks.size(), 4u);
  const Block& shb = blocks[0];
  EXPECT_EQ(shb.type, 0x0A0D0D0Au);
  EXPECT_EQ(u32(shb.body, 0), 0x1A2B3C4Du);
  EXPECT_EQ(u16(shb.body, 4), 1);
  EXPECT_EQ(u16(shb.body, 6), 0);
  auto options = options_of(shb.body, 16);
  EXPECT_EQ(text(options.at(3)), "Linux 6.1");
  EXPECT_EQ(text(options.at(4)), "linerate 1.0");

  const Block& idb = blocks[1];
  EXPECT_EQ(idb.type, 1u);
  EXPECT_EQ(u16(idb.body, 0), 1);  // Ethernet
  EXPECT_EQ(u32(idb.body, 4), 1518u);
  options = options_of(idb.body, 8);
  EXPECT_EQ(text(options.at(2)), "p0");
  EXPECT_EQ(text(options.at(3)), "net_ring0 (driver net_ring)");
  uint64_t speed = 0;
  std::memcpy(&speed, options.at(8).data(), 8);
  EXPECT_EQ(speed, 40'000'000'000u);
  EXPECT_EQ(options.at(9), std::vector<uint8_t>{9});  // nanoseconds

  const Block& epb = blocks[2];
  EXPECT_EQ(epb.type, 6u);
  EXPECT_EQ(u32(epb.body, 0), 0u);  // interface
  EXPECT_EQ(u32(epb.body, 4), 1u);  // timestamp, high word first
  EXPECT_EQ(u32(epb.body, 8), 2u);
  EXPECT_EQ(u32(epb.body, 12), 17u);  // kept
  EXPECT_EQ(u32(epb.body, 16), 60u);  // on the wire
  EXPECT_EQ(std::vector<uint8_t>(epb.body.begin() + 20, epb.body.begin() + 37), frame);
  EXPECT_EQ(std::vector<uint8_t>(epb.body.begin() + 37, epb.body.begin() + 40), (std::vector<uint8_t>{0, 0, 0}));
  options = options_of(epb.body, 40);
  EXPECT_EQ(text(options.at(1)), "stream a lane 0 seq 7 latency 900 ns");
  EXPECT_EQ(u32(options.at(2), 0), 1u);  // inbound

  const Block& isb = blocks[3];
  EXPECT_EQ(isb.type, 5u);
  EXPECT_EQ(u32(isb.body, 4), 3u);
  EXPECT_EQ(u32(isb.body, 8), 4u);
  options = options_of(isb.body, 12);
  EXPECT_EQ(text(options.at(1)), "5 matched");
  EXPECT_EQ(u32(options.at(2), 0), 0u);   // start: high word, then low
  EXPECT_EQ(u32(options.at(2), 4), 10u);
  uint64_t received = 0, dropped = 0;
  std::memcpy(&received, options.at(4).data(), 8);
  std::memcpy(&dropped, options.at(5).data(), 8);
  EXPECT_EQ(received, 5u);
  EXPECT_EQ(dropped, 1u);
}

TEST_F(PcapngWriterTest, APathThatCannotBeWrittenIsRefused) {
  const auto writer = PcapngWriter::create("/nonexistent/dir/x.pcapng", "linerate", "Linux");
  ASSERT_FALSE(writer.has_value());
  EXPECT_EQ(to_string(writer.error()), "cannot write the capture file /nonexistent/dir/x.pcapng: No such file or directory");
}

}  // namespace
}  // namespace lr::capture
