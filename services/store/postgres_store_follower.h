// PostgresStoreFollower: follows a PostgreSQL event store on a connection
// of its own and tells a StoreListener which games received events.
//
// Every statement that stores events sends a NOTIFY on "arbiter_events"
// (migrations/0017). The follower LISTENs on that channel and, when woken,
// reads what is new by position from the last position it reported:
// positions are gap-free and in commit order (event_store.h), so a lost or
// merged notification only delays a report, and nothing is ever skipped. It
// also looks once a second without being woken. A lost connection is
// reported (OnLost) and opened again; the follower then goes on from where
// it was. Its thread stops when the object is destroyed.
#ifndef ARBITER_SERVICES_STORE_POSTGRES_STORE_FOLLOWER_H_
#define ARBITER_SERVICES_STORE_POSTGRES_STORE_FOLLOWER_H_

#include <atomic>
#include <cstdint>
#include <thread>

#include <pqxx/pqxx>

#include "services/store/event_store.h"
#include "services/store/postgres_event_store.h"

namespace arbiter::store {

class PostgresStoreFollower final : public StoreFollower {
 public:
  // Starts the follower's thread; `listener` hears from it until this
  // object is destroyed.
  PostgresStoreFollower(PostgresOptions options, StoreListener& listener);
  ~PostgresStoreFollower() override;

  PostgresStoreFollower(const PostgresStoreFollower&) = delete;
  PostgresStoreFollower& operator=(const PostgresStoreFollower&) = delete;

 private:
  void Run();
  // Reports what was stored after `through` (-1: start) and returns the
  // new position reported through. Throws what libpqxx throws.
  int64_t Look(pqxx::connection& conn, int64_t through);

  const PostgresOptions options_;
  StoreListener& listener_;
  std::atomic<bool> stopping_{false};
  int wake_fd_ = -1;  // an eventfd: written to stop the thread at once
  std::thread thread_;
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_POSTGRES_STORE_FOLLOWER_H_
