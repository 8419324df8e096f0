// libFuzzer target: any bytes as the report.json that `linerate report` rebuilds views
// from (another version's report, a truncated one, one edited by hand). Every input gets
// its views or an error: not JSON, not a known report kind, or a value of the wrong type
// (nlohmann::json::exception, which the command reports). Nothing else may escape, and
// nothing may crash or hang. The charts' gnuplot is replaced below: what gnuplot makes of
// a script is gnuplot's business; the page around a chart that did not come is ours.
// Built with clang by scripts/fuzz.sh.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "control/views/gnuplot_svg.hpp"
#include "control/views/report_kinds.hpp"

namespace lr::ctl {

// The link-time stand-in for the real one (control/views/gnuplot_svg.cpp, not linked here).
Svg gnuplot_svg(const std::string& script, int, int) {
  if (script.empty()) __builtin_trap();  // a chart always has a script
  return {"", "not drawn while fuzzing"};
}

}  // namespace lr::ctl

// UBSan reports and goes on by default, which a fuzzing run would not count: here undefined
// behaviour ends the run as a finding, with its stack (a number beyond an integer field was one).
extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const nlohmann::json report = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (report.is_discarded()) return 0;  // "is not JSON", said by the command
  // Schemas of every kind, so that mutated reports of one kind are read by the others too.
  for (const char* schema : {"linerate.rfc2544/1", "linerate.ndr/1", "linerate.lossless/1", "linerate.rfc2889/1",
                             "linerate.optics-qualify/1"}) {
    const lr::ctl::ReportKind* kind = lr::ctl::report_kind(schema);
    if (kind == nullptr) __builtin_trap();
    try {
      (void)kind->csv(report);
      (void)kind->html(report);
    } catch (const nlohmann::json::exception&) {
      // "has a value of the wrong type", said by the command
    }
  }
  return 0;
}
