// IsOk / StatusIs on status and result<T>: what they accept, what they refuse, and that a refusal
// names the status (the reason to use them over EXPECT_TRUE(r.ok())).
#include "support/status_matchers.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace pp {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

template <class M, class V>
std::string explain_failure(const M& m, const V& v) {
  ::testing::StringMatchResultListener listener;
  const ::testing::Matcher<const V&> matcher = m;
  EXPECT_FALSE(matcher.MatchAndExplain(v, &listener));
  std::ostringstream os;
  matcher.DescribeTo(&os);
  os << " | ";
  ::testing::internal::UniversalPrint(v, &os);
  os << " | " << listener.str();
  return os.str();
}

TEST(StatusMatchers, IsOkAcceptsOkStatusAndValues) {
  EXPECT_THAT(ok_status(), IsOk());
  EXPECT_THAT(result<int>(3), IsOk());
  EXPECT_THAT(not_found("x"), Not(IsOk()));
  EXPECT_THAT(result<int>(internal_error("boom")), Not(IsOk()));
}

TEST(StatusMatchers, StatusIsChecksCodeAndMessage) {
  const status s = invalid_argument("decimal value >= modulus");
  EXPECT_THAT(s, StatusIs(status_code::invalid_argument));
  EXPECT_THAT(s, StatusIs(status_code::invalid_argument, HasSubstr("modulus")));
  EXPECT_THAT(s, StatusIs(status_code::invalid_argument, "decimal value >= modulus"));
  EXPECT_THAT(s, Not(StatusIs(status_code::not_found)));
  EXPECT_THAT(s, Not(StatusIs(status_code::invalid_argument, HasSubstr("hex"))));
  EXPECT_THAT(result<int>(s), StatusIs(status_code::invalid_argument, HasSubstr("modulus")));
  EXPECT_THAT(result<int>(1), StatusIs(status_code::ok));
  EXPECT_THAT(result<int>(1), Not(StatusIs(status_code::invalid_argument)));
}

TEST(StatusMatchers, FailuresNameTheStatus) {
  const std::string a = explain_failure(IsOk(), data_loss("witness file truncated"));
  EXPECT_THAT(a, HasSubstr("is OK"));
  EXPECT_THAT(a, HasSubstr("DATA_LOSS: witness file truncated"));
  const std::string b = explain_failure(IsOk(), result<int>(unavailable("no device")));
  EXPECT_THAT(b, HasSubstr("UNAVAILABLE: no device"));
  const std::string c =
      explain_failure(StatusIs(status_code::not_found, HasSubstr("key")), invalid_argument("bad zkey"));
  EXPECT_THAT(c, HasSubstr("has status NOT_FOUND and message has substring \"key\""));
  EXPECT_THAT(c, HasSubstr("INVALID_ARGUMENT: bad zkey"));
}

}  // namespace
}  // namespace pp
