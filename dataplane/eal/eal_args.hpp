#pragma once
// EAL arguments from the profile's [eal] table and its ports. Never probes a PCI
// device the profile does not name: --no-pci without PCI ports, else an allow-list.

#include <functional>
#include <string>
#include <vector>

#include "lib/profile/profile.hpp"

namespace lr::dp {

/// True for a PCI address ("0000:3b:00.0" or "3b:00.0", devargs after a comma allowed).
bool is_pci_device(const std::string& device);

/// DPDK's port name of a device string: the part before the first comma.
std::string device_port_name(const std::string& device);

/// `hugepages_free`: whether the host has free hugepages (decides huge_pages = "auto").
std::vector<std::string> build_eal_args(const profile::Profile& profile, bool hugepages_free);

/// Reads HugePages_Free from /proc/meminfo.
bool host_has_free_hugepages();

/// Whether a run of `profile` maps hugepages ([eal] huge_pages, and "auto" by the host's).
bool uses_hugepages(const profile::Profile& profile, bool hugepages_free);

/// Why this process cannot map hugepages although the run would: not root, and no hugetlbfs
/// mount it may write to (EAL would print a line per page it cannot open, then "Cannot
/// allocate memory"); what to do instead. "" when it can, or when none is mounted.
std::string hugepage_access_problem(const std::vector<std::string>& mounts, bool root,
                                    const std::function<bool(const std::string&)>& writable);

/// The CPUs this process may run on (its affinity), ascending.
std::vector<unsigned> usable_cpus();

/// Why [eal] lcores cannot start here: an lcore on a CPU this process may not use (EAL
/// would stop with "core N unavailable" and a page of its usage text), or a list that is
/// no list of lcores; "" when every lcore can run, or the list groups lcores with '('
/// (EAL checks those itself).
std::string lcores_problem(const std::string& lcores, const std::vector<unsigned>& usable);

}  // namespace lr::dp
