// Before EAL: [eal] lcores against the CPUs this process may use (the CPU that is not there,
// and what to write instead), and hugepages a user may not map.
#include <gtest/gtest.h>

#include "dataplane/eal/eal_args.hpp"

namespace lr::dp {
namespace {

TEST(LcoresProblem, ACpuTheHostDoesNotGiveIsNamedWithWhatItDoes) {
  const std::vector<unsigned> two{0, 1};
  EXPECT_EQ(lcores_problem("0-1", two), "");
  EXPECT_EQ(lcores_problem("1,0", two), "");
  EXPECT_EQ(lcores_problem("0-2", two),
            "CPU 2 is not one this process may run on (it may use 0-1): name lcores among those, e.g. \"0-1\"");
  EXPECT_EQ(lcores_problem("0,3", {0, 1, 2, 5, 6}),
            "CPU 3 is not one this process may run on (it may use 0-2,5-6): name lcores among those, e.g. \"0-1\"");
  EXPECT_EQ(lcores_problem("x-2", two),
            "'x-2' is not a list of lcores: write e.g. \"0-1\", \"0,2,4\" or \"0@0,1@2\" (the first runs the control "
            "thread, the others traffic)");
  EXPECT_EQ(lcores_problem("2-1", two).substr(0, 30), "'2-1' is not a list of lcores:");
  // Lcores mapped to CPUs: the CPUs count. Groups in parentheses are EAL's to check.
  EXPECT_EQ(lcores_problem("0@0,1@1,2@1", two), "");
  EXPECT_EQ(lcores_problem("0@0,1@5", two),
            "CPU 5 is not one this process may run on (it may use 0-1): name lcores among those, e.g. \"0-1\"");
  EXPECT_EQ(lcores_problem("(0-1)@0", two), "");
}

TEST(LcoresProblem, ThisProcessMayUseSomeCpu) { EXPECT_FALSE(usable_cpus().empty()); }

TEST(HugepageAccess, AUserWhoMayNotMapThemIsToldWhatToDo) {
  const auto none = [](const std::string&) { return false; };
  const auto dev = [](const std::string& m) { return m == "/dev/hugepages"; };
  EXPECT_EQ(hugepage_access_problem({"/dev/hugepages", "/mnt/huge"}, false, none),
            "this user may not map hugepages (it cannot write to /dev/hugepages, /mnt/huge): run it as root, or give "
            "this user a hugetlbfs mount it owns and the capabilities DPDK needs (IPC_LOCK, SYS_ADMIN), or set [eal] "
            "huge_pages = \"off\" (virtual devices run without)");
  EXPECT_EQ(hugepage_access_problem({"/mnt/huge", "/dev/hugepages"}, false, dev), "");  // one it may write
  EXPECT_EQ(hugepage_access_problem({"/dev/hugepages"}, true, none), "");  // root
  EXPECT_EQ(hugepage_access_problem({}, false, none), "");  // none mounted: EAL's to say
}

}  // namespace
}  // namespace lr::dp
