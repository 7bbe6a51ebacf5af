// status: gRPC code numbering, names, context, and the early-return macros.
#include "core/status.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/result.hpp"
#include "core/status_macros.hpp"
#include "support/status_matchers.hpp"

namespace pp {
namespace {

TEST(Status, CodesMatchGrpcNumbering) {
  // grpc::StatusCode values, in order 0..16.
  const std::pair<status_code, const char*> grpc[] = {
      {status_code::ok, "OK"},
      {status_code::cancelled, "CANCELLED"},
      {status_code::unknown, "UNKNOWN"},
      {status_code::invalid_argument, "INVALID_ARGUMENT"},
      {status_code::deadline_exceeded, "DEADLINE_EXCEEDED"},
      {status_code::not_found, "NOT_FOUND"},
      {status_code::already_exists, "ALREADY_EXISTS"},
      {status_code::permission_denied, "PERMISSION_DENIED"},
      {status_code::resource_exhausted, "RESOURCE_EXHAUSTED"},
      {status_code::failed_precondition, "FAILED_PRECONDITION"},
      {status_code::aborted, "ABORTED"},
      {status_code::out_of_range, "OUT_OF_RANGE"},
      {status_code::unimplemented, "UNIMPLEMENTED"},
      {status_code::internal, "INTERNAL"},
      {status_code::unavailable, "UNAVAILABLE"},
      {status_code::data_loss, "DATA_LOSS"},
      {status_code::unauthenticated, "UNAUTHENTICATED"},
  };
  for (int i = 0; i <= 16; ++i) {
    EXPECT_EQ(static_cast<int>(grpc[i].first), i);
    EXPECT_EQ(status_code_name(static_cast<status_code>(i)), grpc[i].second);
  }
}

TEST(Status, HelpersSetCodeAndMessage) {
  EXPECT_EQ(invalid_argument("x").code(), status_code::invalid_argument);
  EXPECT_EQ(not_found("x").code(), status_code::not_found);
  EXPECT_EQ(out_of_range("x").code(), status_code::out_of_range);
  EXPECT_EQ(internal_error("x").code(), status_code::internal);
  EXPECT_EQ(resource_exhausted("x").code(), status_code::resource_exhausted);
  EXPECT_EQ(failed_precondition("x").code(), status_code::failed_precondition);
  EXPECT_EQ(unimplemented("x").code(), status_code::unimplemented);
  EXPECT_EQ(unavailable("x").code(), status_code::unavailable);
  EXPECT_EQ(cancelled("x").code(), status_code::cancelled);
  EXPECT_EQ(data_loss("x").code(), status_code::data_loss);
  EXPECT_EQ(already_exists("x").code(), status_code::already_exists);
  EXPECT_EQ(deadline_exceeded("x").code(), status_code::deadline_exceeded);
  EXPECT_EQ(permission_denied("x").code(), status_code::permission_denied);
  EXPECT_EQ(unauthenticated("x").code(), status_code::unauthenticated);
  EXPECT_EQ(invalid_argument("bad n").message(), "bad n");
}

TEST(Status, DefaultIsOk) {
  const status s;
  EXPECT_THAT(s, IsOk());
  EXPECT_EQ(s.code(), status_code::ok);
  EXPECT_EQ(s.to_string(), "OK");
  EXPECT_THAT(ok_status(), IsOk());
  EXPECT_EQ(s, ok_status());
}

TEST(Status, ToString) {
  EXPECT_EQ(invalid_argument("expected 32 bytes, got 31").to_string(), "INVALID_ARGUMENT: expected 32 bytes, got 31");
}

TEST(Status, WithContextPrefixesMessageAndKeepsCode) {
  const status inner = not_found("no such file");
  const status outer = inner.with_context("reading proof.json");  // const& overload
  EXPECT_EQ(outer.code(), status_code::not_found);
  EXPECT_EQ(outer.message(), "reading proof.json: no such file");
  EXPECT_EQ(inner.message(), "no such file");

  const status chained = data_loss("truncated").with_context("section 3").with_context("loading key");  // && overload
  EXPECT_EQ(chained.message(), "loading key: section 3: truncated");
  EXPECT_EQ(chained.code(), status_code::data_loss);
}

TEST(Status, WithContextLeavesOkAlone) {
  const status s = ok_status().with_context("anything");
  EXPECT_THAT(s, IsOk());
  EXPECT_EQ(s.message(), "");
}

status fail_if(bool fail) { return fail ? out_of_range("index 9 >= size 8") : ok_status(); }

status two_steps(bool fail_first, bool fail_second, int& reached) {
  reached = 0;
  PP_RETURN_IF_ERROR(fail_if(fail_first));
  reached = 1;
  PP_RETURN_IF_ERROR(fail_if(fail_second).with_context("second"));
  reached = 2;
  return ok_status();
}

TEST(StatusMacros, ReturnIfErrorPropagates) {
  int reached = -1;
  EXPECT_THAT(two_steps(false, false, reached), IsOk());
  EXPECT_EQ(reached, 2);

  status s = two_steps(true, false, reached);
  EXPECT_EQ(s.code(), status_code::out_of_range);
  EXPECT_EQ(reached, 0);

  s = two_steps(false, true, reached);
  EXPECT_EQ(s.message(), "second: index 9 >= size 8");
  EXPECT_EQ(reached, 1);
}

result<int> parse_digit(char c) {
  if (c < '0' || c > '9') return invalid_argument(std::string("expected a digit, got '") + c + "'");
  return c - '0';
}

result<int> add_digits(char a, char b) {
  PP_ASSIGN_OR_RETURN(const int x, parse_digit(a));
  PP_ASSIGN_OR_RETURN(int y, parse_digit(b));
  return x + y;
}

status check_digit(char c, int& out) {
  PP_ASSIGN_OR_RETURN(out, parse_digit(c));  // assigns to an existing variable; function returns status
  return ok_status();
}

TEST(StatusMacros, AssignOrReturnPropagatesValuesAndErrors) {
  const result<int> sum = add_digits('3', '4');
  ASSERT_THAT(sum, IsOk());
  EXPECT_EQ(*sum, 7);

  const result<int> bad = add_digits('3', 'x');
  ASSERT_THAT(bad, StatusIs(status_code::invalid_argument));
  EXPECT_EQ(bad.error().message(), "expected a digit, got 'x'");

  int out = -1;
  EXPECT_THAT(check_digit('5', out), IsOk());
  EXPECT_EQ(out, 5);
  EXPECT_EQ(check_digit('?', out).code(), status_code::invalid_argument);
  EXPECT_EQ(out, 5);
}

}  // namespace
}  // namespace pp
