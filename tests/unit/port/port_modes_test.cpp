// FEC and pause modes: one enum each, one spelling, read back from their names; the FEC
// bit set the port backends translate (lib/host/port_settings.hpp) is bit n for mode n.
#include "lib/common/port_modes.hpp"

#include <gtest/gtest.h>

#include "lib/host/port_settings.hpp"

namespace lr {
namespace {

TEST(PortModes, EveryNameReadsBackAsItsMode) {
  for (const auto& [mode, name] : kFecModeNames) {
    EXPECT_EQ(name_of(mode), name);
    EXPECT_EQ(fec_mode_named(name), mode) << name;
  }
  for (const auto& [mode, name] : kPauseModeNames) {
    EXPECT_EQ(name_of(mode), name);
    EXPECT_EQ(pause_mode_named(name), mode) << name;
    EXPECT_EQ(pause_mode(pause_rx(mode), pause_tx(mode)), mode) << name;
  }
  EXPECT_EQ(fec_mode_named("RS"), std::nullopt);
  EXPECT_EQ(fec_mode_named("rs528"), std::nullopt);
  EXPECT_EQ(pause_mode_named("on"), std::nullopt);
  EXPECT_EQ(fec_mode_choices(), "off, baser, rs, llrs, auto");
  EXPECT_EQ(pause_mode_choices(), "rx, tx, both, off");
}

TEST(PortModes, FecBitsAreTheModesInOrder) {
  // The values the backends' maps (ethdev RTE_ETH_FEC_MODE_CAPA_*, the kernel's
  // ETHTOOL_FEC_*) were written against.
  EXPECT_EQ(dp::kFecOff, 1u);
  EXPECT_EQ(dp::kFecBaseR, 2u);
  EXPECT_EQ(dp::kFecRs, 4u);
  EXPECT_EQ(dp::kFecLlrs, 8u);
  EXPECT_EQ(dp::kFecAuto, 16u);
  EXPECT_EQ(dp::fec_names(dp::kFecRs | dp::kFecBaseR), "baser|rs");
  EXPECT_EQ(dp::parse_fec_mode("llrs"), dp::kFecLlrs);
  EXPECT_EQ(dp::parse_fec_mode("reed-solomon"), std::nullopt);
  EXPECT_EQ(dp::pause_text({true, true, false}), "both");
  EXPECT_EQ(dp::pause_text({false, true, true}), "tx (autoneg)");
  EXPECT_EQ(dp::pause_text({}), "off");
}

}  // namespace
}  // namespace lr
