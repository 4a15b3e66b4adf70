#include "services/log/file_status.h"

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace arbiter::log {

absl::Status FileOpenError(const std::string& path, int error) {
  const std::string reason = std::strerror(error);
  if (error == ENOENT) return absl::NotFoundError(absl::StrCat(path, ": ", reason));
  if (error == EACCES) return absl::PermissionDeniedError(absl::StrCat(path, ": ", reason));
  return absl::InvalidArgumentError(absl::StrCat(path, ": cannot be read: ", reason));
}

}  // namespace arbiter::log
