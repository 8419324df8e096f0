#pragma once
// Hugepage files a data plane leaves behind. DPDK maps its memory from files in
// hugetlbfs (`<file_prefix>map_<n>`); unless they are unlinked (--huge-unlink, our
// default), they outlive the process and hold their pages until someone deletes them.
// Each data plane registers its prefix with its pid; a later start removes the files of
// registered prefixes whose process is gone, skipping any file a live process holds
// (DPDK keeps a shared flock on the files it maps). Pure file-system code: no EAL.

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace lr::dp {

struct HugepagePaths {
  std::vector<std::string> mounts;  ///< hugetlbfs mount points
  std::string registry;             ///< one file per prefix, holding the owner's pid
  std::string runtime;              ///< DPDK's runtime directories: <runtime>/<prefix>
};

/// The system's: hugetlbfs mounts from /proc/mounts, /run/linerate/hugepage-prefixes,
/// /var/run/dpdk.
HugepagePaths system_hugepage_paths();

/// What a sweep removed of one prefix.
struct RemovedHugepages {
  std::string prefix;
  pid_t pid = 0;       ///< the registered owner (gone)
  size_t files = 0;
  uint64_t bytes = 0;
  std::vector<std::string> errors;  ///< files that could not be removed, and why
};

/// Records `pid` as the owner of `prefix`'s files. Returns "" or why it could not.
std::string register_hugepage_prefix(const HugepagePaths& paths, const std::string& prefix, pid_t pid);

/// Removes the files (and DPDK's runtime directory) of every registered prefix whose
/// process is gone, and their registry entries. Files some process holds stay, and so
/// does a runtime directory a primary process holds (another owner of the prefix).
/// `is_running(pid)`: whether that pid is still a linerate data plane.
std::vector<RemovedHugepages> remove_stale_hugepages(const HugepagePaths& paths, bool (*is_running)(pid_t));

/// At a normal exit (after rte_eal_cleanup): removes this process's own files (a
/// secondary process still mapping them keeps its memory until it exits), its runtime
/// directory and its registry entry.
RemovedHugepages remove_own_hugepages(const HugepagePaths& paths, const std::string& prefix);

/// Whether `pid` is a running linerate data plane (its /proc comm).
bool is_running_dataplane(pid_t pid);

/// "removed 256 stale hugepage files (512 MiB) of prefix 'lr' (pid 41, no longer running)".
std::string describe(const RemovedHugepages& removed);

}  // namespace lr::dp
