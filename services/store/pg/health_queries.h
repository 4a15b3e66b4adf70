// The SQL behind arbiterd's health answers (services/health/, and
// docs/replication.md, "Health and lag for orchestrators"): the readiness
// probe (is the database the pool reaches a writable primary, and how far
// behind is a standby's replay) and the figures exported on /metrics (the
// store's head, the projectors' checkpoints, the transparency log's
// progress). Both are bounded, so that a prober gets an answer in time
// whatever the database does:
//   - the wait for a pooled connection is at most `bound` (PgPool::TakeWithin);
//   - the query may be cut after `bound` (SocketCutter: another thread calls
//     its CutIfLate), and the figures' statements carry a statement_timeout;
//   - a pooled connection found dead (the server restarted, a failover) is
//     dropped and the next one tried, within the same bound, so that dead
//     idle connections do not make a reachable primary look down.
// Opening a new connection is bounded by the connection string's
// connect_timeout only. Thread-safe with one SocketCutter per concurrent
// caller.
#ifndef ARBITER_SERVICES_STORE_PG_HEALTH_QUERIES_H_
#define ARBITER_SERVICES_STORE_PG_HEALTH_QUERIES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/store/pg/pool.h"
#include "services/store/pg/socket_cutter.h"

namespace arbiter::store::pg {

// What the probe learnt of the database it reached.
struct DatabaseRole {
  // pg_is_in_recovery(): a standby (read-only), not a primary.
  bool in_recovery = false;
  // A standby only: WAL received but not yet replayed, in bytes
  // (pg_last_wal_receive_lsn() - pg_last_wal_replay_lsn()), and the seconds
  // since the last replayed commit (now() - pg_last_xact_replay_timestamp()),
  // 0 when everything received is replayed. Unknown (nullopt) when the
  // standby has received or replayed nothing yet.
  std::optional<int64_t> replay_lag_bytes;
  std::optional<double> replay_lag_seconds;
};

// A row of projector_checkpoints: the last store position a projector has
// counted.
struct ProjectorCheckpoint {
  std::string projector;
  int64_t position = 0;
};

// The store's progress figures, read in one snapshot.
struct StoreFigures {
  int64_t head_position = 0;  // store_head: the last stored game event
  // Every projector's stored checkpoint; nullopt on a standby, where
  // PostgreSQL does not let the unlogged projection tables be read.
  std::optional<std::vector<ProjectorCheckpoint>> projectors;
  uint64_t transparency_tree_size = 0;       // leaves of the Merkle tree
  int64_t transparency_events_position = 0;  // the last game event in it
  int64_t unlogged_stream_events = 0;        // stream events not in it yet
};

// One readiness probe: `SELECT pg_is_in_recovery()` and, on a standby, its
// replay lag. Errors: ResourceExhausted if every pooled connection stayed
// busy for `bound`; DeadlineExceeded if the database gave no answer within
// `bound` (the connection was cut); Unavailable if it cannot be reached
// (refused, lost, failed to open); otherwise the status of what libpqxx
// threw (status.h).
absl::StatusOr<DatabaseRole> ProbeDatabase(PgPool& pool, absl::Duration bound,
                                           SocketCutter& cutter);

// The figures, in one read-only REPEATABLE READ transaction. The errors of
// ProbeDatabase.
absl::StatusOr<StoreFigures> ReadStoreFigures(PgPool& pool, absl::Duration bound,
                                              SocketCutter& cutter);

}  // namespace arbiter::store::pg

#endif  // ARBITER_SERVICES_STORE_PG_HEALTH_QUERIES_H_
