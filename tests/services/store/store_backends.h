// The two EventStore implementations (each its own ResultIndex) as test
// backends, and a typed test fixture that runs the same tests against both:
// the in-memory store and PostgreSQL (a private cluster started by the test
// program).
#ifndef ARBITER_TESTS_SERVICES_STORE_STORE_BACKENDS_H_
#define ARBITER_TESTS_SERVICES_STORE_STORE_BACKENDS_H_

#include <gtest/gtest.h>

#include <memory>
#include <pqxx/pqxx>
#include <string>
#include <type_traits>
#include <vector>

#include "services/store/memory_event_store.h"
#include "tests/services/store/postgres_test_env.h"
#include "tests/services/store/store_test_util.h"

namespace arbiter::store::testing {

struct MemoryBackend {
  std::unique_ptr<MemoryEventStore> store = std::make_unique<MemoryEventStore>();
  EventStore& Store() { return *store; }
  ResultIndex& Results() { return *store; }
  void Tamper(const std::string& game_id, int64_t sequence, const std::string& payload) {
    ASSERT_TRUE(store->TamperForTesting(game_id, sequence, payload).ok());
  }
};

struct PostgresBackend {
  std::string conninfo;
  std::unique_ptr<PostgresEventStore> store = testing::FreshPostgresStore(&conninfo);
  EventStore& Store() { return *store; }
  ResultIndex& Results() { return *store; }
  // As a superuser with triggers disabled, as an intruder with the database
  // password would.
  void Tamper(const std::string& game_id, int64_t sequence, const std::string& payload) {
    pqxx::connection conn(conninfo);
    pqxx::work txn(conn);
    txn.exec("SET session_replication_role = replica");
    txn.exec_params("UPDATE events SET payload = $3 WHERE game_id = $1 AND sequence = $2",
                    game_id, sequence, pqxx::binarystring(payload));
    txn.commit();
  }
};

template <typename Backend>
class EventStoreTest : public ::testing::Test {
 protected:
  EventStore& store() { return backend_.Store(); }
  ResultIndex& results() { return backend_.Results(); }

  void CreateGame(const std::string& game_id) {
    absl::StatusOr<GameRecord> game = store().CreateGame(CreateRequest(game_id));
    ASSERT_TRUE(game.ok()) << game.status();
  }

  AppendResult AppendOk(const AppendRequest& request) {
    absl::StatusOr<AppendResult> result = store().Append(request);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : AppendResult{};
  }

  std::vector<StoredEvent> ReadGame(const std::string& game_id) {
    absl::StatusOr<std::vector<StoredEvent>> events = store().ReadGameEvents(game_id, 0, 10000);
    EXPECT_TRUE(events.ok()) << events.status();
    return events.ok() ? *events : std::vector<StoredEvent>{};
  }

  std::vector<StoredEvent> ReadEverything() {
    std::vector<StoredEvent> all;
    int64_t after = 0;
    for (;;) {
      absl::StatusOr<std::vector<StoredEvent>> page = store().ReadAll(after, 7);
      EXPECT_TRUE(page.ok()) << page.status();
      if (!page.ok() || page->empty()) return all;
      after = page->back().position;
      all.insert(all.end(), page->begin(), page->end());
    }
  }

  int64_t Head() {
    absl::StatusOr<int64_t> head = store().HeadPosition();
    EXPECT_TRUE(head.ok()) << head.status();
    return head.ok() ? *head : -1;
  }

  Backend backend_;
};

using Backends = ::testing::Types<MemoryBackend, PostgresBackend>;
class BackendNames {
 public:
  template <typename T>
  static std::string GetName(int) {
    return std::is_same_v<T, MemoryBackend> ? "Memory" : "Postgres";
  }
};

}  // namespace arbiter::store::testing

#endif  // ARBITER_TESTS_SERVICES_STORE_STORE_BACKENDS_H_
