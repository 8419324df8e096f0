#include "lib/api/switch_report.hpp"

#include <nlohmann/json.hpp>

#include "lib/api/json_fields.hpp"

namespace lr::api {

// Every field by name, defaults for those a reader does not find.
LR_JSON_ADL(SwitchPriorityReport, priority, lossless, rx_frames, rx_bytes, tx_frames, tx_bytes, drop_tail,
            drop_headroom, drop_watchdog, pfc_xoff_sent, pfc_xon_sent, pfc_xoff_received, pfc_xon_received, ecn_marked,
            queue_watermark_bytes, group_watermark_bytes, paused_ns, storms, restorations, storm_detected_s,
            storm_restored_s)
LR_JSON_ADL(SwitchPortReport, name, device, speed_bps, shape_bps, rx_frames, rx_mac_control, pause_first_s,
            pause_last_s, rx_unroutable, rx_flooded, rx_filtered, rx_oversize, tx_pfc_frames, ecn_copy_failures,
            tx_refused, egress_lost_us, egress_busy_s, priorities)
LR_JSON_ADL(SwitchReport, name, lcore, buffer_bytes, buffer_watermark_bytes, left_in_queues, stalls, longest_stall_us,
            stalled_us, longest_stalls, mac_learned, mac_table_full, mac_entries, mac_learn_limited, mac_aged,
            input_queued, catch_up_us, ports)

LR_JSON_ADL(SwitchPortPlan, name, device, link_up, speed_bps, shape_bps, forward_to)
LR_JSON_ADL(SwitchPlan, name, lcore, learn, lossless, ports)

nlohmann::json to_json(const SwitchPlan& s) { return nlohmann::json(s); }
SwitchPlan switch_plan_from_json(const nlohmann::json& j) { return j.get<SwitchPlan>(); }
nlohmann::json to_json(const SwitchReport& s) { return nlohmann::json(s); }
SwitchReport switch_report_from_json(const nlohmann::json& j) { return j.get<SwitchReport>(); }

}  // namespace lr::api
