// RUN_ALL_TESTS with the suite's skip convention: 77 (ctest's SKIP_RETURN_CODE) when every test that
// ran was skipped, e.g. a GPU test without a GPU or an oracle test without node, so ctest reports
// "skipped" rather than a pass that checked nothing. For mains that do more than run the tests.
#pragma once
#include <gtest/gtest.h>

namespace pp::test {

inline int run_all_tests_or_skip() {
  const int rc = RUN_ALL_TESTS();
  if (rc != 0) return rc;
  const testing::UnitTest& u = *testing::UnitTest::GetInstance();
  if (u.test_to_run_count() > 0 && u.skipped_test_count() == u.test_to_run_count()) return 77;
  return 0;
}

}  // namespace pp::test
