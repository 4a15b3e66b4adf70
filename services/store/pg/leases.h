// LeaseTable: the SQL of the leases (table `leases`, migration 0023) and of
// the requests other servers leave for a lease's holder (`lease_requests`),
// on the service's pool (pool.h). What a lease is and how a server keeps one
// is services/store/lease_keeper.h; docs/replication.md ("Singletons") says
// why.
//
// Every expiry is computed and compared by the database's clock
// (clock_timestamp() + ttl), never a server's, so servers whose clocks
// disagree still agree on who holds a lease. A grant gives the next fencing
// token; CheckFence, run inside a singleton's writing transaction, refuses
// the write of any holder but the current one. Thread-safe.
#ifndef ARBITER_SERVICES_STORE_PG_LEASES_H_
#define ARBITER_SERVICES_STORE_PG_LEASES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/store/lease_fence.h"
#include "services/store/pg/pool.h"

namespace arbiter::store::pg {

// The answer to an attempt to take a lease.
struct LeaseGrant {
  // Set when the lease is now this caller's (token: its fencing token).
  std::optional<LeaseFence> fence;
  // Otherwise, who holds it, with which token, and for how much longer by
  // the database's clock (empty holder: the row was locked by another
  // server's grant or write, try again soon).
  std::string holder;
  int64_t token = 0;
  absl::Duration remaining;
};

// A row of `leases`, as read (for tests, logs and operators).
struct LeaseRow {
  std::string holder;
  int64_t token = 0;
  absl::Duration remaining;  // negative once expired
};

class LeaseTable {
 public:
  // `pool` must outlive this object.
  explicit LeaseTable(PgPool& pool) : pool_(pool) {}

  // Grants lease `name` to `holder` for `ttl` if nobody holds it, it has
  // expired, or `holder` holds it already; every grant but a lease's first
  // gives the token after the stored one. Waits at most `lock_wait` for the
  // row (a write of the holder may be checking its fence); past that it
  // answers "not granted" with an empty holder. Unavailable if PostgreSQL
  // is.
  absl::StatusOr<LeaseGrant> Acquire(const std::string& name, const std::string& holder,
                                     absl::Duration ttl, absl::Duration lock_wait);
  // Extends the grant `fence` to ttl from now. False (nothing changed) if
  // the lease names another holder or token: it was taken over. A lease
  // that expired but was not taken over is still this holder's, with the
  // same token, and is renewed. Waits at most `lock_wait` for the row, then
  // is Unavailable.
  absl::StatusOr<bool> Renew(const LeaseFence& fence, absl::Duration ttl,
                             absl::Duration lock_wait);
  // Ends the grant `fence` now (sets its expiry to the database's now), so
  // that the next server to try takes it over at once. Nothing if it was
  // taken over already.
  absl::Status Release(const LeaseFence& fence);
  // nullopt if the lease was never granted.
  absl::StatusOr<std::optional<LeaseRow>> Read(const std::string& name);

  // Asks the holder of `lease` to do `subject` (a league to rebuild; ""
  // for a checkpoint to sign). Returns the request's number: the work is
  // done once Done(lease, subject) reaches it.
  absl::StatusOr<int64_t> Request(const std::string& lease, const std::string& subject);
  // The number of the latest request done for (lease, subject) (0 if none).
  absl::StatusOr<int64_t> Done(const std::string& lease, const std::string& subject);
  // The requests for `lease` not yet done: subject -> the latest number.
  absl::StatusOr<std::map<std::string, int64_t>> Pending(const std::string& lease);
  // Records, fenced by `fence` in a transaction of its own, that the
  // requests for (fence.name, subject) up to `number` are done. Aborted if
  // the fence fails.
  absl::Status MarkDone(const LeaseFence& fence, const std::string& subject, int64_t number);

 private:
  PgPool& pool_;
};

// The fence of a singleton's write, for its writing transaction `txn`.
// Locks the lease row FOR SHARE (a takeover waits for `txn` to end; a
// takeover that committed first is seen) and checks that it names
// fence.holder and fence.token and has not expired by the database's clock.
// Aborted naming the lease and who holds it otherwise: the caller must
// write nothing (roll back). Call it after the transaction's other checks,
// just before commit, so that the row is held for a moment only. Throws
// what libpqxx throws.
absl::Status CheckFence(pqxx::transaction_base& txn, const LeaseFence& fence);

// For a fenced transaction that may lock rows another holder will need
// (the projector's checkpoint, the tree's head): should the process be
// paused inside it, PostgreSQL ends the session once it has been idle in
// the transaction for `limit` (idle_in_transaction_session_timeout), which
// rolls it back and frees the rows for the next holder. Throws what libpqxx
// throws.
void LimitIdleInTransaction(pqxx::transaction_base& txn, absl::Duration limit);

// MarkDone's statement, in the caller's fenced transaction.
void MarkDoneIn(pqxx::transaction_base& txn, const std::string& lease, const std::string& subject,
                int64_t number);

}  // namespace arbiter::store::pg

#endif  // ARBITER_SERVICES_STORE_PG_LEASES_H_
