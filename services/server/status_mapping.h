// The one place where absl::Status becomes grpc::Status.
//
// Service code builds errors as absl::Status and may attach details with
// services/common/status_details.h (they ride along as absl::Status
// payloads). ToRpcStatus turns a status into a google.rpc.Status with the
// same canonical code, its message and these details:
//   - ErrorInfo, always: the attached reason, or the code's name
//     ("NOT_FOUND"), domain "arbiter.v1", and the attached metadata;
//   - BadRequest, when field violations were attached.
// ToGrpcStatus gives a call's grpc::Status: that code and message, and the
// google.rpc.Status in the "grpc-status-details-bin" trailer.
// StreamAppendActions answers a refused append with the google.rpc.Status
// itself, in a message of the stream.
// Thread-safe (pure functions).
#ifndef ARBITER_SERVICES_SERVER_STATUS_MAPPING_H_
#define ARBITER_SERVICES_SERVER_STATUS_MAPPING_H_

#include <grpcpp/support/status.h>

#include <string>

#include "absl/status/status.h"
#include "google/rpc/status.pb.h"

namespace arbiter::server {

// The google.rpc.Status for `status` (code 0 and nothing else for OK).
google::rpc::Status ToRpcStatus(const absl::Status& status);

// The grpc::Status for `status` (OK for OK), details as described above.
grpc::Status ToGrpcStatus(const absl::Status& status);

// "INVALID_ARGUMENT" etc.
std::string CodeName(absl::StatusCode code);

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_STATUS_MAPPING_H_
