#include "services/store/pg/standby_reads.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"

namespace arbiter::store::pg {
namespace {

// The scope open on this thread, if any.
thread_local StandbyReadScope* current_scope = nullptr;

bool IsHexDigits(absl::string_view text) {
  return !text.empty() && text.size() <= 8 &&
         std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
         });
}

}  // namespace

absl::StatusOr<uint64_t> ParseWalPosition(absl::string_view text) {
  const std::size_t slash = text.find('/');
  uint32_t high = 0;
  uint32_t low = 0;
  if (slash == absl::string_view::npos || !IsHexDigits(text.substr(0, slash)) ||
      !IsHexDigits(text.substr(slash + 1)) ||
      !absl::SimpleHexAtoi(text.substr(0, slash), &high) ||
      !absl::SimpleHexAtoi(text.substr(slash + 1), &low)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "not a WAL position: expected two hexadecimal numbers of 1 to 8 digits joined by '/', "
        "as a write's answer gives it (for instance 0/3000148); got \"",
        text.substr(0, 40), text.size() > 40 ? "..." : "", "\""));
  }
  return (uint64_t{high} << 32) | low;
}

std::string FormatWalPosition(uint64_t position) {
  return absl::StrFormat("%X/%X", position >> 32, position & 0xFFFFFFFFu);
}

StandbyReads::StandbyReads(PgPool& primary, StandbyReadOptions options)
    : primary_(primary), options_(std::move(options)) {
  for (const std::string& conninfo : options_.conninfos) {
    PgPoolOptions pool = primary_.options();
    pool.conninfo = conninfo;
    pool.max_connections = options_.max_connections;
    pools_.push_back(std::make_unique<PgPool>(std::move(pool)));
  }
}

StandbyReads::~StandbyReads() = default;

absl::StatusOr<WriteMark> StandbyReads::AfterWrite() {
  // TakeWithin: never routed, even if a caller wrote inside a read scope.
  absl::StatusOr<PgPool::Lease> lease = primary_.TakeWithin(primary_.options().connection_wait);
  if (!lease.ok()) return lease.status();
  try {
    pqxx::nontransaction txn(lease->conn());
    const pqxx::row row =
        txn.exec1("SELECT pg_current_wal_lsn()::text, (SELECT last_position FROM store_head)");
    txn.commit();
    WriteMark mark;
    absl::StatusOr<uint64_t> wal = ParseWalPosition(row[0].c_str());
    if (!wal.ok()) return absl::InternalError(wal.status().message());
    mark.wal_position = *wal;
    mark.store_position = row[1].as<int64_t>();
    return mark;
  } catch (const std::exception& error) {
    return lease->Fail(error, "reading the WAL position after a write");
  }
}

PgPool& StandbyReads::Next() {
  return *pools_[next_.fetch_add(1, std::memory_order_relaxed) % pools_.size()];
}

void StandbyReads::Note(Ending ending, std::optional<absl::Duration> waited) {
  absl::MutexLock lock(&mu_);
  switch (ending) {
    case Ending::kStandby:
      ++stats_.served_by_standby;
      break;
    case Ending::kLag:
      ++stats_.fallbacks_lag;
      break;
    case Ending::kUnreachable:
      ++stats_.fallbacks_unreachable;
      break;
  }
  if (!waited.has_value()) return;
  const double seconds = absl::ToDoubleSeconds(*waited);
  ++stats_.waits;
  stats_.wait_seconds_sum += seconds;
  for (std::size_t i = 0; i < StandbyReadStats::kWaitBounds.size(); ++i) {
    if (seconds <= StandbyReadStats::kWaitBounds[i]) ++stats_.wait_buckets[i];
  }
}

StandbyReadStats StandbyReads::Stats() const {
  absl::MutexLock lock(&mu_);
  return stats_;
}

StandbyReadScope::StandbyReadScope(StandbyReads& reads, std::optional<uint64_t> after)
    : reads_(reads),
      standby_(reads.Next()),
      after_(after),
      deadline_(absl::Now() + reads.options().wait) {
  if (current_scope != nullptr) return;
  active_ = true;
  current_scope = this;
}

StandbyReadScope::~StandbyReadScope() {
  if (!active_) return;
  current_scope = nullptr;
  if (!used_) return;
  std::optional<absl::Duration> waited;
  if (after_.has_value()) waited = waited_;
  reads_.Note(ending_.value_or(StandbyReads::Ending::kStandby), waited);
}

const StandbyReadScope* StandbyReadScope::OnThisThread() { return current_scope; }

StandbyReadScope* StandbyReadScope::Routing(const PgPool& pool) {
  StandbyReadScope* scope = current_scope;
  if (scope == nullptr || &pool != &scope->reads_.primary()) return nullptr;
  return scope;
}

absl::StatusOr<PgPool::Lease> StandbyReadScope::Take() {
  used_ = true;
  PgPool& primary = reads_.primary();
  if (on_primary_) {
    return primary.TakeOr(primary.options().connection_wait, absl::StatusCode::kUnavailable);
  }
  absl::StatusOr<PgPool::Lease> lease = standby_.Take();
  if (!lease.ok()) return FallBack(StandbyReads::Ending::kUnreachable);
  if (!after_.has_value()) {
    if (within_lag_ || reads_.options().max_lag <= absl::ZeroDuration()) return lease;
    if ((within_lag_ = WithinLag(*lease))) return lease;
    return FallBack(ending_.value_or(StandbyReads::Ending::kLag));
  }
  if (lease->replayed() >= *after_) return lease;
  if (Replayed(*lease)) return lease;
  return FallBack(ending_.value_or(StandbyReads::Ending::kLag));
}

bool StandbyReadScope::Replayed(PgPool::Lease& lease) {
  const absl::Time start = absl::Now();
  const absl::Duration poll = reads_.options().poll;
  for (;;) {
    try {
      pqxx::nontransaction txn(lease.conn());
      const pqxx::row row =
          txn.exec1("SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text");
      txn.commit();
      if (!row[0].as<bool>()) {
        // Not (or no longer) a standby: it has every commit it will have.
        lease.replayed() = UINT64_MAX;
      } else if (!row[1].is_null()) {
        absl::StatusOr<uint64_t> replayed = ParseWalPosition(row[1].c_str());
        if (replayed.ok()) lease.replayed() = std::max(lease.replayed(), *replayed);
      }
    } catch (const std::exception& error) {
      (void)lease.Fail(error, "reading a standby's replay position");
      waited_ += absl::Now() - start;
      ending_ = StandbyReads::Ending::kUnreachable;
      return false;
    }
    const absl::Time now = absl::Now();
    if (lease.replayed() >= *after_) {
      waited_ += now - start;
      return true;
    }
    if (now >= deadline_) {
      waited_ += now - start;
      return false;
    }
    absl::SleepFor(std::min(poll, deadline_ - now));
  }
}

bool StandbyReadScope::WithinLag(PgPool::Lease& lease) {
  // Whether it is a standby; whether its walreceiver runs (the view has a
  // row only then, its pid visible to every role); how old its last
  // replayed commit is while received WAL waits to be replayed (0 when it
  // has replayed all it received; no commit replayed yet counts as behind).
  static constexpr char kLagProbe[] =
      "SELECT r, EXISTS (SELECT 1 FROM pg_stat_wal_receiver), "
      "  CASE WHEN r AND pg_last_wal_receive_lsn() IS DISTINCT FROM pg_last_wal_replay_lsn() "
      "    THEN coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8, "
      "                  'Infinity') "
      "    ELSE 0 END "
      "FROM pg_is_in_recovery() AS r";
  try {
    pqxx::nontransaction txn(lease.conn());
    const pqxx::row row = txn.exec1(kLagProbe);
    txn.commit();
    if (!row[0].as<bool>()) {
      lease.replayed() = UINT64_MAX;  // not (or no longer) a standby
      return true;
    }
    return row[1].as<bool>() &&
           row[2].as<double>() <= absl::ToDoubleSeconds(reads_.options().max_lag);
  } catch (const std::exception& error) {
    (void)lease.Fail(error, "reading a standby's lag");
    ending_ = StandbyReads::Ending::kUnreachable;
    return false;
  }
}

absl::StatusOr<PgPool::Lease> StandbyReadScope::FallBack(StandbyReads::Ending why) {
  on_primary_ = true;
  if (!ending_.has_value()) ending_ = why;
  PgPool& primary = reads_.primary();
  return primary.TakeOr(primary.options().connection_wait, absl::StatusCode::kUnavailable);
}

}  // namespace arbiter::store::pg
