// The one place where absl::Status becomes grpc::Status.
//
// Service code builds errors as absl::Status and may attach details with
// services/common/status_details.h (they ride along as absl::Status
// payloads). ToGrpcStatus then
// turns a status into a grpc::Status with the same canonical code and a
// google.rpc.Status in the "grpc-status-details-bin" trailer holding:
//   - ErrorInfo, always: the attached reason, or the code's name
//     ("NOT_FOUND"), domain "arbiter.v1", and the attached metadata;
//   - BadRequest, when field violations were attached.
// Thread-safe (pure functions).
#ifndef ARBITER_SERVICES_SERVER_STATUS_MAPPING_H_
#define ARBITER_SERVICES_SERVER_STATUS_MAPPING_H_

#include <grpcpp/support/status.h>

#include <string>

#include "absl/status/status.h"

namespace arbiter::server {

// The grpc::Status for `status` (OK for OK), details as described above.
grpc::Status ToGrpcStatus(const absl::Status& status);

// "INVALID_ARGUMENT" etc.
std::string CodeName(absl::StatusCode code);

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_STATUS_MAPPING_H_
