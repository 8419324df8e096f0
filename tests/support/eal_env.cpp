#include "tests/support/eal_env.hpp"

#include <gtest/gtest.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include <cstdio>
#include <cstdlib>

namespace {

class EalEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    args_ = lr::test::eal_test_args();
    std::vector<char*> argv;
    for (std::string& arg : args_) argv.push_back(arg.data());
    if (rte_eal_init(static_cast<int>(argv.size()), argv.data()) < 0) {
      std::fprintf(stderr, "EAL init failed: %s\n", rte_strerror(rte_errno));
      std::exit(1);
    }
  }
  void TearDown() override { rte_eal_cleanup(); }

 private:
  std::vector<std::string> args_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new EalEnvironment);
  return RUN_ALL_TESTS();
}
