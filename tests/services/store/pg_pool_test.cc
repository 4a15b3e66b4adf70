// The service's pool of PostgreSQL connections (services/store/pg/pool.h):
// how it sets up a connection, that a lost one is replaced, that libpqxx
// exceptions become the documented statuses, and that it never opens more
// than its maximum.
#include "services/store/pg/pool.h"

#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include <algorithm>
#include <atomic>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "services/store/pg/status.h"
#include "tests/services/store/postgres_test_env.h"

namespace arbiter::store::pg {
namespace {

using store::testing::FreshDatabase;

// What a connection of the pool is: its backend, role and isolation.
struct Session {
  int64_t pid = 0;
  std::string user;
  std::string isolation;
};

absl::StatusOr<Session> SessionOf(PgPool& pool) {
  return pool.Run("reading the session", [](pqxx::connection_base& conn) -> absl::StatusOr<Session> {
    pqxx::nontransaction txn(conn);
    pqxx::row row = txn.exec1(
        "SELECT pg_backend_pid(), current_user, current_setting('default_transaction_isolation')");
    return Session{row[0].as<int64_t>(), row[1].as<std::string>(), row[2].as<std::string>()};
  });
}

// Runs `sql` on the pool; the status of what it threw, if anything.
absl::Status RunSql(PgPool& pool, const std::string& doing, const std::string& sql) {
  return pool.Run(doing, [&](pqxx::connection_base& conn) {
    pqxx::work txn(conn);
    txn.exec(sql);
    txn.commit();
    return absl::OkStatus();
  });
}

class PgPoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    conninfo_ = FreshDatabase();
    options_.conninfo = conninfo_;
  }

  // Runs `sql` as the superuser, on a connection outside any pool.
  void AsSuperuser(const std::string& sql) {
    pqxx::connection conn(conninfo_);
    pqxx::nontransaction txn(conn);
    txn.exec(sql);
  }

  std::string conninfo_;
  PgPoolOptions options_;
};

TEST_F(PgPoolTest, AConnectionWorksAsTheServiceRoleReadCommittedWhateverTheDatabaseSays) {
  AsSuperuser(std::string("ALTER DATABASE ") + pqxx::connection(conninfo_).dbname() +
              " SET default_transaction_isolation = 'serializable'");
  int set_up = 0;
  options_.on_connect = [&set_up](pqxx::connection_base&) { ++set_up; };
  PgPool pool(options_);
  absl::StatusOr<Session> first = SessionOf(pool);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->user, "arbiter_service");
  EXPECT_EQ(first->isolation, "read committed");
  // An idle connection is lent again, without being set up again.
  absl::StatusOr<Session> second = SessionOf(pool);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->pid, first->pid);
  EXPECT_EQ(set_up, 1);
}

TEST_F(PgPoolTest, AKilledConnectionFailsOneCallAndIsReplaced) {
  PgPool pool(options_);
  absl::StatusOr<Session> before = SessionOf(pool);
  ASSERT_TRUE(before.ok()) << before.status();
  // (Waiting up to 10 s for the backend to be gone.)
  AsSuperuser("SELECT pg_terminate_backend(" + std::to_string(before->pid) + ", 10000)");

  // The call that meets the dead connection learns it was lost ...
  absl::StatusOr<Session> meets = SessionOf(pool);
  ASSERT_FALSE(meets.ok());
  EXPECT_EQ(meets.status().code(), absl::StatusCode::kUnavailable) << meets.status();
  EXPECT_EQ(meets.status().message().rfind("reading the session: ", 0), 0u) << meets.status();
  // ... and the next gets a new connection, set up as the first was.
  absl::StatusOr<Session> after = SessionOf(pool);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_NE(after->pid, before->pid);
  EXPECT_EQ(after->user, "arbiter_service");
  EXPECT_EQ(after->isolation, "read committed");
}

TEST_F(PgPoolTest, ExceptionsBecomeTheDocumentedStatuses) {
  PgPool pool(options_);
  struct Case {
    std::string sql;
    absl::StatusCode code;
  };
  const std::vector<Case> cases = {
      {"SELECT 1 / 0", absl::StatusCode::kInvalidArgument},            // SQLSTATE 22012
      {"DELETE FROM games WHERE false", absl::StatusCode::kPermissionDenied},  // 42501
      {"DO $$ BEGIN RAISE unique_violation; END $$", absl::StatusCode::kAlreadyExists},
      {"DO $$ BEGIN RAISE serialization_failure; END $$", absl::StatusCode::kAborted},
      {"DO $$ BEGIN RAISE deadlock_detected; END $$", absl::StatusCode::kAborted},
      {"DO $$ BEGIN RAISE too_many_connections; END $$", absl::StatusCode::kUnavailable},
      {"SELECT * FROM no_such_table", absl::StatusCode::kInternal},    // 42P01
  };
  for (const Case& c : cases) {
    absl::Status status = RunSql(pool, "testing", c.sql);
    EXPECT_EQ(status.code(), c.code) << c.sql << ": " << status;
    EXPECT_EQ(status.message().rfind("testing: ", 0), 0u) << status;
  }
  absl::Status thrown = pool.Run("testing", [](pqxx::connection_base&) -> absl::Status {
    throw std::runtime_error("not a libpqxx exception");
  });
  EXPECT_EQ(thrown, absl::InternalError("testing: not a libpqxx exception"));
  absl::StatusOr<Session> session = SessionOf(pool);
  EXPECT_TRUE(session.ok()) << session.status();
}

TEST_F(PgPoolTest, AServerThatCannotBeReachedIsUnavailable) {
  options_.conninfo = conninfo_ + " port=1";
  PgPool pool(options_);
  absl::StatusOr<Session> session = SessionOf(pool);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), absl::StatusCode::kUnavailable) << session.status();
  EXPECT_EQ(session.status().message().rfind("connecting to PostgreSQL: ", 0), 0u)
      << session.status();
}

TEST_F(PgPoolTest, ACallFindingEveryConnectionBusyWaitsThenIsUnavailable) {
  options_.max_connections = 2;
  options_.connection_wait = absl::Milliseconds(500);
  PgPool pool(options_);
  absl::StatusOr<PgPool::Lease> one = pool.Take();
  absl::StatusOr<PgPool::Lease> two = pool.Take();
  ASSERT_TRUE(one.ok() && two.ok());
  const absl::Time start = absl::Now();
  absl::StatusOr<PgPool::Lease> three = pool.Take();
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(500));
  EXPECT_EQ(three.status(), absl::UnavailableError("all 2 connections to PostgreSQL stayed busy "
                                                   "for 500ms; retry later"));
  // A connection given back ends the wait.
  std::thread give_back([&one] {
    absl::SleepFor(absl::Milliseconds(50));
    absl::StatusOr<PgPool::Lease> returned = std::move(one);
  });
  absl::StatusOr<PgPool::Lease> four = pool.Take();
  give_back.join();
  EXPECT_TRUE(four.ok()) << four.status();
}

TEST_F(PgPoolTest, ManyThreadsNeverUseMoreThanTheMaximum) {
  options_.max_connections = 3;
  PgPool pool(options_);
  std::atomic<int> in_use{0};
  std::atomic<int> most{0};
  absl::Mutex mu;
  std::set<int64_t> backends;
  std::vector<std::thread> threads;
  for (int t = 0; t < 12; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        absl::Status status = pool.Run("counting", [&](pqxx::connection_base& conn) {
          const int now = ++in_use;
          int seen = most.load();
          while (now > seen && !most.compare_exchange_weak(seen, now)) {
          }
          pqxx::nontransaction txn(conn);
          const int64_t pid = txn.exec1("SELECT pg_backend_pid() FROM pg_sleep(0.002)")[0]
                                  .as<int64_t>();
          {
            absl::MutexLock lock(&mu);
            backends.insert(pid);
          }
          --in_use;
          return absl::OkStatus();
        });
        EXPECT_TRUE(status.ok()) << status;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_LE(most.load(), 3);
  EXPECT_GE(most.load(), 2);  // the threads did overlap
  EXPECT_LE(backends.size(), 3u);
}

}  // namespace
}  // namespace arbiter::store::pg
