#include "lib/hosts/address_text.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

namespace lr::hosts {

std::string mac_text(const api::MacAddr& mac) {
  return fmt::format("{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
}

std::string ipv4_text(uint32_t address) {
  return fmt::format("{}.{}.{}.{}", address >> 24, (address >> 16) & 0xFF, (address >> 8) & 0xFF, address & 0xFF);
}

std::string ipv6_text(const api::Ipv6Addr& address) {
  char text[INET6_ADDRSTRLEN] = {};
  inet_ntop(AF_INET6, address.data(), text, sizeof text);
  return text;
}

std::string host_name(const api::HostSpec& host) { return fmt::format("{}[{}]", host.device, host.index); }

}  // namespace lr::hosts
