// PostgresEventStore's pool of connections: a Lease borrows one and gives
// it back when it goes out of scope. Shared by the files of
// PostgresEventStore; not part of the store's interface.
#ifndef ARBITER_SERVICES_STORE_INTERNAL_POSTGRES_LEASE_H_
#define ARBITER_SERVICES_STORE_INTERNAL_POSTGRES_LEASE_H_

#include <pqxx/pqxx>

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/store/internal/pq_status.h"
#include "services/store/postgres_event_store.h"

namespace arbiter::store {
namespace internal {

// Prepare the named statements of appends (postgres_event_store.cc) and of
// game creation (postgres_create_games.cc) on a new connection.
void PrepareAppendStatements(pqxx::connection& conn);
void PrepareCreateStatements(pqxx::connection& conn);

}  // namespace internal

struct PostgresEventStore::Connection {
  explicit Connection(const std::string& conninfo) : conn(conninfo) {}
  pqxx::connection conn;
};

// A connection borrowed from the pool; returned on destruction unless it
// was lost.
class PostgresEventStore::Lease {
 public:
  static absl::StatusOr<Lease> Take(PostgresEventStore& store) {
    {
      absl::MutexLock lock(&store.mu_);
      auto available = [&store]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(store.mu_) {
        return store.leased_ < store.options_.max_connections;
      };
      if (!store.mu_.AwaitWithTimeout(absl::Condition(&available),
                                      store.options_.connection_wait)) {
        return absl::UnavailableError(absl::StrCat(
            "all ", store.options_.max_connections,
            " connections to PostgreSQL stayed busy for ",
            absl::FormatDuration(store.options_.connection_wait), "; retry later"));
      }
      ++store.leased_;
      if (!store.idle_.empty()) {
        Lease lease(store, std::move(store.idle_.back()));
        store.idle_.pop_back();
        return lease;
      }
    }
    // Opened outside the lock; the slot is taken (leased_) already.
    try {
      auto owned = std::make_unique<Connection>(store.options_.conninfo);
      pqxx::connection* conn = &owned->conn;
      {
        pqxx::nontransaction setup(*conn);
        // The store's transactions are written for READ COMMITTED (each
        // statement sees what committed before it; appends re-read after
        // taking a game's lock): whatever the database's default says.
        setup.exec("SET default_transaction_isolation = 'read committed'");
        if (!store.options_.role.empty()) setup.exec("SET ROLE " + setup.quote_name(store.options_.role));
      }
      internal::PrepareAppendStatements(*conn);
      internal::PrepareCreateStatements(*conn);
      return Lease(store, std::move(owned));
    } catch (const std::exception& e) {
      absl::MutexLock lock(&store.mu_);
      --store.leased_;
      return internal::StatusFromException(e, "connecting to PostgreSQL");
    }
  }
  Lease(Lease&& other) noexcept
      : store_(other.store_), conn_(std::move(other.conn_)), lost_(other.lost_) {}
  Lease& operator=(Lease&&) = delete;
  ~Lease() {
    if (conn_ == nullptr) return;  // moved from
    absl::MutexLock lock(&store_->mu_);
    --store_->leased_;
    if (!lost_ && conn_->conn.is_open()) store_->idle_.push_back(std::move(conn_));
  }

  pqxx::connection& conn() { return conn_->conn; }

  // Converts an exception, dropping the connection if it was lost.
  absl::Status Fail(const std::exception& error, const std::string& doing) {
    if (internal::IsConnectionLoss(error)) lost_ = true;
    return internal::StatusFromException(error, doing);
  }

 private:
  Lease(PostgresEventStore& store, std::unique_ptr<Connection> conn)
      : store_(&store), conn_(std::move(conn)) {}
  PostgresEventStore* store_;
  std::unique_ptr<Connection> conn_;
  bool lost_ = false;
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_INTERNAL_POSTGRES_LEASE_H_
