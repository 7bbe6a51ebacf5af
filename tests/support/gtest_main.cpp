// GoogleTest main for every test binary: exits 77 (ctest's SKIP_RETURN_CODE) when every test that
// ran was skipped, e.g. a GPU test without a GPU or an oracle test without node, so ctest reports
// "skipped" rather than a pass that checked nothing.
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  if (rc != 0) return rc;
  const testing::UnitTest& u = *testing::UnitTest::GetInstance();
  if (u.test_to_run_count() > 0 && u.skipped_test_count() == u.test_to_run_count()) return 77;
  return 0;
}
