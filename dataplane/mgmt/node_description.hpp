#pragma once
// What a controller needs to know of a data plane before it uses it (`hello`): the host
// it runs on, its ports (device, NUMA node, speed, MAC, link), its lcores, and its clock.

#include <nlohmann/json.hpp>

namespace lr::dp {

class Engine;
class ClockWatch;

/// {node, ports, lcores, clock}, read now; the clock with ptp4l's last word where `clock`
/// reads it.
nlohmann::json describe_node(Engine& engine, const ClockWatch* clock);

}  // namespace lr::dp
