// [qualify]: defaults, what each key parses to, and a section that cannot work refused at
// its key, with the file's line.
#include "control/suites/optics/qualify_section.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "lib/profile/load_toml.hpp"

namespace lr::optics {
namespace {

using profile::ConfigError;

constexpr const char* kMinimal = R"(
[[port]]
name = "p0"
device = "net_ring0"
)";

std::optional<QualifyCfg> load_qualify(const std::string& text) {
  return read_qualify_section(profile::load_profile_text(text, "test.toml"), text);
}

// The ConfigError message for `text`, or "(accepted)".
std::string qualify_refusal(const std::string& text) {
  try {
    load_qualify(text);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "(accepted)";
}

// [qualify]: defaults, what each key parses to, and a section that cannot work refused at its key.
TEST(QualifySection, DefaultsKeysAndRefusals) {
  const std::string base = std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\nrx_port = \"p0\"\n";
  const std::optional<QualifyCfg> defaults = load_qualify(base + "[qualify]\n");
  ASSERT_TRUE(defaults);
  EXPECT_EQ(defaults->duration_ns, 0u);  // auto
  EXPECT_DOUBLE_EQ(defaults->rate_percent, 100);
  EXPECT_DOUBLE_EQ(defaults->target_ber, 1e-12);
  EXPECT_EQ(defaults->interval_ns, 1'000'000'000u);
  const std::optional<QualifyCfg> set = load_qualify(base + "[qualify]\nports = [\"p0\"]\nspeed = \"50G\"\nfec = \"rs\"\nset_fec = true\n"
                                  "fec_code = \"rs544\"\nrate = \"90%\"\nduration = \"75s\"\nber_limit = 1e-5\n");
  EXPECT_EQ(set->speed_bps, 50'000'000'000u);
  EXPECT_EQ(set->fec, "rs");
  EXPECT_TRUE(set->set_fec);
  EXPECT_EQ(set->fec_code, "rs544");
  EXPECT_DOUBLE_EQ(set->rate_percent, 90);
  EXPECT_EQ(set->duration_ns, 75'000'000'000u);
  EXPECT_DOUBLE_EQ(set->ber_limit, 1e-5);
  EXPECT_EQ(qualify_refusal(base + "[qualify]\nrate = \"1Mpps\"\n"),
            "test.toml:10:8: key 'qualify.rate': expected a share of line rate, e.g. '100%'");
  EXPECT_EQ(qualify_refusal(base + "[qualify]\nfec_code = \"rs272\"\n"),
            "test.toml:10:12: key 'qualify.fec_code': 'rs272' is not rs528 (RS(528,514)) or rs544 (RS(544,514))");
  EXPECT_EQ(qualify_refusal(base + "[qualify]\ninterval = \"10ms\"\n"),
            "test.toml:10:12: key 'qualify.interval': sample at most every 100ms (the module's monitors update slower)");
  EXPECT_EQ(qualify_refusal(base + "[qualify]\nconfidence = 1.5\n"), "test.toml:10:14: key 'qualify.confidence': 1.5 is out of range [0.5, 0.9999]");
  EXPECT_EQ(qualify_refusal(std::string(kMinimal) + "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\n[qualify]\nports = [\"p0\"]\n"),
            "test.toml:9:9: key 'qualify.ports': no stream is received on port 'p0': add a [[stream]] "
                               "with rx_port = \"p0\" (its own tx_port for a looped-back module)");
  EXPECT_FALSE(load_qualify(base));  // no section: none
}

TEST(QualifySection, ShippedExamplesRead) {
  for (const char* name : {"optics_qualify.toml", "veth_af_packet.toml"}) {
    const std::string path = std::string(LR_SOURCE_ROOT) + "/config/examples/" + name;
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    std::optional<QualifyCfg> read;
    EXPECT_NO_THROW(read = read_qualify_section(profile::load_profile_file(path), text.str())) << path;
    EXPECT_TRUE(read) << path;
  }
}

}  // namespace
}  // namespace lr::optics
