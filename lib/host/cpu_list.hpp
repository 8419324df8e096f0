#pragma once
// CPU lists as the kernel writes them ("0-3,8,10-11": cpulist files, isolcpus) and the
// CPUs an EAL --lcores string puts the worker lcores on ("0-4": lcores 1-4 on CPUs 1-4;
// "0@0,1@2,2@3": lcore 1 on CPU 2, lcore 2 on CPU 3). The first lcore is the main lcore.

#include <optional>
#include <set>
#include <string>

namespace lr::host {

/// nullopt when the text is not a CPU list.
std::optional<std::set<unsigned>> parse_cpu_list(const std::string& text);

/// The CPUs of the worker lcores, or nullopt for a form it does not read (groups in
/// parentheses), so the check says it could not tell.
std::optional<std::set<unsigned>> worker_cpus(const std::string& eal_lcores);

/// The CPUs of every lcore, the main one first among them, or nullopt as above.
std::optional<std::set<unsigned>> lcore_cpus(const std::string& eal_lcores);

/// "1-4,8" for messages.
std::string cpu_list_text(const std::set<unsigned>& cpus);

}  // namespace lr::host
