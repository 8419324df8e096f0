// A profile against a serving data plane's set-up: each port and switch setting that
// differs is named with both values; an unknown switch on the profile's cables counts.
#include "control/cli/setup_differences.hpp"

#include <gtest/gtest.h>

#include "lib/profile/load_toml.hpp"

namespace lr::ctl {
namespace {

constexpr const char* kProfile = R"(
[[port]]
name = "t0"
device = "cable:a"
pfc_honour = true
[[port]]
name = "t1"
device = "cable:b"
[[switch]]
name = "dut"
ports = [{ name = "s0", device = "cable:a" }, { name = "s1", device = "cable:b" }]
forward = { s0 = "s1", s1 = "s0" }
lossless = [3]
xoff = "40KB"
)";

ServedSetup served_as(const profile::Profile& p) {
  ServedSetup served;
  for (const api::PortSpec& port : p.ports) {
    api::PortReport report;
    report.name = port.name;
    report.device = port.device;
    served.ports.push_back(report);
  }
  served.port_specs = p.ports;
  served.switches = p.switches;
  return served;
}

TEST(SetupDifferences, TheSameSetUpHasNone) {
  const profile::Profile p = profile::load_profile_text(kProfile, "lab.toml");
  EXPECT_TRUE(setup_differences(p, served_as(p)).empty());
}

TEST(SetupDifferences, EachSettingThatDiffersIsNamedWithBothValues) {
  const profile::Profile p = profile::load_profile_text(kProfile, "lab.toml");
  ServedSetup served = served_as(p);
  served.port_specs[0].pfc_honour = false;
  served.switches[0].xoff_bytes = 30'000;
  served.switches[0].lossless = 0x18;
  EXPECT_EQ(setup_differences(p, served),
            (std::vector<std::string>{"port 't0': pfc_honour is true in the profile, false in the data plane",
                                      "switch 'dut': lossless is [3] in the profile, [3,4] in the data plane",
                                      "switch 'dut': xoff is 40000 in the profile, 30000 in the data plane"}));
}

TEST(SetupDifferences, ASwitchMissingOrUnknownBetweenTheProfilesPortsIsADifference) {
  const profile::Profile p = profile::load_profile_text(kProfile, "lab.toml");
  ServedSetup served = served_as(p);
  served.switches[0].name = "other";
  EXPECT_EQ(setup_differences(p, served),
            (std::vector<std::string>{"switch 'dut' is not one of the data plane's",
                                      "the data plane runs switch 'other' on cable 'a', which the profile has no "
                                      "[[switch]] for"}));
  served.switches.clear();
  served.port_specs.clear();  // a data plane that sends no specs: names and devices are still compared
  served.ports[1].device = "cable:c";
  EXPECT_EQ(setup_differences(p, served),
            (std::vector<std::string>{"port 't1': device cable:b in the profile, cable:c in the data plane",
                                      "switch 'dut' is not one of the data plane's"}));
}

// Ports by location on two data planes: west holds t0 and runs the switch, east holds t1.
constexpr const char* kFleetProfile = R"(
[[port]]
name = "t0"
location = "west:7300;p0"
pfc_honour = true
[[port]]
name = "t1"
location = "east:7300;p0"
speed = "10G"
[[switch]]
name = "dut"
ports = [{ name = "s0", device = "cable:a" }, { name = "s1", device = "net_memif0" }]
forward = { s0 = "s1", s1 = "s0" }
lossless = [3]
xoff = "40KB"
)";

std::vector<EngineSetup> fleet_as(const profile::Profile& p) {
  EngineSetup west{"west:7300", {}, {{"p0", "t0"}}}, east{"east:7300", {}, {{"p0", "t1"}}};
  api::PortReport port;
  port.name = "p0";
  port.device = "cable:a";
  west.served.ports.push_back(port);
  port.device = "net_memif0";
  port.speed_bps = 10'000'000'000;
  east.served.ports.push_back(port);
  api::PortSpec spec;  // each data plane's own [[port]]: rx_lcores and the like the profile leaves to it
  spec.name = "p0";
  spec.pfc_honour = true;
  spec.rx_lcores = {1};
  west.served.port_specs.push_back(spec);
  spec.pfc_honour = false;
  east.served.port_specs.push_back(spec);
  west.served.switches = p.switches;
  return {west, east};
}

TEST(FleetSetupDifferences, TheKeysALocatedPortSetsAndEachSwitchWhereItRuns) {
  const profile::Profile p = profile::load_profile_text(kFleetProfile, "fleet.toml");
  EXPECT_TRUE(fleet_setup_differences(p, fleet_as(p)).empty());
  std::vector<EngineSetup> fleet = fleet_as(p);
  fleet[0].served.port_specs[0].pfc_honour = false;
  fleet[1].served.ports[0].speed_bps = 25'000'000'000;
  fleet[0].served.switches[0].xoff_bytes = 30'000;
  EXPECT_EQ(fleet_setup_differences(p, fleet),
            (std::vector<std::string>{
                "port 't0' (west:7300;p0): pfc_honour is true in the profile, false in the data plane",
                "port 't1' (east:7300;p0): speed 10 Gbit/s in the profile, 25 Gbit/s in the data plane",
                "switch 'dut' (the data plane at west:7300): xoff is 40000 in the profile, 30000 in the data plane"}));
}

TEST(FleetSetupDifferences, AKeyGivenAtItsDefaultIsComparedAndOneTheDataPlaneLacksIsUnset) {
  std::string text = kFleetProfile;
  text.replace(text.find("speed = \"10G\""), 13, "speed = \"10G\"\npromiscuous = true\nmtu = 9000");
  const profile::Profile p = profile::load_profile_text(text, "fleet.toml");
  std::vector<EngineSetup> fleet = fleet_as(p);
  fleet[1].served.port_specs[0].promiscuous = false;
  EXPECT_EQ(fleet_setup_differences(p, fleet),
            (std::vector<std::string>{"port 't1' (east:7300;p0): mtu is 9000 in the profile, unset in the data plane",
                                      "port 't1' (east:7300;p0): promiscuous is true in the profile, false in the data "
                                      "plane"}));
}

TEST(FleetSetupDifferences, ASwitchWhoseCableEndsAtNoPortOfTheRunIsADifference) {
  const profile::Profile p = profile::load_profile_text(kFleetProfile, "fleet.toml");
  std::vector<EngineSetup> fleet = fleet_as(p);
  fleet[0].served.ports[0].device = "cable:z";  // west's p0 is on another cable than the switch's s0
  EXPECT_EQ(fleet_setup_differences(p, fleet),
            (std::vector<std::string>{"switch 'dut' port 's0': cable 'a' ends at no port of the run on the data plane "
                                      "at west:7300"}));
}

TEST(FleetSetupDifferences, ASwitchNoneOrTwoRunOrOneUnknownOnTheRunsCablesIsADifference) {
  const profile::Profile p = profile::load_profile_text(kFleetProfile, "fleet.toml");
  std::vector<EngineSetup> fleet = fleet_as(p);
  fleet[1].served.switches = p.switches;
  EXPECT_EQ(fleet_setup_differences(p, fleet),
            (std::vector<std::string>{"switch 'dut' is run by more than one of the run's data planes (west:7300 runs "
                                      "'dut'; east:7300 runs 'dut'): run it on one, beside ports the run uses"}));
  fleet[0].served.switches[0].name = "other";
  fleet[1].served.switches.clear();
  EXPECT_EQ(fleet_setup_differences(p, fleet),
            (std::vector<std::string>{"the data plane at west:7300 runs switch 'other' on cable 'a', which the "
                                      "profile has no [[switch]] for",
                                      "switch 'dut' is not run by any of the run's data planes (west:7300 runs "
                                      "'other'; east:7300 runs none): run it on one, beside ports the run uses"}));
}

}  // namespace
}  // namespace lr::ctl
