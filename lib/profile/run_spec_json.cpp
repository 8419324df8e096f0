#include "lib/profile/run_spec_json.hpp"

#include "lib/profile/json_table.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/quantity.hpp"
#include "lib/profile/run_table.hpp"

namespace lr::profile {

using nlohmann::json;

json to_json(const api::RunSpec& run) {
  json out{{"drain", duration_text(run.drain_ns)}, {"live", run.live}};
  if (run.timeline_bin_ns != 0) out["timeline"] = duration_text(run.timeline_bin_ns);
  if (run.timeline_span_ns != 0) out["timeline_span"] = duration_text(run.timeline_span_ns);
  if (run.tx_buffers != api::TxBuffers::kAuto) out["tx_buffers"] = api::tx_buffers_name(run.tx_buffers);
  return out;
}

api::RunSpec run_spec_from_json(const json& run, const std::string& where) {
  return read_json_section(run, where, "run", "the [run] table's keys", [](TableReader& reader) {
    api::RunSpec spec;
    read_run(reader, spec);
    return spec;
  });
}

}  // namespace lr::profile
