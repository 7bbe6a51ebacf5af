// grpc_status: by-value mapping between pp::status_code and grpc::StatusCode.
#include "server/grpc_status.hpp"

namespace pp::server {

#define PP_SAME_CODE(pp_code, grpc_code) \
  static_assert(static_cast<int>(status_code::pp_code) == static_cast<int>(grpc::StatusCode::grpc_code))
PP_SAME_CODE(ok, OK);
PP_SAME_CODE(cancelled, CANCELLED);
PP_SAME_CODE(unknown, UNKNOWN);
PP_SAME_CODE(invalid_argument, INVALID_ARGUMENT);
PP_SAME_CODE(deadline_exceeded, DEADLINE_EXCEEDED);
PP_SAME_CODE(not_found, NOT_FOUND);
PP_SAME_CODE(already_exists, ALREADY_EXISTS);
PP_SAME_CODE(permission_denied, PERMISSION_DENIED);
PP_SAME_CODE(resource_exhausted, RESOURCE_EXHAUSTED);
PP_SAME_CODE(failed_precondition, FAILED_PRECONDITION);
PP_SAME_CODE(aborted, ABORTED);
PP_SAME_CODE(out_of_range, OUT_OF_RANGE);
PP_SAME_CODE(unimplemented, UNIMPLEMENTED);
PP_SAME_CODE(internal, INTERNAL);
PP_SAME_CODE(unavailable, UNAVAILABLE);
PP_SAME_CODE(data_loss, DATA_LOSS);
PP_SAME_CODE(unauthenticated, UNAUTHENTICATED);
#undef PP_SAME_CODE

grpc::Status to_grpc(const status& s) {
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(static_cast<int>(s.code())), s.message());
}

status from_grpc(const grpc::Status& s) {
  if (s.ok()) return ok_status();
  const int c = static_cast<int>(s.error_code());
  const status_code code = (c > 0 && c <= 16) ? static_cast<status_code>(c) : status_code::unknown;
  return status(code, s.error_message());
}

}  // namespace pp::server
