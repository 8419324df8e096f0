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

}  // namespace
}  // namespace lr::ctl
