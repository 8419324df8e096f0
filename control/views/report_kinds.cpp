#include "control/views/report_kinds.hpp"

#include "control/views/bench_csv.hpp"
#include "control/views/bench_html.hpp"
#include "control/views/lossless_views.hpp"
#include "control/views/qualify_html.hpp"
#include "control/views/rfc2889_views.hpp"

namespace lr::ctl {

namespace {

constexpr ReportKind kKinds[] = {{"linerate.rfc2544/", bench_html, bench_csv},
                                 {"linerate.ndr/", bench_html, bench_csv},
                                 {"linerate.lossless/", lossless_html, lossless_csv},
                                 {"linerate.rfc2889/", rfc2889_html, rfc2889_csv},
                                 {"linerate.optics-qualify/", qualify_html, qualify_summary_csv}};

}  // namespace

const ReportKind* report_kind(std::string_view schema) {
  for (const ReportKind& kind : kKinds)
    if (schema.starts_with(kind.schema_prefix)) return &kind;
  return nullptr;
}

std::string report_kind_schemas() {
  std::string out;
  for (const ReportKind& kind : kKinds) out += (out.empty() ? "" : ", ") + std::string(kind.schema_prefix) + "1";
  return out;
}

}  // namespace lr::ctl
