#pragma once
// The arithmetic of a bit error ratio claim: the pre-FEC limit of the PHY in use, which
// Reed-Solomon code a link runs, how many bits a claim needs, and the confidence a
// measurement reached. Pure.

#include <cstdint>
#include <optional>
#include <string>

namespace lr::optics {

/// A pre-FEC BER bound and where it comes from.
struct BerLimit {
  double value = 0;
  std::string basis;  ///< "RS(544,514) (IEEE 802.3 Clause 91/134): 2.4e-4"
};

/// The pre-FEC BER the PHY tolerates with `fec` active ("off", "rs", "baser", "llrs") and,
/// for "rs", `rs_code` ("rs528" / "rs544"): 1e-12 without FEC, 5e-5 with RS(528,514),
/// 2.4e-4 with RS(544,514). nullopt where no single standard figure applies (BASE-R and
/// low-latency RS, or RS with the code unknown): the user sets `ber_limit`.
std::optional<BerLimit> phy_ber_limit(const std::string& fec, const std::string& rs_code);

/// The RS code a link of `speed_bps` over `lanes` electrical lanes runs: RS(544,514) on
/// 50 Gb/s (PAM4) lanes, RS(528,514) on 25 Gb/s lanes; "" when `lanes` is 0 (unknown) or
/// the lane rate is neither.
std::string rs_code_for(uint64_t speed_bps, unsigned lanes);

/// The lane count of an ethtool link mode name: "50000baseCR2/Full" -> 2,
/// "50000baseSR/Full" -> 1; 0 when the name says none.
unsigned lanes_of_link_mode(const std::string& mode);

/// Error-free bits needed to claim BER < `ber` at `confidence`: -ln(1 - confidence) / ber
/// (about 3 / ber at 95 %).
double bits_for_claim(double ber, double confidence);

/// The confidence that the true BER is below `ber` after `errors` bit errors in `bits`
/// bits (Poisson): 1 - sum_{k=0..errors} e^-λ λ^k / k!, λ = bits × ber.
double confidence_reached(double bits, uint64_t errors, double ber);

}  // namespace lr::optics
