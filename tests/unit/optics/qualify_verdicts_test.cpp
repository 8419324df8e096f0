// Optics qualification's verdicts from recorded series: mlx5 counter names (`ethtool -S`),
// the kernel's FEC statistics per lane and an SFF-8636 EEPROM whose live values change
// per sample, all replayed through the kernel-interface fake and read the way the port
// reads them. Each criterion passes on the good series and fails (or warns) on the one
// that violates it.

#include "control/suites/optics/qualify_verdicts.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "control/suites/optics/ber_claim.hpp"
#include "control/suites/optics/qualify_section.hpp"
#include "lib/host/kernel/kernel_netdev.hpp"
#include "tests/support/fake_kernel_io.hpp"
#include "tests/unit/module/sff8636_image.hpp"

namespace lr::optics {
namespace {

class QualifyReplay : public ::testing::Test {
 protected:
  QualifyReplay() {
    image.bytes()[10] = 0;                 // no latched flags
    set_rx_power_mw(3, 0.6);               // the image's weak lane 3, healthy here
    io.stats = {{"rx_packets_phy", 0}, {"rx_crc_errors_phy", 0}, {"link_down_events_phy", 0}};
    io.fec_corrected = {}, io.fec_uncorrectable = {}, io.fec_corrected_bits = {};
    e.port = "p0";
    e.link_up = true;
    e.speed_bps = 50'000'000'000;
    e.lanes = 2;  // 50GBASE-CR2: 25 Gb/s lanes, RS(528,514)
    e.fec_active = "rs";
    e.streams_received = 1;
    e.target_pps = e.achieved_pps = 4'000'000;
  }

  void set_rx_power_mw(int lane, double mw) { image.be16(34 + 2 * (lane - 1), static_cast<uint16_t>(std::lround(mw * 1e4))); }
  void set_temperature(double c) { image.be16(22, static_cast<uint16_t>(static_cast<int16_t>(std::lround(c * 256)))); }
  void set_stat(const std::string& name, uint64_t value) {
    for (auto& [n, v] : io.stats)
      if (n == name) v = value;
  }

  // One sample as qualification takes it: counters and EEPROM through the kernel netdev.
  void take(double t) {
    const auto& b = image.bytes();
    io.eeprom_pages[{0x50, 0, 0}] = {b.begin(), b.begin() + 128};
    for (uint8_t page = 0; page < upper_pages; ++page)
      io.eeprom_pages[{0x50, page, 128}] = {b.begin() + 128 + 128 * page, b.begin() + 256 + 128 * page};
    QualifySample s;
    s.t_s = t;
    std::vector<dp::NamedCounter> counters = netdev.ethtool_stats().value();
    const std::vector<dp::NamedCounter> fec = netdev.fec_stats().value();
    counters.insert(counters.end(), fec.begin(), fec.end());
    s.counters = canonical_counters(counters);
    const auto link = netdev.link();
    s.link_up = link && link->up;
    s.speed_mbps = s.link_up ? link->speed_mbps : 0;
    const module::DecodedModule decoded = module::decode_module(netdev.module_eeprom().value());
    s.monitors = module_monitors(decoded);
    if (!e.module) e.module = decoded;
    e.samples.push_back(std::move(s));
  }

  // 60 s at 50G (3e12 bits: just enough to claim 1e-12 at 95 %), a sample a second.
  // `each_second` changes the recorded state before the sample of second t.
  template <class Change>
  PortVerdict replay(Change each_second) {
    for (int t = 0; t <= 60; ++t) {
      // A healthy link: 1e5 corrected bits a second (pre-FEC BER 2e-6) spread over the lanes.
      io.fec_corrected_bits = {uint64_t(t) * 100000, uint64_t(t) * 25000, uint64_t(t) * 25000, uint64_t(t) * 25000,
                               uint64_t(t) * 25000};
      io.fec_corrected = {uint64_t(t) * 900, uint64_t(t) * 225, uint64_t(t) * 225, uint64_t(t) * 225, uint64_t(t) * 225};
      set_stat("rx_packets_phy", uint64_t(t) * 4'000'000);
      each_second(t);
      take(t);
    }
    e.frames_sent = e.frames_received = 240'000'000;
    return judge_port(e, cfg);
  }
  PortVerdict replay() {
    return replay([](int) {});
  }

  static const Criterion& criterion(const PortVerdict& v, const std::string& name) {
    for (const Criterion& c : v.criteria)
      if (c.name == name) return c;
    throw std::runtime_error("no criterion " + name);
  }

  test::FakeKernelIo io;
  dp::KernelNetdev netdev{"eth9", io};
  module::test::Sff8636Image image;
  uint8_t upper_pages = 4;  ///< the module's upper pages 00h-03h; 1: page 00h only (no thresholds)
  PortEvidence e;
  optics::QualifyCfg cfg;
};

TEST_F(QualifyReplay, AGoodSeriesPassesEveryCriterion) {
  const PortVerdict v = replay();
  for (const Criterion& c : v.criteria) EXPECT_EQ(c.verdict, Verdict::kPass) << c.name << ": " << c.measured << " / " << c.note;
  EXPECT_EQ(v.verdict, Verdict::kPass);
  EXPECT_DOUBLE_EQ(v.bits, 3e12);
  EXPECT_EQ(criterion(v, "module").measured, "ACME OPTICS QSFP28-SR4 rev A0 s/n QSN42");
  const Criterion& ber = criterion(v, "pre_fec_ber");
  EXPECT_DOUBLE_EQ(*ber.value, 6e6 / 3e12);  // 1e5 corrected bits a second for 60 s
  EXPECT_EQ(ber.bound, "≤ 5.00e-05");
  EXPECT_NE(ber.note.find("margin 1.4 decades"), std::string::npos) << ber.note;
  EXPECT_NE(ber.note.find("RS(528,514)"), std::string::npos);
  EXPECT_NEAR(*criterion(v, "ber_confidence").value, 1 - std::exp(-3.0), 1e-9);
}

TEST_F(QualifyReplay, OneUncorrectableBlockFails) {
  const PortVerdict v = replay([&](int t) {
    if (t >= 30) io.fec_uncorrectable = {1, 0, 1, 0, 0};  // lane 1 (the second)
  });
  const Criterion& c = criterion(v, "fec_uncorrectable");
  EXPECT_EQ(c.verdict, Verdict::kFail);
  EXPECT_EQ(c.measured, "1 blocks (lane 1: 1)");
  EXPECT_EQ(criterion(v, "ber_confidence").verdict, Verdict::kFail);  // an error reached the MAC
  EXPECT_EQ(v.verdict, Verdict::kFail);
}

TEST_F(QualifyReplay, PreFecBerAboveTheRsLimitFails) {
  const PortVerdict v = replay([&](int t) {
    io.fec_corrected_bits[0] = uint64_t(t) * 3'500'000;  // 3.5e6 / 50e9 = 7e-5 > 5e-5
  });
  const Criterion& c = criterion(v, "pre_fec_ber");
  EXPECT_EQ(c.verdict, Verdict::kFail);
  EXPECT_DOUBLE_EQ(*c.value, 7e-5);
  EXPECT_NE(c.note.find("margin -0.1 decades"), std::string::npos) << c.note;
}

TEST_F(QualifyReplay, ThePam4CodeHasTheLooserLimit) {
  e.lanes = 1;  // 50GBASE-CR: one 50 Gb/s PAM4 lane, RS(544,514)
  const PortVerdict v = replay([&](int t) { io.fec_corrected_bits[0] = uint64_t(t) * 3'500'000; });
  EXPECT_EQ(criterion(v, "pre_fec_ber").verdict, Verdict::kPass);
  EXPECT_EQ(criterion(v, "pre_fec_ber").bound, "≤ 2.40e-04");
}

TEST_F(QualifyReplay, WithoutFecOneBitErrorPassesTheLimitButNotTheClaim) {
  e.fec_active = "off";
  io.stats.push_back({"rx_err_lane_0_phy", 0});
  const PortVerdict v = replay([&](int t) {
    if (t == 45) set_stat("rx_err_lane_0_phy", 1);
  });
  const Criterion& ber = criterion(v, "pre_fec_ber");
  EXPECT_EQ(ber.verdict, Verdict::kPass);  // 1 / 3e12 is under 1e-12
  EXPECT_DOUBLE_EQ(*ber.value, 1 / 3e12);
  const Criterion& claim = criterion(v, "ber_confidence");
  EXPECT_EQ(claim.verdict, Verdict::kFail);  // 1 - e^-3 (1 + 3) = 80 %
  EXPECT_NEAR(*claim.value, 1 - std::exp(-3.0) * 4, 1e-9);
  EXPECT_EQ(criterion(v, "fec_uncorrectable").verdict, Verdict::kSkipped);
  EXPECT_TRUE(v.unmeasured.empty());  // without FEC, the pre-FEC BER carries the errors
  EXPECT_EQ(v.verdict, Verdict::kFail);
}

TEST_F(QualifyReplay, RxPowerDriftingTwoDecibelsFails) {
  const PortVerdict v = replay([&](int t) { set_rx_power_mw(2, 0.6 / std::pow(10, 0.2 * t / 60.0)); });
  const Criterion& c = criterion(v, "power_drift");
  EXPECT_EQ(c.verdict, Verdict::kFail);
  EXPECT_NEAR(*c.value, 2.0, 0.01);  // the EEPROM's 0.1 µW steps
  EXPECT_NE(c.measured.find("rx_power[2]"), std::string::npos) << c.measured;
}

TEST_F(QualifyReplay, HalfADecibelOfDriftPasses) {
  const PortVerdict v = replay([&](int t) { set_rx_power_mw(2, 0.6 / std::pow(10, 0.05 * t / 60.0)); });
  EXPECT_EQ(criterion(v, "power_drift").verdict, Verdict::kPass);
}

TEST_F(QualifyReplay, ALinkFlapFailsAndSaysWhen) {
  const PortVerdict v = replay([&](int t) { io.carrier = t != 20; });
  const Criterion& c = criterion(v, "link_stability");
  EXPECT_EQ(c.verdict, Verdict::kFail);
  EXPECT_NE(c.note.find("first down 20.0 s into the traffic"), std::string::npos) << c.note;
  EXPECT_DOUBLE_EQ(v.seconds_up, 58);  // the two intervals around the drop carry no bits
}

TEST_F(QualifyReplay, AFlapBetweenSamplesIsCaughtByTheLinkDownCounter) {
  const PortVerdict v = replay([&](int t) {
    if (t >= 33) set_stat("link_down_events_phy", 1);
  });
  EXPECT_EQ(criterion(v, "link_stability").verdict, Verdict::kFail);
}

TEST_F(QualifyReplay, TemperatureBeyondItsAlarmFailsAndBreaksTheRuleOfThumb) {
  const PortVerdict v = replay([&](int t) { set_temperature(t < 50 ? 45 : 76); });
  const Criterion& c = criterion(v, "module_thresholds");
  EXPECT_EQ(c.verdict, Verdict::kFail);
  EXPECT_EQ(c.measured, "temperature 76.00 C beyond its high alarm 75.00 C at 50.0 s");
  EXPECT_EQ(criterion(v, "field_rules").verdict, Verdict::kWarn);
  EXPECT_EQ(criterion(v, "field_rules").measured, "temperature 76.0 °C above 75 °C");
}

TEST_F(QualifyReplay, AWarningThresholdWarns) {
  const PortVerdict v = replay([&](int) { set_temperature(72); });  // high warning 70, alarm 75
  EXPECT_EQ(criterion(v, "module_thresholds").verdict, Verdict::kWarn);
  EXPECT_EQ(v.verdict, Verdict::kWarn);
}

TEST_F(QualifyReplay, CrcErrorsAndLostFramesFail) {
  e.frames_lost = 3;
  const PortVerdict v = replay([&](int t) { set_stat("rx_crc_errors_phy", t >= 10 ? 2 : 0); });
  EXPECT_EQ(criterion(v, "crc_errors").verdict, Verdict::kFail);
  EXPECT_EQ(criterion(v, "crc_errors").measured, "2");
  EXPECT_EQ(criterion(v, "frame_loss").verdict, Verdict::kFail);
  EXPECT_EQ(criterion(v, "frame_loss").measured, "3 lost of 240000000 sent");
}

TEST_F(QualifyReplay, LossTheTestersOwnRxCouldHaveCausedIsNotJudgedAndQualifiesNothing) {
  // Every lost frame counted as missed by this port's RX ring: the tester's.
  e.frames_lost = 3;
  e.rx_missed = 3;
  PortVerdict v = replay();
  EXPECT_EQ(criterion(v, "frame_loss").verdict, Verdict::kSkipped);
  EXPECT_EQ(criterion(v, "frame_loss").note,
            "not judged: 3 lost of 240000000 sent, and this port's RX ring could not take in 3 frames (imissed + "
            "rx_nombuf): the tester's loss, not the module's");
  EXPECT_EQ(v.verdict, Verdict::kIncomplete);
  EXPECT_EQ(v.unmeasured, std::vector<std::string>{"frame_loss"});
  // More lost than missed: the rest are the module's.
  e.frames_lost = 5;
  v = judge_port(e, cfg);
  EXPECT_EQ(criterion(v, "frame_loss").verdict, Verdict::kFail);
  EXPECT_NE(criterion(v, "frame_loss").note.find("3 of the lost may be the tester's"), std::string::npos);
  // No miss counted, but a tester lcore held up 1 ms or more while frames were lost: a
  // driver without imissed (af_packet) would not show its ring overflowing.
  e.rx_missed = 0;
  e.tester_stall_us = 8078;
  e.tester_stall_at_s = 0.595;
  e.tester_stall_lcore = 2;
  v = judge_port(e, cfg);
  EXPECT_EQ(criterion(v, "frame_loss").verdict, Verdict::kSkipped);
  EXPECT_EQ(criterion(v, "frame_loss").note,
            "not judged: 5 lost of 240000000 sent while the host held tester lcore 2 up for 8078 us at 0.595 s, and the "
            "port counted no RX miss (a driver such as af_packet counts none): the loss cannot be told from the "
            "tester's. Run again on a quieter host");
  EXPECT_EQ(v.verdict, Verdict::kIncomplete);
  // A shorter stall, or no loss, changes nothing.
  e.tester_stall_us = 999;
  EXPECT_EQ(criterion(judge_port(e, cfg), "frame_loss").verdict, Verdict::kFail);
  e.frames_lost = 0;
  e.tester_stall_us = 8078;
  EXPECT_EQ(criterion(judge_port(e, cfg), "frame_loss").verdict, Verdict::kPass);
}

TEST_F(QualifyReplay, ATesterShortOfTheAskedLoadSaysItWasTheLimit) {
  e.achieved_pps = 3'000'000;
  const PortVerdict v = replay();
  const Criterion& c = criterion(v, "offered_load");
  EXPECT_EQ(c.verdict, Verdict::kWarn);
  EXPECT_EQ(c.measured, "75.0 % of the asked 4000000 frames/s");
  EXPECT_NE(c.note.find("the tester was the limit"), std::string::npos);
}

TEST_F(QualifyReplay, TooShortARunWarnsThatTheClaimNeedsMoreBits) {
  cfg.target_ber = 1e-13;  // ten times the bits
  const PortVerdict v = replay();
  const Criterion& c = criterion(v, "ber_confidence");
  EXPECT_EQ(c.verdict, Verdict::kWarn);
  EXPECT_NE(c.note.find("about 540 s more"), std::string::npos) << c.note;  // (3.0e13 - 3e12 bits) / 50 Gb/s
}

TEST_F(QualifyReplay, AnExpectedFecOrSpeedNotActiveFails) {
  cfg.fec = "baser";
  cfg.speed_bps = 40'000'000'000;
  const PortVerdict v = replay();
  EXPECT_EQ(criterion(v, "fec_mode").verdict, Verdict::kFail);
  EXPECT_EQ(criterion(v, "link_speed").verdict, Verdict::kFail);
  EXPECT_EQ(criterion(v, "link_speed").measured, "up at 50 Gb/s");
}

TEST_F(QualifyReplay, WhatThePortCannotSayIsSkippedWithTheReasonNeverPassed) {
  // A netdev with no FEC statistics, no counters of its own and no module: veth.
  PortEvidence bare;
  bare.port = "p1";
  bare.link_up = true;
  bare.speed_bps = 10'000'000'000;
  bare.module_error = "module EEPROM read is not supported by veth";
  bare.fec_error = "FEC get is not supported by veth";
  for (int t = 0; t < 3; ++t) bare.samples.push_back({.t_s = double(t), .link_up = true, .speed_mbps = 10000, .counters = {}, .monitors = {}});
  const PortVerdict v = judge_port(bare, cfg);
  for (const char* name : {"module", "fec_mode", "fec_uncorrectable", "pre_fec_ber", "ber_confidence", "frame_loss",
                           "offered_load", "crc_errors", "module_thresholds", "power_drift", "field_rules"}) {
    EXPECT_EQ(criterion(v, name).verdict, Verdict::kSkipped) << name;
    EXPECT_FALSE(criterion(v, name).note.empty()) << name;
  }
  EXPECT_NE(criterion(v, "module").note.find("not supported by veth"), std::string::npos);
  EXPECT_EQ(criterion(v, "fec_uncorrectable").note, "the driver has no uncorrectable-block counter");
  // Nothing failed, and nothing qualification rests on was measured: not a PASS.
  EXPECT_EQ(v.verdict, Verdict::kIncomplete);
  EXPECT_EQ(v.unmeasured,
            (std::vector<std::string>{"module", "fec_mode", "fec_uncorrectable", "pre_fec_ber", "ber_confidence"}));
  EXPECT_STREQ(verdict_name(v.verdict), "INCOMPLETE");
  // A failure is a failure, whatever else is missing.
  bare.link_drops.push_back({.t_s = 1.5, .at = "", .seen_by = "link poll"});
  EXPECT_EQ(judge_port(bare, cfg).verdict, Verdict::kFail);
}

TEST_F(QualifyReplay, AModuleWithoutDiagnosticsOrThresholdsIsSkippedNotPassed) {
  // A module with upper page 00h only (no page 03h): monitors without thresholds.
  upper_pages = 1;
  PortVerdict v = replay();
  EXPECT_EQ(criterion(v, "module_thresholds").verdict, Verdict::kSkipped);
  EXPECT_EQ(criterion(v, "module_thresholds").note, "the module sets no alarm or warning thresholds");
  // No monitors at all (a module without DDM): every monitor criterion says so.
  for (QualifySample& s : e.samples) s.monitors.clear();
  v = judge_port(e, cfg);
  for (const char* name : {"module_thresholds", "power_drift", "field_rules"}) EXPECT_EQ(criterion(v, name).verdict, Verdict::kSkipped) << name;
  EXPECT_EQ(criterion(v, "module_thresholds").note, "the module has no diagnostics (DDM)");
  EXPECT_EQ(criterion(v, "module").verdict, Verdict::kPass);
  EXPECT_TRUE(v.unmeasured.empty());  // a module without DDM is qualified on its error counts
  EXPECT_NE(v.verdict, Verdict::kIncomplete);
}

TEST(BerClaim, BitsAndConfidence) {
  EXPECT_NEAR(bits_for_claim(1e-12, 0.95) / 40e9, 74.9, 0.05);  // the 75 s at 40G
  EXPECT_NEAR(confidence_reached(3e12, 0, 1e-12), 1 - std::exp(-3.0), 1e-12);
  EXPECT_NEAR(confidence_reached(1e13, 2, 1e-12), 1 - std::exp(-10.0) * (1 + 10 + 50), 1e-12);
  EXPECT_NEAR(confidence_reached(1e6, 5000, 1e-3), 0.0, 1e-9);  // far more errors than the claim allows
  EXPECT_EQ(confidence_reached(0, 0, 1e-12), 0);
}

TEST(BerClaim, CodesAndLimitsByLaneRate) {
  EXPECT_EQ(rs_code_for(50'000'000'000, 2), "rs528");
  EXPECT_EQ(rs_code_for(50'000'000'000, 1), "rs544");
  EXPECT_EQ(rs_code_for(100'000'000'000, 4), "rs528");
  EXPECT_EQ(rs_code_for(50'000'000'000, 0), "");
  EXPECT_EQ(lanes_of_link_mode("50000baseCR2/Full"), 2u);
  EXPECT_EQ(lanes_of_link_mode("50000baseSR/Full"), 1u);
  EXPECT_EQ(lanes_of_link_mode("40000baseSR4/Full"), 4u);
  EXPECT_EQ(lanes_of_link_mode("Autoneg"), 0u);
  EXPECT_DOUBLE_EQ(phy_ber_limit("off", "")->value, 1e-12);
  EXPECT_DOUBLE_EQ(phy_ber_limit("rs", "rs528")->value, 5e-5);
  EXPECT_DOUBLE_EQ(phy_ber_limit("rs", "rs544")->value, 2.4e-4);
  EXPECT_FALSE(phy_ber_limit("rs", ""));
  EXPECT_FALSE(phy_ber_limit("baser", ""));
}

}  // namespace
}  // namespace lr::optics
