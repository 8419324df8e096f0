#pragma once
// One item of the host doctor's report: what was checked, the verdict, the evidence it
// rests on (the values read, where from) and, when it is not OK, the fix.

#include <string>
#include <vector>

namespace lr::doctor {

enum class Verdict { kOk, kWarn, kFail, kSkipped };

const char* verdict_name(Verdict verdict) noexcept;  // "OK", "WARN", "FAIL", "SKIPPED"

struct Finding {
  std::string item;      ///< "hugepages", "pcie link 0000:3b:00.0"
  Verdict verdict = Verdict::kOk;
  std::string evidence;  ///< what was read: "HugePages_Free 1024 of 1024 (2048 kB) in /proc/meminfo"
  std::string fix;       ///< empty when OK
};

using Findings = std::vector<Finding>;

}  // namespace lr::doctor
