#include "core/status.hpp"

namespace pp {

std::string_view status_code_name(status_code c) {
  switch (c) {
    case status_code::ok: return "OK";
    case status_code::cancelled: return "CANCELLED";
    case status_code::unknown: return "UNKNOWN";
    case status_code::invalid_argument: return "INVALID_ARGUMENT";
    case status_code::deadline_exceeded: return "DEADLINE_EXCEEDED";
    case status_code::not_found: return "NOT_FOUND";
    case status_code::already_exists: return "ALREADY_EXISTS";
    case status_code::permission_denied: return "PERMISSION_DENIED";
    case status_code::resource_exhausted: return "RESOURCE_EXHAUSTED";
    case status_code::failed_precondition: return "FAILED_PRECONDITION";
    case status_code::aborted: return "ABORTED";
    case status_code::out_of_range: return "OUT_OF_RANGE";
    case status_code::unimplemented: return "UNIMPLEMENTED";
    case status_code::internal: return "INTERNAL";
    case status_code::unavailable: return "UNAVAILABLE";
    case status_code::data_loss: return "DATA_LOSS";
    case status_code::unauthenticated: return "UNAUTHENTICATED";
  }
  return "UNKNOWN";
}

std::string status::to_string() const {
  if (ok()) return "OK";
  std::string s(status_code_name(code_));
  s += ": ";
  s += message_;
  return s;
}

status status::with_context(std::string_view context) const& {
  if (ok()) return *this;
  return status(code_, std::string(context) + ": " + message_);
}

status status::with_context(std::string_view context) && {
  if (ok()) return std::move(*this);
  message_.insert(0, std::string(context) + ": ");
  return std::move(*this);
}

}  // namespace pp
