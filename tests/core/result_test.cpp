// result<T>: holds a value or a non-ok status; move-only values work.
#include "core/result.hpp"
#include "support/status_matchers.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace pp {
namespace {

TEST(Result, HoldsValue) {
  result<std::string> r = std::string("proof");
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r.value(), "proof");
  EXPECT_EQ(*r, "proof");
  EXPECT_EQ(r->size(), 5u);
  EXPECT_THAT(r.error(), IsOk());
  r->append("!");
  EXPECT_EQ(*r, "proof!");
}

TEST(Result, HoldsError) {
  const result<int> r = not_found("key abc");
  ASSERT_THAT(r, StatusIs(status_code::not_found));
  EXPECT_EQ(r.error().message(), "key abc");
}

TEST(Result, TakeStatus) {
  result<int> bad = internal_error("boom");
  const status s = std::move(bad).take_status();
  EXPECT_EQ(s.code(), status_code::internal);
  EXPECT_EQ(s.message(), "boom");

  result<int> good = 3;
  EXPECT_THAT(std::move(good).take_status(), IsOk());
}

TEST(Result, MoveOnlyValue) {
  result<std::unique_ptr<int>> r = std::make_unique<int>(42);
  ASSERT_THAT(r, IsOk());
  const std::unique_ptr<int> p = std::move(r).value();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, 42);
}

TEST(Result, ValueOfContainer) {
  const result<std::vector<int>> r = std::vector<int>{1, 2, 3};
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[2], 3);
}

TEST(Result, WithContextOnError) {
  const result<int> r = data_loss("short read");
  const status s = r.error().with_context("loading witness");
  EXPECT_EQ(s.to_string(), "DATA_LOSS: loading witness: short read");
}

// value() on an error stops the process with the status in every build (it was an assert, so a
// release build read an empty optional); value_unchecked() is for paths that tested ok() already.
TEST(ResultDeathTest, ValueOnAnErrorAbortsWithTheStatus) {
  const result<int> r = not_found("key abc");
  EXPECT_DEATH({ [[maybe_unused]] const int v = r.value(); }, "value\\(\\) on an error: NOT_FOUND: key abc");
  result<std::string> s = data_loss("short read");
  EXPECT_DEATH({ [[maybe_unused]] const size_t n = s->size(); }, "DATA_LOSS: short read");
  EXPECT_DEATH({ [[maybe_unused]] std::string v = std::move(s).value(); }, "DATA_LOSS: short read");
}

TEST(Result, ValueUncheckedReadsAHeldValue) {
  result<int> r = 7;
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r.value_unchecked(), 7);
}

}  // namespace
}  // namespace pp
