// Reads from hot standbys with read-your-writes (docs/replication.md,
// "Reads from standbys"). StandbyReads holds one PgPool per read database
// (a libpq string, typically the standbys with
// target_session_attrs=prefer-standby), opened as the primary's pool is
// (same role, same prepared statements). A StandbyReadScope, opened by the
// RPC layer around a read-only call on the calling thread, turns every
// PgPool::Take of the primary's pool on that thread into a Take of one
// read database, picked in turn per scope:
//
//   - without a WAL position to wait for, the standby's connection is used
//     as it is (the read may see a state a little older than the primary's);
//   - with one (a write's token, `arbiter-read-after`), the connection is
//     used once its server has replayed that far: pg_last_wal_replay_lsn()
//     is polled every `poll` until it is, or until `wait` has passed since
//     the scope opened; then this Take and every later one of the scope go
//     to the primary (a "fallback"). A server that is not in recovery (a
//     promoted standby, or a primary that prefer-standby fell back to) has
//     every commit it will ever have: it answers at once;
//   - a read database that cannot be reached sends the scope to the
//     primary too;
//   - with `max_lag` set, a scope without a WAL position first asks the
//     standby how far behind it is (one more round trip): in recovery with
//     no walreceiver (cut off from its primary), or with received WAL not
//     replayed yet and its last replayed commit older than `max_lag`, it
//     goes to the primary (a "fallback" for lag). This bounds how stale a
//     tokenless read may be.
//
// Each connection remembers the highest replay position it has seen (its
// server's replay only moves forward, and a restarted server breaks the
// connection), so a token already passed costs no query.
//
// What a write answers (AfterWrite): the primary's pg_current_wal_lsn()
// read after the commit returned, which is at or past the end of that
// commit's record, so a standby that has replayed to it shows the commit;
// and the store's head position, for reads that wait for a projector.
//
// Thread-safe; a scope belongs to the thread that opened it.
#ifndef ARBITER_SERVICES_STORE_PG_STANDBY_READS_H_
#define ARBITER_SERVICES_STORE_PG_STANDBY_READS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/store/pg/pool.h"

namespace arbiter::store::pg {

// A WAL position as PostgreSQL writes a pg_lsn: two hexadecimal numbers of
// at most 8 digits, "X/Y" (for instance "0/3000148"). InvalidArgument naming
// the expected form otherwise.
absl::StatusOr<uint64_t> ParseWalPosition(absl::string_view text);
std::string FormatWalPosition(uint64_t position);

struct StandbyReadOptions {
  // One libpq string or URL per read database; reads are spread over them
  // in turn, one database per scope.
  std::vector<std::string> conninfos;
  // How long a scope with a WAL position waits for a standby to replay it
  // before it reads from the primary.
  absl::Duration wait = absl::Milliseconds(200);
  // Between two looks at the standby's replay position.
  absl::Duration poll = absl::Milliseconds(2);
  // How far behind its primary a standby may be for a read without a WAL
  // position (see above); zero: no bound.
  absl::Duration max_lag = absl::ZeroDuration();
  // Connections per read database at most.
  int max_connections = 16;
};

// What a write answers, read on the primary after its commit.
struct WriteMark {
  uint64_t wal_position = 0;  // pg_current_wal_lsn()
  int64_t store_position = 0;  // store_head.last_position
};

// Counts since start, for /metrics.
struct StandbyReadStats {
  // Scopes that ended having read only from a read database.
  int64_t served_by_standby = 0;
  // Scopes sent to the primary: the standby had not replayed the token
  // within the wait, or could not be reached.
  int64_t fallbacks_lag = 0;
  int64_t fallbacks_unreachable = 0;
  // Scopes that carried a WAL position: how long each waited for it (to
  // the standby or to the fallback), by upper bound in seconds.
  static constexpr std::array<double, 10> kWaitBounds = {0.0005, 0.001, 0.0025, 0.005, 0.01,
                                                         0.025,  0.05,  0.1,    0.25,  0.5};
  std::array<int64_t, kWaitBounds.size()> wait_buckets{};  // cumulative (<= bound)
  int64_t waits = 0;
  double wait_seconds_sum = 0;
};

class StandbyReads {
 public:
  // No connection is opened until a read needs one. `primary` must outlive
  // this object.
  StandbyReads(PgPool& primary, StandbyReadOptions options);
  ~StandbyReads();
  StandbyReads(const StandbyReads&) = delete;
  StandbyReads& operator=(const StandbyReads&) = delete;

  // The primary's WAL position and store head now (call it after a write's
  // commit returned). The errors of PgPool::Run.
  absl::StatusOr<WriteMark> AfterWrite();

  StandbyReadStats Stats() const;
  const StandbyReadOptions& options() const { return options_; }
  PgPool& primary() { return primary_; }

 private:
  friend class StandbyReadScope;
  enum class Ending { kStandby, kLag, kUnreachable };
  // The read database for the next scope.
  PgPool& Next();
  void Note(Ending ending, std::optional<absl::Duration> waited);

  PgPool& primary_;
  const StandbyReadOptions options_;
  std::vector<std::unique_ptr<PgPool>> pools_;
  std::atomic<uint64_t> next_{0};
  mutable absl::Mutex mu_;
  StandbyReadStats stats_ ABSL_GUARDED_BY(mu_);
};

// Routes the calling thread's Takes of `reads.primary()` to a read database
// while it lives (see above). `after`: the WAL position to wait for, if any.
// Scopes do not nest: an inner one is ignored.
class StandbyReadScope {
 public:
  StandbyReadScope(StandbyReads& reads, std::optional<uint64_t> after);
  ~StandbyReadScope();
  StandbyReadScope(const StandbyReadScope&) = delete;
  StandbyReadScope& operator=(const StandbyReadScope&) = delete;

  // The scope open on this thread, if any: for caches that must not take
  // a standby's read for the latest state.
  static const StandbyReadScope* OnThisThread();

  // True once the scope reads from the primary (a fallback).
  bool on_primary() const { return on_primary_; }
  // True if it carries a write's WAL position.
  bool waits_for_write() const { return after_.has_value(); }

 private:
  friend class PgPool;
  // The scope open on this thread that routes `pool`, or null.
  static StandbyReadScope* Routing(const PgPool& pool);
  // PgPool::Take within the scope.
  absl::StatusOr<PgPool::Lease> Take();
  // True if the leased standby connection has replayed `after_` (waiting
  // for it within the deadline); false to fall back.
  bool Replayed(PgPool::Lease& lease);
  // True if the leased standby connection is within options().max_lag of
  // its primary (see above); false to fall back.
  bool WithinLag(PgPool::Lease& lease);
  absl::StatusOr<PgPool::Lease> FallBack(StandbyReads::Ending why);

  StandbyReads& reads_;
  PgPool& standby_;
  const std::optional<uint64_t> after_;
  const absl::Time deadline_;
  bool active_ = false;  // false for an ignored inner scope
  bool on_primary_ = false;
  bool used_ = false;
  bool within_lag_ = false;  // a standby of this scope passed WithinLag
  std::optional<StandbyReads::Ending> ending_;
  absl::Duration waited_ = absl::ZeroDuration();
};

}  // namespace arbiter::store::pg

#endif  // ARBITER_SERVICES_STORE_PG_STANDBY_READS_H_
