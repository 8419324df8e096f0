// Quantities on the report pages as a person reads them: units chosen by magnitude, no
// exponents, settings labelled from their keys and shown in the unit the key names.
#include "control/reports/quantity_text.hpp"

#include <gtest/gtest.h>

namespace lr::ctl::text {
namespace {

using nlohmann::json;

TEST(QuantityText, PlainNumbersHaveNoExponentAndNoLastBits) {
  EXPECT_EQ(plain_number(23.729999999999585), "23.73");
  EXPECT_EQ(plain_number(3750000), "3750000");
  EXPECT_EQ(plain_number(0.00015), "0.00015");
  EXPECT_EQ(plain_number(1e-7), "0.0000001");
  EXPECT_EQ(plain_number(-0.5), "-0.5");
  EXPECT_EQ(plain_number(0), "0");
  EXPECT_EQ(plain_number(100.00427642832706), "100.004");
  EXPECT_EQ(plain_number(100.00427642832706, 9), "100.004276");
}

TEST(QuantityText, DurationsInTheUnitTheirMagnitudeCalls) {
  EXPECT_EQ(duration(0.00015), "150 µs");
  EXPECT_EQ(duration(0.02), "20 ms");
  EXPECT_EQ(duration(2), "2 s");
  EXPECT_EQ(duration(4.5e-8), "45 ns");
  EXPECT_EQ(duration(0.0033553920000000001), "3.35539 ms");
  EXPECT_EQ(duration(600), "10 min");
  EXPECT_EQ(duration(3725), "1 h 2 min 5 s");
  EXPECT_EQ(duration(0), "0 s");
}

TEST(QuantityText, SizesInPowersOfAThousandAndRatesInBitsPerSecond) {
  EXPECT_EQ(bytes(3.75e6), "3.75 MB");
  EXPECT_EQ(bytes(40000), "40 kB");
  EXPECT_EQ(bytes(512), "512 B");
  EXPECT_EQ(bit_rate(1e8), "100 Mbit/s");
  EXPECT_EQ(bit_rate(4e10), "40 Gbit/s");
  EXPECT_EQ(bit_rate(26945184), "26.9452 Mbit/s");
}

TEST(QuantityText, SettingsAreLabelledAndShownInTheirKeysUnit) {
  EXPECT_EQ(setting_label("trial_duration_s"), "trial duration");
  EXPECT_EQ(setting_label("quanta_tolerance_percent"), "quanta tolerance");
  EXPECT_EQ(setting_label("target_ber"), "target BER");
  EXPECT_EQ(setting_label("frame_sizes"), "frame sizes");
  EXPECT_EQ(setting_value("rest_s", json(0.02)), "20 ms");
  EXPECT_EQ(setting_value("quanta_tolerance_s", json(0.00015)), "150 µs");
  EXPECT_EQ(setting_value("headroom_bytes", json(3000000)), "3 MB");
  EXPECT_EQ(setting_value("rate_percent", json(20.0)), "20 %");
  EXPECT_EQ(setting_value("expected_speed_bps", json(5e10)), "50 Gbit/s");
  EXPECT_EQ(setting_value("rx_power_drift_db", json(1.0)), "1 dB");
  EXPECT_EQ(setting_value("target_ber", json(1e-12)), "1e-12");
  EXPECT_EQ(setting_value("headroom_delays_s", json({0.00025, 0.0005})), "250 µs, 500 µs");
  EXPECT_EQ(setting_value("tests", json::array()), "none");
  EXPECT_EQ(setting_value("frame_sizes", json({64, 128, "imix"})), "64, 128, imix");
  EXPECT_EQ(setting_value("watchdog", json{{"detect_s", 0.15}, {"action", "drop"}, {"forward", false}}),
            "action drop; detect 150 ms; forward no");
  EXPECT_EQ(setting_value("ndr_latency_p99_s", json(nullptr)), "–");
  EXPECT_EQ(setting_value("learning_frames", json(10)), "10");
}

}  // namespace
}  // namespace lr::ctl::text
