// gMock matchers for pp::status and pp::result<T>, whose failure messages name the status:
//   EXPECT_THAT(write(...), IsOk());
//   ASSERT_THAT(r, StatusIs(status_code::invalid_argument, HasSubstr("modulus")));
//   Value of: r
//   Expected: has status INVALID_ARGUMENT and message has substring "modulus"
//     Actual: INVALID_ARGUMENT: decimal value >= modulus of fr (of type pp::result<pp::ff::fr>)
#pragma once
#include <gmock/gmock.h>

#include <ostream>
#include <string>

#include "core/result.hpp"
#include "core/status.hpp"

namespace pp {

// How gtest prints a status or a result ("OK", or "CODE: message") in a failed expectation.
inline void PrintTo(const status& s, std::ostream* os) { *os << (s.ok() ? std::string("OK") : s.to_string()); }
template <class T>
void PrintTo(const result<T>& r, std::ostream* os) {
  *os << (r.ok() ? std::string("OK (a value)") : r.error().to_string());
}

namespace test {

inline const status& status_of(const status& s) { return s; }
// An ok result's error() is the ok status.
template <class T>
const status& status_of(const result<T>& r) {
  return r.error();
}

inline bool is_ok(const status& s) { return s.ok(); }
// A result's own ok() (it holds a value), not its status's.
template <class T>
bool is_ok(const result<T>& r) {
  return r.ok();
}

class is_ok_matcher {
 public:
  template <class S>
  bool MatchAndExplain(const S& s, ::testing::MatchResultListener*) const {
    return is_ok(s);
  }
  void DescribeTo(std::ostream* os) const { *os << "is OK"; }
  void DescribeNegationTo(std::ostream* os) const { *os << "is not OK"; }
};

class status_is_matcher {
 public:
  status_is_matcher(status_code code, ::testing::Matcher<const std::string&> message)
      : code_(code), message_(std::move(message)) {}

  template <class S>
  bool MatchAndExplain(const S& v, ::testing::MatchResultListener* listener) const {
    const status& s = status_of(v);
    if (s.code() != code_) return false;
    ::testing::StringMatchResultListener inner;
    if (message_.MatchAndExplain(s.message(), &inner)) return true;
    const std::string why = inner.str();
    if (!why.empty()) *listener << "whose message " << why;
    return false;
  }
  void DescribeTo(std::ostream* os) const {
    *os << "has status " << status_code_name(code_) << " and message ";
    message_.DescribeTo(os);
  }
  void DescribeNegationTo(std::ostream* os) const {
    *os << "has a status other than " << status_code_name(code_) << " or a message that ";
    message_.DescribeNegationTo(os);
  }

 private:
  status_code code_;
  ::testing::Matcher<const std::string&> message_;
};

}  // namespace test

// status or result<T> is ok.
inline ::testing::PolymorphicMatcher<test::is_ok_matcher> IsOk() {
  return ::testing::MakePolymorphicMatcher(test::is_ok_matcher());
}

// status or result<T> has this code, and (when given) a message the matcher accepts.
inline ::testing::PolymorphicMatcher<test::status_is_matcher> StatusIs(
    status_code code, ::testing::Matcher<const std::string&> message = ::testing::_) {
  return ::testing::MakePolymorphicMatcher(test::status_is_matcher(code, std::move(message)));
}

}  // namespace pp
