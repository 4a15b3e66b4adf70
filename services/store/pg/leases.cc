#include "services/store/pg/leases.h"

#include <pqxx/pqxx>

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace arbiter::store::pg {
namespace {

// The grant: a new row (token 1), or the stored row taken over when it has
// expired or already names this holder (the next token). $1 name, $2
// holder, $3 ttl in microseconds.
constexpr char kAcquire[] = R"sql(
INSERT INTO leases AS l (name, holder, token, expires_at, acquired_at, renewed_at)
SELECT $1, $2, 1, t.now + $3 * interval '1 microsecond', t.now, t.now
FROM (SELECT clock_timestamp() AS now) t
ON CONFLICT (name) DO UPDATE
  SET holder = EXCLUDED.holder, token = l.token + 1, expires_at = EXCLUDED.expires_at,
      acquired_at = EXCLUDED.acquired_at, renewed_at = EXCLUDED.renewed_at
  WHERE l.expires_at <= clock_timestamp() OR l.holder = EXCLUDED.holder
RETURNING l.token
)sql";

constexpr char kReadLease[] =
    "SELECT holder, token, "
    "(extract(epoch FROM expires_at - clock_timestamp()) * 1000000)::bigint "
    "FROM leases WHERE name = $1";

// $1 name, $2 holder, $3 token, $4 ttl in microseconds.
constexpr char kRenew[] =
    "UPDATE leases SET expires_at = clock_timestamp() + $4 * interval '1 microsecond', "
    "renewed_at = clock_timestamp() WHERE name = $1 AND holder = $2 AND token = $3";

constexpr char kRelease[] =
    "UPDATE leases SET expires_at = clock_timestamp() "
    "WHERE name = $1 AND holder = $2 AND token = $3 AND expires_at > clock_timestamp()";

constexpr char kCheckFence[] =
    "SELECT holder, token, expires_at > clock_timestamp() FROM leases WHERE name = $1 FOR SHARE";

int64_t Micros(absl::Duration d) { return absl::ToInt64Microseconds(d); }

void LockWait(pqxx::transaction_base& txn, absl::Duration wait) {
  txn.exec(absl::StrCat("SET LOCAL lock_timeout = ", std::max<int64_t>(1, absl::ToInt64Milliseconds(wait))));
}

// SQLSTATE 55P03: lock_timeout passed while waiting for a row.
bool IsLockTimeout(const pqxx::sql_error& error) { return error.sqlstate() == "55P03"; }

LeaseRow RowOf(const pqxx::row& row) {
  return LeaseRow{row[0].as<std::string>(), row[1].as<int64_t>(),
                  absl::Microseconds(row[2].as<int64_t>())};
}

}  // namespace

absl::StatusOr<LeaseGrant> LeaseTable::Acquire(const std::string& name, const std::string& holder,
                                               absl::Duration ttl, absl::Duration lock_wait) {
  return pool_.Run("taking a lease", [&](pqxx::connection_base& c) -> absl::StatusOr<LeaseGrant> {
    LeaseGrant grant;
    try {
      pqxx::work txn(c);
      LockWait(txn, lock_wait);
      pqxx::result granted = txn.exec_params(kAcquire, name, holder, Micros(ttl));
      if (!granted.empty()) {
        txn.commit();
        grant.fence = LeaseFence{name, holder, granted[0][0].as<int64_t>(), /*idle_limit=*/ttl};
        return grant;
      }
      pqxx::result held = txn.exec_params(kReadLease, name);
      txn.commit();
      if (!held.empty()) {
        const LeaseRow row = RowOf(held[0]);
        grant.holder = row.holder;
        grant.token = row.token;
        grant.remaining = row.remaining;
      }
      return grant;
    } catch (const pqxx::sql_error& error) {
      if (!IsLockTimeout(error)) throw;
      return grant;  // the row is busy: not granted, try again soon
    }
  });
}

absl::StatusOr<bool> LeaseTable::Renew(const LeaseFence& fence, absl::Duration ttl,
                                       absl::Duration lock_wait) {
  return pool_.Run("renewing a lease", [&](pqxx::connection_base& c) -> absl::StatusOr<bool> {
    try {
      pqxx::work txn(c);
      LockWait(txn, lock_wait);
      pqxx::result renewed =
          txn.exec_params(kRenew, fence.name, fence.holder, fence.token, Micros(ttl));
      txn.commit();
      return renewed.affected_rows() == 1;
    } catch (const pqxx::sql_error& error) {
      if (!IsLockTimeout(error)) throw;
      return absl::UnavailableError(absl::StrCat("renewing lease \"", fence.name,
                                                 "\": its row stayed locked for ",
                                                 absl::FormatDuration(lock_wait)));
    }
  });
}

absl::Status LeaseTable::Release(const LeaseFence& fence) {
  return pool_.Run("releasing a lease", [&](pqxx::connection_base& c) -> absl::Status {
    pqxx::work txn(c);
    txn.exec_params(kRelease, fence.name, fence.holder, fence.token);
    txn.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<std::optional<LeaseRow>> LeaseTable::Read(const std::string& name) {
  return pool_.Run("reading a lease",
                   [&](pqxx::connection_base& c) -> absl::StatusOr<std::optional<LeaseRow>> {
                     pqxx::read_transaction txn(c);
                     pqxx::result rows = txn.exec_params(kReadLease, name);
                     if (rows.empty()) return std::optional<LeaseRow>();
                     return std::optional<LeaseRow>(RowOf(rows[0]));
                   });
}

absl::StatusOr<int64_t> LeaseTable::Request(const std::string& lease, const std::string& subject) {
  return pool_.Run("asking a lease's holder", [&](pqxx::connection_base& c) -> absl::StatusOr<int64_t> {
    pqxx::work txn(c);
    const int64_t number =
        txn.exec_params1(
               "INSERT INTO lease_requests AS r (lease, subject, requested) VALUES ($1, $2, 1) "
               "ON CONFLICT (lease, subject) DO UPDATE SET requested = r.requested + 1 "
               "RETURNING r.requested",
               lease, subject)[0]
            .as<int64_t>();
    txn.commit();
    return number;
  });
}

absl::StatusOr<int64_t> LeaseTable::Done(const std::string& lease, const std::string& subject) {
  return pool_.Run("reading a lease request", [&](pqxx::connection_base& c) -> absl::StatusOr<int64_t> {
    pqxx::read_transaction txn(c);
    pqxx::result rows = txn.exec_params(
        "SELECT done FROM lease_requests WHERE lease = $1 AND subject = $2", lease, subject);
    return rows.empty() ? 0 : rows[0][0].as<int64_t>();
  });
}

absl::StatusOr<std::map<std::string, int64_t>> LeaseTable::Pending(const std::string& lease) {
  return pool_.Run("reading lease requests",
                   [&](pqxx::connection_base& c) -> absl::StatusOr<std::map<std::string, int64_t>> {
                     pqxx::read_transaction txn(c);
                     std::map<std::string, int64_t> out;
                     for (const pqxx::row& row : txn.exec_params(
                              "SELECT subject, requested FROM lease_requests "
                              "WHERE lease = $1 AND requested > done",
                              lease)) {
                       out[row[0].as<std::string>()] = row[1].as<int64_t>();
                     }
                     return out;
                   });
}

absl::Status LeaseTable::MarkDone(const LeaseFence& fence, const std::string& subject,
                                  int64_t number) {
  return pool_.Run("answering a lease request", [&](pqxx::connection_base& c) -> absl::Status {
    pqxx::work txn(c);
    MarkDoneIn(txn, fence.name, subject, number);
    if (absl::Status fenced = CheckFence(txn, fence); !fenced.ok()) return fenced;
    txn.commit();
    return absl::OkStatus();
  });
}

absl::Status CheckFence(pqxx::transaction_base& txn, const LeaseFence& fence) {
  pqxx::result rows = txn.exec_params(kCheckFence, fence.name);
  if (rows.empty()) {
    return LeaseLostError(
        absl::StrCat("lease \"", fence.name, "\" was never granted: nothing written"));
  }
  const std::string holder = rows[0][0].as<std::string>();
  const int64_t token = rows[0][1].as<int64_t>();
  if (holder != fence.holder || token != fence.token) {
    return LeaseLostError(absl::StrCat("lease \"", fence.name, "\" was taken over by ", holder,
                                       " with token ", token, "; this holder's token ",
                                       fence.token, " is stale: nothing written"));
  }
  if (!rows[0][2].as<bool>()) {
    return LeaseLostError(absl::StrCat("lease \"", fence.name, "\" (token ", fence.token,
                                       ") expired before this write: nothing written"));
  }
  return absl::OkStatus();
}

void LimitIdleInTransaction(pqxx::transaction_base& txn, absl::Duration limit) {
  txn.exec(absl::StrCat("SET LOCAL idle_in_transaction_session_timeout = ",
                        std::max<int64_t>(1, absl::ToInt64Milliseconds(limit))));
}

void MarkDoneIn(pqxx::transaction_base& txn, const std::string& lease, const std::string& subject,
                int64_t number) {
  txn.exec_params(
      "UPDATE lease_requests SET done = greatest(done, $3) WHERE lease = $1 AND subject = $2",
      lease, subject, number);
}

}  // namespace arbiter::store::pg
