#pragma once
// The profile: what the user asked for, as read from TOML and validated. Defaults are
// member initialisers; config/README.md documents every key with its unit and default.
// Its streams are the contract's StreamSpec (api/stream_spec.hpp). Linked by both programs.

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/api/capture_spec.hpp"
#include "lib/api/host_spec.hpp"
#include "lib/api/port_spec.hpp"
#include "lib/api/run_spec.hpp"
#include "lib/api/stream_spec.hpp"
#include "lib/api/switch_spec.hpp"

namespace lr::profile {

enum class HugePages : uint8_t { kAuto, kOn, kOff };

struct EalCfg {
  std::string lcores = "0-1";            ///< EAL --lcores; the first lcore is the main (mgmt) lcore
  uint32_t memory_mb = 512;              ///< EAL -m
  std::string file_prefix = "linerate"; ///< EAL --file-prefix (hugepage runs)
  HugePages huge_pages = HugePages::kAuto;  ///< auto: hugepages when /proc/meminfo has free ones
  /// EAL --huge-unlink: the hugepage files go as soon as they are mapped, so the pages
  /// return when the process ends, however it ends; false keeps them for secondary
  /// processes (dpdk-proc-info, dpdk-pdump) and removes them at exit instead.
  bool huge_unlink = true;
  bool allow_cross_numa = false;         ///< accept lcores on another socket than their port
  std::vector<std::string> extra_args;   ///< appended verbatim to the EAL arguments
};

struct ControlCfg {
  std::string socket = "/run/linerate/dataplane.sock";  ///< --serve: the control socket
  std::string group;  ///< also let members of this group connect (root and our own uid always may)
};

/// The PFC priority a stream's frames carry as its TX port sees it: the outer VLAN
/// tag's PCP, else the DSCP through the port's dscp_to_priority; none for MAC Control
/// frames and untagged frames whose DSCP the map does not name.
std::optional<uint8_t> stream_priority(const api::StreamSpec& stream, const api::PortSpec& tx_port);

/// The cable a device string names ("cable:NAME": one end of an in-process cable between
/// two ports of this data plane, tester or switch), or none.
std::optional<std::string> cable_name(std::string_view device);

struct Profile {
  std::string path;  ///< file the profile was read from, for messages
  EalCfg eal;
  api::RunSpec run;
  ControlCfg control;
  std::vector<api::PortSpec> ports;
  std::vector<api::StreamSpec> streams;
  std::vector<api::SwitchSpec> switches;
  std::vector<api::CaptureSpec> captures;  ///< [[capture]]: started with the run by whoever runs the profile
  /// [[device]]: emulated hosts; in a serving data plane's running profile, the devices
  /// device.load set last (streams with eth "auto" are checked against them)
  std::vector<api::DeviceSpec> devices;

  const api::PortSpec* find_port(const std::string& name) const noexcept;
};

/// Bytes of Ethernet/VLAN/IP/UDP headers the stream's frames carry (no FCS), with the
/// BTH and its extended header for RoCEv2; for a MAC Control stream its Ethernet header
/// and MAC Control fields.
uint16_t header_bytes(const api::StreamSpec& stream) noexcept;

/// Smallest frame (incl. FCS) that holds the stream's headers and the signature; for
/// RoCEv2 also the ICRC, with a payload of whole 4-byte words.
uint16_t min_frame_bytes(const api::StreamSpec& stream) noexcept;

/// RoCEv2: the payload bytes (signature included, ICRC not) of a frame of `frame_bytes`.
uint16_t roce_payload_bytes(const api::StreamSpec& stream, uint16_t frame_bytes) noexcept;

/// "" unless `stream` is RoCEv2 and a frame of `frame_bytes` (at least its smallest) has a
/// payload that is not whole 4-byte words; then why, and the two sizes nearest that fit.
std::string roce_frame_size_problem(const api::StreamSpec& stream, uint16_t frame_bytes);

}  // namespace lr::profile
