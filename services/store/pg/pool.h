// PgPool: the service's one way in to PostgreSQL. It keeps up to
// max_connections connections, each set up the same way when it opens
// (READ COMMITTED by default whatever the database says, SET ROLE to the
// service role, then the owner's on_connect, which prepares statements), and
// lends them out one call at a time. A call that finds them all busy waits
// for one, up to connection_wait, then is Unavailable; so a burst of calls
// queues here instead of forking more backends than the server has cores.
//
// It is also where libpqxx exceptions become absl::Status (status.h): Run
// and Lease::Fail convert them, and a connection that was lost (killed,
// server restarted, a failover) is dropped instead of going back to the
// pool, so the next call gets a new one; the idle connections opened before
// the loss are dropped with it, since they most likely went to the same
// server. A call that meets the loss is Unavailable (it is not retried here:
// only its caller knows whether that is safe).
//
// While no server can be reached (a failover runs, the server restarts),
// the pool backs off: after a failed attempt to connect it makes the next
// one no sooner than reconnect_backoff later (doubling up to
// max_reconnect_backoff, back to the start after a success), and a call
// that needs a new connection meanwhile is Unavailable at once, with the
// last attempt's error, instead of each call waiting for its own attempt.
//
// Every PostgreSQL part of the service takes a PgPool: PostgresEventStore
// opens one (postgres_event_store.h) and lends it to the stream, token and
// projection stores and the transparency log, which share its
// connections. Thread-safe.
#ifndef ARBITER_SERVICES_STORE_PG_POOL_H_
#define ARBITER_SERVICES_STORE_PG_POOL_H_

#include <pqxx/types.hxx>

#include <exception>
#include <functional>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace arbiter::store::pg {

class StandbyReadScope;  // standby_reads.h

struct PgPoolOptions {
  std::string conninfo;  // libpq connection string or URL
  // After connecting, SET ROLE to this role (empty: stay as the login role).
  std::string role = "arbiter_service";
  // Connections open or being opened at most (at least 1).
  int max_connections = 16;
  // How long a call waits for a connection when all are lent out.
  absl::Duration connection_wait = absl::Seconds(30);
  // Run once on each new connection after the set-up above (may throw what
  // libpqxx throws: the connection is then not used).
  std::function<void(pqxx::connection_base&)> on_connect;
  // Backing off after a failed attempt to connect (see above).
  absl::Duration reconnect_backoff = absl::Milliseconds(50);
  absl::Duration max_reconnect_backoff = absl::Seconds(2);
};

class PgPool {
 public:
  class Lease;

  // Opens no connection yet: the first call does.
  explicit PgPool(PgPoolOptions options);
  // Every Lease must have been given back.
  ~PgPool();
  PgPool(const PgPool&) = delete;
  PgPool& operator=(const PgPool&) = delete;

  // A connection, idle or newly opened. While a StandbyReadScope that
  // routes this pool is open on the calling thread, a connection to a read
  // database instead, or to this pool's server after the scope's fallback
  // (standby_reads.h). Unavailable if all stayed busy for
  // connection_wait, or if a new one cannot be opened (refused, server
  // down); the status of StatusFromException for a set-up that fails
  // otherwise (an unknown role: InvalidArgument; a statement on_connect
  // prepares that does not parse: Internal).
  absl::StatusOr<Lease> Take();
  // As Take, but waits at most `wait` for a busy pool and then answers
  // ResourceExhausted (a caller with a short bound of its own, such as the
  // health probe, tells a busy pool from an unreachable server). Opening a
  // new connection is bounded by the connection string's connect_timeout
  // only. Never routed to a read database.
  absl::StatusOr<Lease> TakeWithin(absl::Duration wait);

  // Runs `work` on a leased connection and returns what it returns (an
  // absl::Status or absl::StatusOr). An exception it throws becomes the
  // status of StatusFromException with `doing` in the message, and the
  // connection is dropped if it was lost. The errors of Take.
  template <typename Work>
  auto Run(absl::string_view doing, Work&& work)
      -> std::invoke_result_t<Work&, pqxx::connection_base&>;

  const PgPoolOptions& options() const { return options_; }

  // Attempts to open a connection so far, successful or not (for tests and
  // figures).
  int64_t connect_attempts() const;

 private:
  friend class StandbyReadScope;
  struct Connection;  // a pqxx::connection (an alias of a template)

  // Take and TakeWithin: `busy` is the code when all stayed busy.
  absl::StatusOr<Lease> TakeOr(absl::Duration wait, absl::StatusCode busy);
  // Opens and sets up a connection. Throws what libpqxx throws.
  std::unique_ptr<Connection> Open(int64_t generation) const;
  // A new connection in a slot already counted in leased_, or why not.
  absl::StatusOr<Lease> OpenLease();
  // Takes back a lent connection; drops it if `lost`, with every idle one
  // opened before it.
  void GiveBack(std::unique_ptr<Connection> connection, bool lost);
  // Notes how an attempt to connect ended (the back-off).
  void NoteAttempt(const absl::Status& status);

  const PgPoolOptions options_;
  mutable absl::Mutex mu_;
  std::vector<std::unique_ptr<Connection>> idle_ ABSL_GUARDED_BY(mu_);
  int leased_ ABSL_GUARDED_BY(mu_) = 0;  // lent out or being opened
  // Connections opened before a loss have a lower generation than this.
  int64_t generation_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t attempts_ ABSL_GUARDED_BY(mu_) = 0;
  // The back-off: no attempt before retry_at_; the last failure's status.
  absl::Time retry_at_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
  absl::Duration backoff_ ABSL_GUARDED_BY(mu_) = absl::ZeroDuration();
  absl::Status last_failure_ ABSL_GUARDED_BY(mu_);
};

// A connection borrowed from a PgPool, given back when the lease is
// destroyed (dropped instead if Fail saw it lost). Not thread-safe: one
// call uses it at a time.
class PgPool::Lease {
 public:
  Lease(Lease&& other) noexcept;
  Lease& operator=(Lease&&) = delete;
  ~Lease();

  pqxx::connection_base& conn();

  // The status of `error` (StatusFromException); marks the connection lost
  // if it was.
  absl::Status Fail(const std::exception& error, absl::string_view doing);
  // Marks the connection as not to be used again (its state is unknown).
  void Drop() { lost_ = true; }

 private:
  friend class PgPool;
  friend class StandbyReadScope;
  Lease(PgPool& pool, std::unique_ptr<Connection> connection);
  // The highest WAL replay position seen on this connection's server (a
  // standby read's note; 0: none seen).
  uint64_t& replayed();

  PgPool* pool_;
  std::unique_ptr<Connection> connection_;
  bool lost_ = false;
};

// Sets up a connection as the pool sets up its own (without on_connect):
// for a caller that holds a connection of its own for long, such as a
// follower's LISTEN. Throws what libpqxx throws.
void SetUpConnection(pqxx::connection_base& conn, const std::string& role);

template <typename Work>
auto PgPool::Run(absl::string_view doing, Work&& work)
    -> std::invoke_result_t<Work&, pqxx::connection_base&> {
  absl::StatusOr<Lease> lease = Take();
  if (!lease.ok()) return lease.status();
  try {
    return work(lease->conn());
  } catch (const std::exception& error) {
    return lease->Fail(error, doing);
  }
}

}  // namespace arbiter::store::pg

#endif  // ARBITER_SERVICES_STORE_PG_POOL_H_
