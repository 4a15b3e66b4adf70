// Page sizes of list requests (AIP-158): 0 asks for the method's default,
// 1-1000 for that many. Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_COMMON_PAGE_H_
#define ARBITER_SERVICES_COMMON_PAGE_H_

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "services/common/status_details.h"

namespace arbiter::common {

inline constexpr int kMaxPageSize = 1000;

// The page size a request's `page_size` asks for: `default_size` for 0.
// InvalidArgument with a field violation on "page_size" outside 0-1000.
inline absl::StatusOr<int> PageSizeOf(int page_size, int default_size = 100) {
  if (page_size == 0) return default_size;
  if (page_size < 0 || page_size > kMaxPageSize) {
    return FieldError("page_size",
                      absl::StrCat("page_size must be 0-", kMaxPageSize, ", not ", page_size));
  }
  return page_size;
}

}  // namespace arbiter::common

#endif  // ARBITER_SERVICES_COMMON_PAGE_H_
