#pragma once
// Addresses and hosts as messages write them: "02:00:00:00:00:01", "10.0.0.1",
// "2001:db8::1" (RFC 5952), "dev[3]".

#include <cstdint>
#include <string>

#include "lib/api/host_spec.hpp"

namespace lr::hosts {

std::string mac_text(const api::MacAddr& mac);
std::string ipv4_text(uint32_t address);  ///< host byte order
std::string ipv6_text(const api::Ipv6Addr& address);
/// The host's name in messages: its device and its index in the device's range.
std::string host_name(const api::HostSpec& host);

}  // namespace lr::hosts
