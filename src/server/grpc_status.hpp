// grpc_status: pp::status <-> grpc::Status. pp::status_code is numbered like grpc::StatusCode,
// so the mapping is by value (static_asserts in grpc_status.cpp keep it honest).
#pragma once
#include <grpcpp/support/status.h>

#include "core/status.hpp"

namespace pp::server {

[[nodiscard]] grpc::Status to_grpc(const status& s);
[[nodiscard]] status from_grpc(const grpc::Status& s);

}  // namespace pp::server
