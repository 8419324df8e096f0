#pragma once
// The host as the doctor reads it: sysfs and procfs under a root that is "/" on a real
// host and a fixture tree in the tests (or a container's view of the host, --root).
// Reads never throw: a file that is not there is nullopt, and the check that wanted it
// says SKIPPED with the path.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lr::doctor {

/// The text of a /dev/kmsg record ("PRIORITY,SEQ,USEC,FLAGS;TEXT"); none for a
/// continuation line (" KEY=VALUE") or anything else.
std::optional<std::string> kmsg_text(const std::string& record);

class HostFs {
 public:
  explicit HostFs(std::string root = "/");

  /// The file's text without the trailing newline, or nullopt.
  std::optional<std::string> read(const std::string& path) const;
  /// The file's bytes as they are (sysfs binaries: a PCI function's config space), or nullopt.
  std::optional<std::vector<uint8_t>> bytes(const std::string& path) const;
  /// The entries of a directory, sorted; empty when it is not there.
  std::vector<std::string> list(const std::string& path) const;
  /// The last component of a symlink's target ("mlx5_core" for .../driver), or nullopt.
  std::optional<std::string> link_name(const std::string& path) const;
  bool exists(const std::string& path) const;
  /// The path with every symlink followed, under the same root ("/sys/devices/pci0000:3a/
  /// 0000:3a:00.0/0000:3b:00.0" for /sys/bus/pci/devices/0000:3b:00.0), or nullopt.
  std::optional<std::string> resolved(const std::string& path) const;
  /// Every line of a file read without blocking: /dev/kmsg gives its records one per read
  /// and would wait for the next one at the end. nullopt when it cannot be opened (not
  /// root, or a container without it).
  std::optional<std::vector<std::string>> lines_now(const std::string& path) const;

 private:
  std::string at(const std::string& path) const;
  std::string root_;
};

}  // namespace lr::doctor
