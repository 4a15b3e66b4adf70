// Turns libpqxx exceptions into absl::Status at the edge of the store.
// Thread-safe (pure function).
#ifndef ARBITER_SERVICES_STORE_INTERNAL_PQ_STATUS_H_
#define ARBITER_SERVICES_STORE_INTERNAL_PQ_STATUS_H_

#include <exception>
#include <string>

#include "absl/status/status.h"

namespace arbiter::store::internal {

// Lost or refused connections, server shutdowns and commits of unknown
// outcome: Unavailable. SQLSTATE class 22 (bad data): InvalidArgument.
// 42501 (no privilege) and AR001 (append-only trigger): PermissionDenied.
// 23505 (unique violation): AlreadyExists. 40001/40P01: Aborted.
// Anything else: Internal. `doing` says what was being done ("appending").
absl::Status StatusFromException(const std::exception& error, const std::string& doing);

// True if `status` came from a broken connection (the connection must be
// dropped, not reused).
bool IsConnectionLoss(const std::exception& error);

}  // namespace arbiter::store::internal

#endif  // ARBITER_SERVICES_STORE_INTERNAL_PQ_STATUS_H_
