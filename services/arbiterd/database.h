// Opening arbiterd's database: an external PostgreSQL from a connection
// string, or the embedded cluster in the data directory; migrations; and the
// bootstrap admin token written on the first start.
// Not thread-safe: arbiterd's main thread uses it once.
#ifndef ARBITER_SERVICES_ARBITERD_DATABASE_H_
#define ARBITER_SERVICES_ARBITERD_DATABASE_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/store/postgres_token_store.h"
#include "services/store/embedded_postgres.h"
#include "services/store/pg/standby_reads.h"
#include "services/store/postgres_event_store.h"

namespace arbiter::arbiterd {

struct DatabaseOptions {
  // libpq connection string or URL; empty: the embedded cluster.
  std::string url;
  // Holds the embedded cluster (in "postgres/") and admin.token.
  std::string data_dir = "./arbiter-data";
  // Connections to PostgreSQL at most, in the one pool (pg/pool.h) that the
  // event store opens and every other part shares: streams, projections,
  // the transparency log and token look-ups. Calls beyond wait for one
  // (PostgresOptions::max_connections). Besides these, the store's follower
  // holds one LISTEN connection of its own.
  int max_connections = 16;
  // Keep each event's readable JSON copy in events.payload_json, for
  // auditors reading the database (PostgresOptions::keep_json_copies).
  bool keep_json_copies = false;
  // Read databases (libpq strings or URLs, typically the standbys with
  // target_session_attrs=prefer-standby): read-only calls may be served by
  // them (store::pg::StandbyReads). Empty: every call reads the primary.
  std::vector<std::string> read_urls;
  // How long a read carrying a write's WAL position waits for a read
  // database to replay it before it reads the primary.
  int read_wait_ms = 200;
  // How far behind its primary a read database may be for a read without
  // a token (StandbyReadOptions::max_lag); 0: no bound.
  int read_max_lag_ms = 0;
};

// Destroyed in reverse order: the token store before the event store whose
// pool it uses.
struct Database {
  std::unique_ptr<store::EmbeddedPostgres> embedded;  // null with a URL
  std::string conninfo;
  std::unique_ptr<store::PostgresEventStore> events;
  std::unique_ptr<store::PostgresTokenStore> tokens;  // on events->pool()
  // With read_urls; routes from events->pool().
  std::unique_ptr<store::pg::StandbyReads> standby_reads;
};

// Starts the embedded cluster if needed, applies the migrations and opens
// the stores. Errors of EmbeddedPostgres::Start, ApplyMigrations and
// PostgresEventStore::Open.
absl::StatusOr<Database> OpenDatabase(const DatabaseOptions& options);

// If the token store is empty: creates an admin token, writes it to
// <data_dir>/admin.token (mode 0600) and returns that path; otherwise
// nullopt. Internal if the file cannot be written.
absl::StatusOr<std::optional<std::string>> BootstrapAdminToken(store::TokenStore& tokens,
                                                               const std::string& data_dir);

}  // namespace arbiter::arbiterd

#endif  // ARBITER_SERVICES_ARBITERD_DATABASE_H_
