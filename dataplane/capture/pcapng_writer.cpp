#include "dataplane/capture/pcapng_writer.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace lr::capture {

namespace {

// Block types and option codes of the pcapng draft.
constexpr uint32_t kSectionHeader = 0x0A0D0D0A;
constexpr uint32_t kInterfaceDescription = 1;
constexpr uint32_t kInterfaceStatistics = 5;
constexpr uint32_t kEnhancedPacket = 6;
constexpr uint32_t kByteOrderMagic = 0x1A2B3C4D;
constexpr uint16_t kLinkTypeEthernet = 1;
constexpr uint16_t kOptEnd = 0;
constexpr uint16_t kOptComment = 1;
constexpr uint16_t kShbOs = 3;
constexpr uint16_t kShbUserAppl = 4;
constexpr uint16_t kIfName = 2;
constexpr uint16_t kIfDescription = 3;
constexpr uint16_t kIfSpeed = 8;
constexpr uint16_t kIfTsResol = 9;
constexpr uint8_t kNanoseconds = 9;
constexpr uint16_t kEpbFlags = 2;
constexpr uint16_t kIsbStartTime = 2;
constexpr uint16_t kIsbEndTime = 3;
constexpr uint16_t kIsbIfRecv = 4;
constexpr uint16_t kIsbIfDrop = 5;

// A block's body, little-endian as this host writes it (the byte-order magic says so).
class Body {
 public:
  template <class T>
  void put(T value) {
    const auto* at = reinterpret_cast<const uint8_t*>(&value);
    bytes_.insert(bytes_.end(), at, at + sizeof value);
  }
  void bytes(std::span<const uint8_t> data) {
    bytes_.insert(bytes_.end(), data.begin(), data.end());
    bytes_.resize((bytes_.size() + 3) & ~size_t{3}, 0);
  }
  void option(uint16_t code, std::span<const uint8_t> value) {
    if (value.empty() && code != kOptEnd) return;
    put(code);
    put(static_cast<uint16_t>(value.size()));
    bytes(value);
  }
  void option(uint16_t code, std::string_view text) {
    option(code, std::span(reinterpret_cast<const uint8_t*>(text.data()), std::min<size_t>(text.size(), 65535)));
  }
  template <class T>
  void option_value(uint16_t code, T value) {
    option(code, std::span(reinterpret_cast<const uint8_t*>(&value), sizeof value));
  }
  // A timestamp as pcapng writes it: the high 32 bits, then the low.
  void timestamp(uint64_t ns) {
    put(static_cast<uint32_t>(ns >> 32));
    put(static_cast<uint32_t>(ns));
  }
  void end_options() {
    put(kOptEnd);
    put(uint16_t{0});
  }
  std::span<const uint8_t> view() const noexcept { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

uint64_t swapped_halves(uint64_t ns) { return (ns >> 32) | (ns << 32); }

}  // namespace

Result<PcapngWriter> PcapngWriter::create(const std::string& path, std::string_view application, std::string_view os) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return make_error(Errc::kInvalid, fmt::format("cannot write the capture file {}", path), errno);
  PcapngWriter writer(std::unique_ptr<std::FILE, FileCloser>(f), path);
  Body body;
  body.put(kByteOrderMagic);
  body.put(uint16_t{1});  // major version
  body.put(uint16_t{0});  // minor version
  body.put(int64_t{-1});  // section length: not given
  body.option(kShbOs, os);
  body.option(kShbUserAppl, application);
  body.end_options();
  writer.block(kSectionHeader, body.view());
  if (auto ok = writer.flush(); !ok) return std::unexpected(ok.error());
  return writer;
}

uint32_t PcapngWriter::add_interface(const PcapngInterface& interface) {
  Body body;
  body.put(kLinkTypeEthernet);
  body.put(uint16_t{0});
  body.put(interface.snaplen);
  body.option(kIfName, interface.name);
  body.option(kIfDescription, interface.description);
  if (interface.speed_bps != 0) body.option_value(kIfSpeed, interface.speed_bps);
  body.option_value(kIfTsResol, kNanoseconds);
  body.end_options();
  block(kInterfaceDescription, body.view());
  return interfaces_++;
}

void PcapngWriter::packet(uint32_t interface, uint64_t utc_ns, std::span<const uint8_t> data, uint32_t wire_bytes,
                          Direction direction, std::string_view comment) {
  Body body;
  body.put(interface);
  body.timestamp(utc_ns);
  body.put(static_cast<uint32_t>(data.size()));
  body.put(wire_bytes);
  body.bytes(data);
  body.option(kOptComment, comment);
  if (direction != Direction::kUnknown) body.option_value(kEpbFlags, static_cast<uint32_t>(direction));
  body.end_options();
  block(kEnhancedPacket, body.view());
}

void PcapngWriter::statistics(uint32_t interface, uint64_t utc_ns, const PcapngStatistics& stats) {
  Body body;
  body.put(interface);
  body.timestamp(utc_ns);
  body.option(kOptComment, stats.comment);
  if (stats.start_ns != 0) body.option_value(kIsbStartTime, swapped_halves(stats.start_ns));
  if (stats.end_ns != 0) body.option_value(kIsbEndTime, swapped_halves(stats.end_ns));
  body.option_value(kIsbIfRecv, stats.received);
  body.option_value(kIsbIfDrop, stats.dropped);
  body.end_options();
  block(kInterfaceStatistics, body.view());
}

void PcapngWriter::block(uint32_t type, std::span<const uint8_t> body) {
  const uint32_t total = static_cast<uint32_t>(body.size()) + 12;
  std::fwrite(&type, sizeof type, 1, file_.get());
  std::fwrite(&total, sizeof total, 1, file_.get());
  std::fwrite(body.data(), 1, body.size(), file_.get());
  std::fwrite(&total, sizeof total, 1, file_.get());
  bytes_ += total;
}

Result<void> PcapngWriter::flush() {
  if (std::fflush(file_.get()) != 0 || std::ferror(file_.get()) != 0)
    return make_error(Errc::kInvalid, fmt::format("cannot write the capture file {}", path_), errno);
  return {};
}

Result<void> PcapngWriter::close() {
  auto ok = flush();
  std::FILE* f = file_.release();
  if (f != nullptr && std::fclose(f) != 0 && ok)
    return make_error(Errc::kInvalid, fmt::format("cannot close the capture file {}", path_), errno);
  return ok;
}

}  // namespace lr::capture
