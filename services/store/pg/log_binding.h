// LogBindingTable: the SQL of the transparency log's binding (table
// transparency_log_binding, migrations/0024_transparency_log_binding.sql):
// the one origin and Ed25519 public key that every checkpoint of this
// database's log is signed under, claimed by the first arbiterd to start.
// What a binding means and when a server is refused is
// services/transparency/log_binding.h; this file only reads and writes the
// row, on the service's pool (pool.h). Thread-safe.
#ifndef ARBITER_SERVICES_STORE_PG_LOG_BINDING_H_
#define ARBITER_SERVICES_STORE_PG_LOG_BINDING_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "services/store/pg/pool.h"

namespace arbiter::store::pg {

// The row. Stored: never renumber (the columns of migration 0024).
struct LogBindingRow {
  std::string origin;
  std::string public_key;       // the 32 bytes of the Ed25519 public key
  int64_t bound_at_seconds = 0;  // since 1970; set by the database
  std::string bound_by;          // what wrote it, for people
};

class LogBindingTable {
 public:
  // `pool` must outlive this object.
  explicit LogBindingTable(PgPool& pool) : pool_(pool) {}

  // The binding; nullopt if no server has claimed the log yet. The errors
  // of PgPool::Run.
  absl::StatusOr<std::optional<LogBindingRow>> Read();

  // Writes `row` unless a binding is stored (INSERT ... ON CONFLICT DO
  // NOTHING) and returns the binding as it then is: `row` if this call
  // claimed the log, otherwise the one stored before, which the caller
  // must compare with its own. The errors of PgPool::Run.
  absl::StatusOr<LogBindingRow> Claim(const LogBindingRow& row);

 private:
  PgPool& pool_;
};

}  // namespace arbiter::store::pg

#endif  // ARBITER_SERVICES_STORE_PG_LOG_BINDING_H_
