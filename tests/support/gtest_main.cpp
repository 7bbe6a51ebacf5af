// GoogleTest main for every test binary: exits 77 (ctest's SKIP_RETURN_CODE) when every test that
// ran was skipped (support/run_all_tests.hpp).
#include <gtest/gtest.h>

#include "support/run_all_tests.hpp"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return pp::test::run_all_tests_or_skip();
}
