// finding (src/doctor/finding.hpp): the report's text, its conclusion and the sizes in it.
#include "doctor/finding.hpp"

#include <gtest/gtest.h>

namespace pp::doctor {
namespace {

TEST(Finding, TheReportListsEachItemWithItsFixAndConcludes) {
  report r;
  r.add("GPUs", verdict::ok, "none");
  r.add("token file", verdict::problem, "/t has mode 0644", "chmod 600 /t");
  r.add("transparent huge pages", verdict::warning, "never", "echo madvise");
  EXPECT_FALSE(r.can_serve());
  EXPECT_EQ(render(r),
            "ok       GPUs: none\n"
            "problem  token file: /t has mode 0644\n"
            "         fix: chmod 600 /t\n"
            "warning  transparent huge pages: never\n"
            "         fix: echo madvise\n"
            "this host cannot serve this configuration: 1 problem, 1 warning\n");
  r.findings.erase(r.findings.begin() + 1);
  EXPECT_TRUE(r.can_serve());
  EXPECT_EQ(render(r).substr(render(r).rfind("this host")), "this host can serve this configuration (1 warning)\n");
}

TEST(Finding, SizesReadAsAPersonWritesThem) {
  EXPECT_EQ(bytes_text(512), "512 bytes");
  EXPECT_EQ(bytes_text(465150), "454 KiB");
  EXPECT_EQ(bytes_text(uint64_t{512} << 20), "512 MiB");
  EXPECT_EQ(bytes_text(uint64_t{45} << 30), "45.0 GiB");
}

}  // namespace
}  // namespace pp::doctor
