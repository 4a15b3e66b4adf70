// The one place where libpqxx exceptions become absl::Status: every
// PostgreSQL user of the service (the pool, pool.h, and through it the event,
// stream, token and projection stores and the transparency log; migrations
// and the embedded cluster's set-up) maps them here, so a failure has the
// same code whichever part met it. Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_STORE_PG_STATUS_H_
#define ARBITER_SERVICES_STORE_PG_STATUS_H_

#include <exception>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace arbiter::store::pg {

// The status of `error`, with the message "<doing>: <what the error says>"
// (`doing` says what was being done: "appending events"):
//   Unavailable       lost or refused connections, server shutdowns, too
//                     many connections (53300), and commits of unknown
//                     outcome (the message then says to retry with the same
//                     request id);
//   InvalidArgument   SQLSTATE class 22 (bad data);
//   PermissionDenied  42501 (no privilege) and AR001 (append-only trigger);
//   AlreadyExists     23505 (unique violation);
//   Aborted           40001 and 40P01 (serialization failure, deadlock);
//   Internal          anything else, and exceptions that are not libpqxx's.
absl::Status StatusFromException(const std::exception& error, absl::string_view doing);

// True if `error` came from a broken connection: the connection must be
// dropped, not reused.
bool IsConnectionLoss(const std::exception& error);

}  // namespace arbiter::store::pg

#endif  // ARBITER_SERVICES_STORE_PG_STATUS_H_
