// absl::Status for files that cannot be opened.
#ifndef ARBITER_SERVICES_LOG_FILE_STATUS_H_
#define ARBITER_SERVICES_LOG_FILE_STATUS_H_

#include <string>

#include "absl/status/status.h"

namespace arbiter::log {

// NotFound for ENOENT, PermissionDenied for EACCES, InvalidArgument
// otherwise; the message names the path and the reason.
absl::Status FileOpenError(const std::string& path, int error);

}  // namespace arbiter::log

#endif  // ARBITER_SERVICES_LOG_FILE_STATUS_H_
