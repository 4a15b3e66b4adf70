#include "services/store/pg/health_queries.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <functional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/store/pg/status.h"

namespace arbiter::store::pg {
namespace {

// One statement, one round trip. On a primary only the first column is
// set. The byte lag is clamped at 0: WAL replayed from pg_wal at start-up
// can be ahead of what streaming received.
constexpr char kProbe[] =
    "SELECT r, "
    "  CASE WHEN r THEN greatest(0, pg_wal_lsn_diff(pg_last_wal_receive_lsn(), "
    "                                               pg_last_wal_replay_lsn()))::bigint END, "
    "  CASE WHEN r THEN CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
    "    ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 END END "
    "FROM pg_is_in_recovery() AS r";

// Tables that standbys have too (ordinary, WAL-logged ones).
constexpr char kFigures[] =
    "SELECT h.last_position, t.tree_size, t.events_position, u.unlogged, pg_is_in_recovery() "
    "FROM store_head h CROSS JOIN transparency_head t CROSS JOIN "
    "  (SELECT coalesce(sum(s.last_sequence - coalesce(l.sequence, 0)), 0)::bigint AS unlogged "
    "   FROM streams s LEFT JOIN transparency_stream_heads l USING (stream_id)) u";

// projector_checkpoints is UNLOGGED: a standby refuses to read it.
constexpr char kProjectors[] =
    "SELECT projector, position FROM projector_checkpoints ORDER BY projector";

bool IsCancelled(const std::exception& error) {
  const auto* sql = dynamic_cast<const pqxx::sql_error*>(&error);
  return sql != nullptr && sql->sqlstate() == "57014";  // statement_timeout
}

template <typename T>
std::optional<T> Optional(const pqxx::field& field) {
  if (field.is_null()) return std::nullopt;
  return field.as<T>();
}

// Runs `query` on a pooled connection within `bound` (see the header):
// a connection found dead is dropped and the next one tried.
template <typename T>
absl::StatusOr<T> RunBounded(PgPool& pool, absl::Duration bound, SocketCutter& cutter,
                             const char* doing,
                             const std::function<T(pqxx::connection_base&)>& query) {
  const absl::Time deadline = absl::Now() + bound;
  absl::Status last = absl::UnavailableError(absl::StrCat(doing, ": no connection"));
  for (int attempt = 0; attempt <= std::max(1, pool.options().max_connections); ++attempt) {
    absl::StatusOr<PgPool::Lease> lease = pool.TakeWithin(deadline - absl::Now());
    if (!lease.ok()) return lease.status();
    cutter.Arm(lease->conn().sock(), deadline);
    try {
      T answer = query(lease->conn());
      // Cut just as it answered: the answer stands, the connection goes.
      if (cutter.Disarm()) (void)lease->Fail(pqxx::broken_connection("cut"), doing);
      return answer;
    } catch (const std::exception& error) {
      const bool cut = cutter.Disarm();
      const bool lost = IsConnectionLoss(error);
      last = lease->Fail(error, doing);
      if (cut || IsCancelled(error)) {
        return absl::DeadlineExceededError(
            absl::StrCat(doing, ": no answer within ", absl::FormatDuration(bound)));
      }
      if (!lost || absl::Now() >= deadline) return last;
    }
  }
  return last;
}

DatabaseRole RoleOf(pqxx::connection_base& conn) {
  pqxx::nontransaction txn(conn);
  const pqxx::row row = txn.exec1(kProbe);
  DatabaseRole role;
  role.in_recovery = row[0].as<bool>();
  role.replay_lag_bytes = Optional<int64_t>(row[1]);
  role.replay_lag_seconds = Optional<double>(row[2]);
  return role;
}

StoreFigures FiguresOf(pqxx::connection_base& conn, absl::Duration bound) {
  pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> txn(conn);
  txn.exec0(absl::StrCat("SET LOCAL statement_timeout = ",
                         std::max<int64_t>(1, absl::ToInt64Milliseconds(bound))));
  const pqxx::row row = txn.exec1(kFigures);
  StoreFigures figures;
  figures.head_position = row[0].as<int64_t>();
  figures.transparency_tree_size = row[1].as<uint64_t>();
  figures.transparency_events_position = row[2].as<int64_t>();
  figures.unlogged_stream_events = row[3].as<int64_t>();
  if (!row[4].as<bool>()) {
    figures.projectors.emplace();
    for (const pqxx::row& projector : txn.exec(kProjectors)) {
      figures.projectors->push_back(
          ProjectorCheckpoint{projector[0].as<std::string>(), projector[1].as<int64_t>()});
    }
  }
  txn.commit();
  return figures;
}

}  // namespace

absl::StatusOr<DatabaseRole> ProbeDatabase(PgPool& pool, absl::Duration bound,
                                           SocketCutter& cutter) {
  return RunBounded<DatabaseRole>(pool, bound, cutter, "probing PostgreSQL", RoleOf);
}

absl::StatusOr<StoreFigures> ReadStoreFigures(PgPool& pool, absl::Duration bound,
                                              SocketCutter& cutter) {
  return RunBounded<StoreFigures>(
      pool, bound, cutter, "reading the store's figures",
      [bound](pqxx::connection_base& conn) { return FiguresOf(conn, bound); });
}

}  // namespace arbiter::store::pg
