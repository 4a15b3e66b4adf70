// Details that ride along with an absl::Status from the code that knows them
// to the transport that sends them: a google.rpc.ErrorInfo (a stable reason
// and metadata) and google.rpc.BadRequest field violations, kept as the
// status's payloads. services/server/status_mapping.h turns them into the
// gRPC trailer; nothing here depends on gRPC. Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_COMMON_STATUS_DETAILS_H_
#define ARBITER_SERVICES_COMMON_STATUS_DETAILS_H_

#include <map>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "google/rpc/error_details.pb.h"

namespace arbiter::common {

inline constexpr char kErrorDomain[] = "arbiter.v1";

// `status` with ErrorInfo{reason, metadata} attached (replacing any).
absl::Status WithErrorInfo(absl::Status status, const std::string& reason,
                           const std::map<std::string, std::string>& metadata = {});

// `status` with one more BadRequest field violation.
absl::Status WithFieldViolation(absl::Status status, const std::string& field,
                                const std::string& description);

// InvalidArgument with `message` and a field violation on `field` saying
// the same.
absl::Status FieldError(const std::string& field, const std::string& message);

// The details attached to `status`, if any.
std::optional<google::rpc::ErrorInfo> ErrorInfoOf(const absl::Status& status);
std::optional<google::rpc::BadRequest> BadRequestOf(const absl::Status& status);

}  // namespace arbiter::common

#endif  // ARBITER_SERVICES_COMMON_STATUS_DETAILS_H_
