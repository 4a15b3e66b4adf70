#include "services/store/pg/pool.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/store/pg/standby_reads.h"
#include "services/store/pg/status.h"

namespace arbiter::store::pg {

struct PgPool::Connection {
  Connection(const std::string& conninfo, int64_t opened_in)
      : conn(conninfo), generation(opened_in) {}
  pqxx::connection conn;
  int64_t generation;  // PgPool::generation_ when it was opened
  uint64_t replayed = 0;  // Lease::replayed()
};

void SetUpConnection(pqxx::connection_base& conn, const std::string& role) {
  pqxx::nontransaction setup(conn);
  // The stores' transactions are written for READ COMMITTED (each statement
  // sees what committed before it; appends re-read after taking a game's
  // lock): whatever the database's default says.
  setup.exec("SET default_transaction_isolation = 'read committed'");
  if (!role.empty()) setup.exec("SET ROLE " + setup.quote_name(role));
}

PgPool::PgPool(PgPoolOptions options) : options_(std::move(options)) {}

PgPool::~PgPool() = default;

std::unique_ptr<PgPool::Connection> PgPool::Open(int64_t generation) const {
  auto connection = std::make_unique<Connection>(options_.conninfo, generation);
  SetUpConnection(connection->conn, options_.role);
  if (options_.on_connect) options_.on_connect(connection->conn);
  return connection;
}

absl::StatusOr<PgPool::Lease> PgPool::Take() {
  if (StandbyReadScope* scope = StandbyReadScope::Routing(*this); scope != nullptr) {
    return scope->Take();
  }
  return TakeOr(options_.connection_wait, absl::StatusCode::kUnavailable);
}

absl::StatusOr<PgPool::Lease> PgPool::TakeWithin(absl::Duration wait) {
  return TakeOr(wait, absl::StatusCode::kResourceExhausted);
}

absl::StatusOr<PgPool::Lease> PgPool::TakeOr(absl::Duration wait, absl::StatusCode busy) {
  const int max_connections = std::max(1, options_.max_connections);
  {
    absl::MutexLock lock(&mu_);
    auto available = [this, max_connections]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return leased_ < max_connections;
    };
    if (!mu_.AwaitWithTimeout(absl::Condition(&available), std::max(wait, absl::ZeroDuration()))) {
      return absl::Status(busy, absl::StrCat("all ", max_connections,
                                             " connections to PostgreSQL stayed busy for ",
                                             absl::FormatDuration(wait), "; retry later"));
    }
    if (!idle_.empty()) {
      ++leased_;
      Lease lease(*this, std::move(idle_.back()));
      idle_.pop_back();
      return lease;
    }
    const absl::Time now = absl::Now();
    if (now < retry_at_) {
      return absl::UnavailableError(absl::StrCat(
          "PostgreSQL could not be reached a moment ago (", last_failure_.message(),
          "); the next attempt is in ", absl::FormatDuration(absl::Ceil(retry_at_ - now,
                                                                        absl::Milliseconds(1))),
          "; retry"));
    }
    ++leased_;
    ++attempts_;
  }
  return OpenLease();
}

absl::StatusOr<PgPool::Lease> PgPool::OpenLease() {
  int64_t generation;
  {
    absl::MutexLock lock(&mu_);
    generation = generation_;
  }
  // Opened outside the lock; the slot is taken (leased_) already.
  try {
    Lease lease(*this, Open(generation));
    NoteAttempt(absl::OkStatus());
    return lease;
  } catch (const std::exception& error) {
    GiveBack(nullptr, true);
    absl::Status status = StatusFromException(error, "connecting to PostgreSQL");
    NoteAttempt(status);
    return status;
  }
}

void PgPool::NoteAttempt(const absl::Status& status) {
  absl::MutexLock lock(&mu_);
  if (status.ok()) {
    backoff_ = absl::ZeroDuration();
    retry_at_ = absl::InfinitePast();
    return;
  }
  backoff_ = backoff_ == absl::ZeroDuration()
                 ? options_.reconnect_backoff
                 : std::min(backoff_ * 2, options_.max_reconnect_backoff);
  retry_at_ = absl::Now() + backoff_;
  last_failure_ = status;
}

int64_t PgPool::connect_attempts() const {
  absl::MutexLock lock(&mu_);
  return attempts_;
}

void PgPool::GiveBack(std::unique_ptr<Connection> connection, bool lost) {
  std::vector<std::unique_ptr<Connection>> stale;  // closed outside the lock
  absl::MutexLock lock(&mu_);
  --leased_;
  if (lost) {
    // The idle connections opened before this one most likely went to the
    // same server: drop them too, rather than fail one call each.
    if (connection != nullptr) {
      generation_ = std::max(generation_, connection->generation + 1);
      for (auto& idle : idle_) {
        if (idle->generation < generation_) stale.push_back(std::move(idle));
      }
      idle_.erase(std::remove(idle_.begin(), idle_.end(), nullptr), idle_.end());
    }
    return;
  }
  if (connection != nullptr && connection->conn.is_open()) {
    idle_.push_back(std::move(connection));
  }
}

PgPool::Lease::Lease(PgPool& pool, std::unique_ptr<Connection> connection)
    : pool_(&pool), connection_(std::move(connection)) {}

PgPool::Lease::Lease(Lease&& other) noexcept
    : pool_(other.pool_), connection_(std::move(other.connection_)), lost_(other.lost_) {}

PgPool::Lease::~Lease() {
  if (connection_ == nullptr) return;  // moved from
  pool_->GiveBack(std::move(connection_), lost_);
}

pqxx::connection_base& PgPool::Lease::conn() { return connection_->conn; }

uint64_t& PgPool::Lease::replayed() { return connection_->replayed; }

absl::Status PgPool::Lease::Fail(const std::exception& error, absl::string_view doing) {
  if (IsConnectionLoss(error)) lost_ = true;
  return StatusFromException(error, doing);
}

}  // namespace arbiter::store::pg
