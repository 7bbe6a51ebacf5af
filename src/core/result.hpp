// result<T>: a value or a non-ok status. value() (and * and ->) on an error stops the process with
// the status in every build (core/fatal.hpp); value_unchecked() skips that test for code that has
// just tested ok() itself.
#pragma once
#include <cassert>
#include <optional>
#include <utility>

#include "core/fatal.hpp"
#include "core/status.hpp"

namespace pp {

template <class T>
class [[nodiscard]] result {
 public:
  result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design, like absl::StatusOr
  result(status s) : status_(std::move(s)) {     // NOLINT
    assert(!status_.ok() && "result<T> built from an ok status carries no value");
    if (status_.ok()) status_ = status(status_code::internal, "result built from ok status without a value");
  }

  bool ok() const { return value_.has_value(); }
  const status& error() const { return status_; }
  status take_status() && { return ok() ? status() : std::move(status_); }

  T& value() & {
    check_ok();
    return *value_;
  }
  const T& value() const& {
    check_ok();
    return *value_;
  }
  T&& value() && {
    check_ok();
    return std::move(*value_);
  }
  T& value_unchecked() & { return *value_; }
  const T& value_unchecked() const& { return *value_; }
  T&& value_unchecked() && { return std::move(*value_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  void check_ok() const {
    if (!ok()) fatal("result::value() on an error: " + status_.to_string());
  }

  std::optional<T> value_;
  status status_;
};

}  // namespace pp
