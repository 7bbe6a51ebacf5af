// status: an error code (one-to-one with gRPC status codes) and a message with context.
// Errors are values; no exception crosses a thread, CUDA or API boundary.
#pragma once
#include <string>
#include <string_view>
#include <utility>

namespace pp {

// Same numbering as grpc::StatusCode, so the server maps codes by value.
enum class status_code : int {
  ok = 0,
  cancelled = 1,
  unknown = 2,
  invalid_argument = 3,
  deadline_exceeded = 4,
  not_found = 5,
  already_exists = 6,
  permission_denied = 7,
  resource_exhausted = 8,
  failed_precondition = 9,
  aborted = 10,
  out_of_range = 11,
  unimplemented = 12,
  internal = 13,
  unavailable = 14,
  data_loss = 15,
  unauthenticated = 16,
};

std::string_view status_code_name(status_code c);

class [[nodiscard]] status {
 public:
  status() = default;
  status(status_code code, std::string message) : code_(code), message_(std::move(message)) {}

  static status ok_status() { return status(); }
  bool ok() const { return code_ == status_code::ok; }
  status_code code() const { return code_; }
  const std::string& message() const { return message_; }
  // "INVALID_ARGUMENT: message"
  std::string to_string() const;
  // Prefixes the message with where it happened: "reading proof.json: <message>".
  status with_context(std::string_view context) const&;
  status with_context(std::string_view context) &&;
  // Marks a status as looked at where dropping it is deliberate.
  void ignore() const {}

  friend bool operator==(const status& a, const status& b) {
    return a.code_ == b.code_ && a.message_ == b.message_;
  }

 private:
  status_code code_ = status_code::ok;
  std::string message_;
};

inline status ok_status() { return status(); }
inline status invalid_argument(std::string m) { return {status_code::invalid_argument, std::move(m)}; }
inline status not_found(std::string m) { return {status_code::not_found, std::move(m)}; }
inline status out_of_range(std::string m) { return {status_code::out_of_range, std::move(m)}; }
inline status internal_error(std::string m) { return {status_code::internal, std::move(m)}; }
inline status resource_exhausted(std::string m) { return {status_code::resource_exhausted, std::move(m)}; }
inline status failed_precondition(std::string m) { return {status_code::failed_precondition, std::move(m)}; }
inline status unimplemented(std::string m) { return {status_code::unimplemented, std::move(m)}; }
inline status unavailable(std::string m) { return {status_code::unavailable, std::move(m)}; }
inline status cancelled(std::string m) { return {status_code::cancelled, std::move(m)}; }
inline status data_loss(std::string m) { return {status_code::data_loss, std::move(m)}; }
inline status already_exists(std::string m) { return {status_code::already_exists, std::move(m)}; }
inline status deadline_exceeded(std::string m) { return {status_code::deadline_exceeded, std::move(m)}; }
inline status permission_denied(std::string m) { return {status_code::permission_denied, std::move(m)}; }
inline status unauthenticated(std::string m) { return {status_code::unauthenticated, std::move(m)}; }

}  // namespace pp
