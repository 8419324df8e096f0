#include "control/suites/optics/ber_claim.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace lr::optics {

std::optional<BerLimit> phy_ber_limit(const std::string& fec, const std::string& rs_code) {
  if (fec == "off") return BerLimit{1e-12, "no FEC: the PHY's own objective (e.g. 40GBASE-SR4, IEEE 802.3 Clause 86): 1e-12"};
  if (fec == "rs" && rs_code == "rs528")
    return BerLimit{5e-5, "RS(528,514) (IEEE 802.3 Clause 91/108): pre-FEC BER up to 5e-5 is corrected"};
  if (fec == "rs" && rs_code == "rs544")
    return BerLimit{2.4e-4, "RS(544,514) (IEEE 802.3 Clause 91/134): pre-FEC BER up to 2.4e-4 is corrected"};
  return std::nullopt;
}

std::string rs_code_for(uint64_t speed_bps, unsigned lanes) {
  if (lanes == 0) return "";
  const uint64_t lane_gbps = speed_bps / lanes / 1'000'000'000;
  if (lane_gbps == 25) return "rs528";
  if (lane_gbps == 50 || lane_gbps == 100) return "rs544";
  return "";
}

unsigned lanes_of_link_mode(const std::string& mode) {
  // "<speed>base<media><lanes>/<duplex>": the digits right before the '/'.
  const size_t base = mode.find("base");
  if (base == std::string::npos) return 0;
  size_t end = mode.find('/', base);
  if (end == std::string::npos) end = mode.size();
  size_t begin = end;
  while (begin > base + 4 && std::isdigit(static_cast<unsigned char>(mode[begin - 1])) != 0) --begin;
  if (begin == end) return 1;
  return static_cast<unsigned>(std::stoul(mode.substr(begin, end - begin)));
}

double bits_for_claim(double ber, double confidence) { return -std::log1p(-confidence) / ber; }

double confidence_reached(double bits, uint64_t errors, double ber) {
  const double lambda = bits * ber;
  if (lambda <= 0) return 0;
  // The Poisson CDF at `errors`, summed in log space: λ^k overflows long before the terms matter.
  double cdf = 0;
  double log_term = -lambda;  // k = 0
  for (uint64_t k = 0; k <= errors; ++k) {
    if (k > 0) log_term += std::log(lambda) - std::log(static_cast<double>(k));
    cdf += std::exp(log_term);
    if (k > lambda && std::exp(log_term) < 1e-18 * cdf) break;  // the tail past the mode adds nothing
  }
  return std::clamp(1.0 - cdf, 0.0, 1.0);
}

}  // namespace lr::optics
