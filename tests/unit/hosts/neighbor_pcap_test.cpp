// The frames the hosts send, written to a pcap and dissected by tshark (an independent
// dissector): each message's type and flags, every IPv4, ICMP and ICMPv6 checksum Good,
// nothing malformed and no expert note. Skipped only where tshark is not installed.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lib/hosts/dad.hpp"
#include "lib/hosts/host_frames.hpp"
#include "lib/hosts/resolver.hpp"
#include "lib/hosts/responder.hpp"
#include "tests/unit/hosts/hosts_fixture.hpp"

namespace lr::hosts {
namespace {

void write_pcap(const std::string& path, const std::vector<Frame>& frames) {
  std::ofstream out(path, std::ios::binary);
  const auto u32 = [&](uint32_t v) { out.write(reinterpret_cast<const char*>(&v), 4); };
  const auto u16 = [&](uint16_t v) { out.write(reinterpret_cast<const char*>(&v), 2); };
  u32(0xA1B2C3D4);  // classic pcap, microseconds, this host's byte order
  u16(2);
  u16(4);
  u32(0);
  u32(0);
  u32(65535);
  u32(1);  // Ethernet
  for (const Frame& f : frames) {
    u32(0);
    u32(0);
    u32(static_cast<uint32_t>(f.size()));
    u32(static_cast<uint32_t>(f.size()));
    out.write(reinterpret_cast<const char*>(f.data()), static_cast<std::streamsize>(f.size()));
  }
}

std::vector<std::string> tshark_lines(const std::string& pcap) {
  const std::string fields[] = {"vlan.id",
                                "arp.opcode",
                                "ip.checksum.status",
                                "icmp.type",
                                "icmp.checksum.status",
                                "icmpv6.type",
                                "icmpv6.checksum.status",
                                "icmpv6.nd.na.flag.s",
                                "icmpv6.nd.na.flag.o",
                                "_ws.malformed",
                                "_ws.expert.severity"};
  std::string cmd = "tshark -r " + pcap + " -o ip.check_checksum:TRUE -T fields -E separator='|'";
  for (const std::string& f : fields) cmd += " -e " + f;
  std::vector<std::string> lines;
  FILE* p = popen((cmd + " 2>/dev/null").c_str(), "r");
  if (p == nullptr) return lines;
  char buf[512];
  while (fgets(buf, sizeof buf, p) != nullptr) {
    std::string line(buf);
    if (!line.empty() && line.back() == '\n') line.pop_back();
    lines.push_back(line);
  }
  pclose(p);
  return lines;
}

TEST(NeighborPcap, TsharkReadsEveryFrameTheHostsSendAsMeant) {
  if (std::system("command -v tshark >/dev/null 2>&1") != 0) GTEST_SKIP() << "tshark is not installed";
  HostTable table({test::host_spec(100)});
  const Host& h = table.host(0);
  std::vector<Frame> frames{arp_request(h, test::kPeer4), gratuitous_arp(h), dad_probe(h, h.link_local),
                            neighbor_solicitation(h, test::kHost6, test::kPeer6), unsolicited_na(h, test::kHost6)};
  table.set_state({0, Ipv6Slot::kGlobal}, AddressState::kPreferred);
  for (const auto& asked : {test::peer_arp(wire::kArpRequest, test::kPeer4, test::kHost4, 100),
                            test::peer_ns(test::kPeer6, wire::solicited_node(test::kHost6), test::kHost6, 100),
                            test::peer_ping4(test::kHost4, 100), test::peer_ping6(test::kHost6, 100)}) {
    const Response r = respond(table, asked);
    ASSERT_EQ(r.verdict, RxVerdict::kAnswered);
    frames.push_back(r.replies[0]);
  }
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("lr-hosts-pcap-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string pcap = (dir / "hosts.pcap").string();
  write_pcap(pcap, frames);
  const std::vector<std::string> lines = tshark_lines(pcap);
  std::filesystem::remove_all(dir);
  const std::vector<std::string> expected{
      "100|1|||||||||",       // ARP request for the gateway
      "100|1|||||||||",       // gratuitous ARP
      "100|||||135|1||||",    // DAD probe
      "100|||||135|1||||",    // NS for the gateway
      "100|||||136|1|0|1||",  // unsolicited NA: O only
      "100|2|||||||||",       // ARP reply
      "100|||||136|1|1|1||",  // solicited NA: S and O
      "100||1|0|1||||||",     // echo reply, IPv4 and ICMP checksums Good
      "100|||||129|1||||",    // ICMPv6 echo reply
  };
  EXPECT_EQ(lines, expected);
}

}  // namespace
}  // namespace lr::hosts
