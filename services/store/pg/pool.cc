#include "services/store/pg/pool.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/store/pg/status.h"

namespace arbiter::store::pg {

struct PgPool::Connection {
  explicit Connection(const std::string& conninfo) : conn(conninfo) {}
  pqxx::connection conn;
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

std::unique_ptr<PgPool::Connection> PgPool::Open() const {
  auto connection = std::make_unique<Connection>(options_.conninfo);
  SetUpConnection(connection->conn, options_.role);
  if (options_.on_connect) options_.on_connect(connection->conn);
  return connection;
}

absl::StatusOr<PgPool::Lease> PgPool::Take() {
  const int max_connections = std::max(1, options_.max_connections);
  {
    absl::MutexLock lock(&mu_);
    auto available = [this, max_connections]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return leased_ < max_connections;
    };
    if (!mu_.AwaitWithTimeout(absl::Condition(&available), options_.connection_wait)) {
      return absl::UnavailableError(absl::StrCat(
          "all ", max_connections, " connections to PostgreSQL stayed busy for ",
          absl::FormatDuration(options_.connection_wait), "; retry later"));
    }
    ++leased_;
    if (!idle_.empty()) {
      Lease lease(*this, std::move(idle_.back()));
      idle_.pop_back();
      return lease;
    }
  }
  // Opened outside the lock; the slot is taken (leased_) already.
  try {
    return Lease(*this, Open());
  } catch (const std::exception& error) {
    GiveBack(nullptr, true);
    return StatusFromException(error, "connecting to PostgreSQL");
  }
}

void PgPool::GiveBack(std::unique_ptr<Connection> connection, bool lost) {
  absl::MutexLock lock(&mu_);
  --leased_;
  if (!lost && connection != nullptr && connection->conn.is_open()) {
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

absl::Status PgPool::Lease::Fail(const std::exception& error, absl::string_view doing) {
  if (IsConnectionLoss(error)) lost_ = true;
  return StatusFromException(error, doing);
}

}  // namespace arbiter::store::pg
