#pragma once
// What a controller needs to know of a data plane before it uses it (`hello`): the host
// it runs on, its ports (device, NUMA node, speed, MAC, link), its lcores, and its clock.

#include <nlohmann/json.hpp>

namespace lr::dp {

class Engine;

/// {node, ports, lcores, clock}, read now.
nlohmann::json describe_node(Engine& engine);

}  // namespace lr::dp
