// Early-return helpers for status and result<T>.
#pragma once
#include "core/result.hpp"

#define PP_CONCAT_INNER_(a, b) a##b
#define PP_CONCAT_(a, b) PP_CONCAT_INNER_(a, b)

// Returns the status of expr from the enclosing function when it is not ok.
#define PP_RETURN_IF_ERROR(expr)               \
  do {                                         \
    ::pp::status pp_status_ = (expr);          \
    if (!pp_status_.ok()) return pp_status_;   \
  } while (0)

// PP_ASSIGN_OR_RETURN(auto x, make_x()); declares/assigns x or returns the error.
#define PP_ASSIGN_OR_RETURN(lhs, expr) PP_ASSIGN_OR_RETURN_IMPL_(PP_CONCAT_(pp_result_, __LINE__), lhs, expr)
#define PP_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return std::move(tmp).take_status(); \
  lhs = std::move(tmp).value_unchecked()
