// The schema migration runner.
//
// Migrations are the files migrations/NNNN_name.sql, compiled into the
// binary. They are forward only and never edited once landed: the runner
// records each applied file's version, name and SHA-256 in
// schema_migrations, and refuses to run (FailedPrecondition) if a recorded
// file's checksum changed or a recorded version is unknown to this binary.
// Each file is applied in its own transaction; concurrent runners serialise
// on an advisory lock, so starting several servers at once is safe.
#ifndef ARBITER_SERVICES_STORE_MIGRATIONS_H_
#define ARBITER_SERVICES_STORE_MIGRATIONS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace arbiter::store {

struct Migration {
  int version = 0;   // NNNN from the file name
  std::string name;  // the file name, e.g. "0001_events.sql"
  std::string sql;
};

// The migrations compiled into this binary, by version.
const std::vector<Migration>& BuiltinMigrations();

// Applies the built-in migrations not yet applied. Errors: Unavailable
// (server unreachable), FailedPrecondition (a landed file changed or is
// unknown), Internal (a migration failed; its transaction is rolled back).
absl::Status ApplyMigrations(const std::string& conninfo);

// The same with an explicit list (for tests), which must be sorted by
// version with distinct versions (InvalidArgument otherwise).
absl::Status ApplyMigrations(const std::string& conninfo, const std::vector<Migration>& migrations);

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_MIGRATIONS_H_
