// The health probe's SQL against a real PostgreSQL
// (services/store/pg/health_queries.h): a primary and an empty store's
// figures; dead idle connections dropped rather than reported; a backend
// that stops answering cut within the bound; a busy pool told apart; and a
// real hot standby (pg_basebackup of the test cluster) reporting recovery
// and its replay lag, which the monitor and the figures then show.
#include "services/store/pg/health_queries.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <pqxx/pqxx>

#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "services/health/health_monitor.h"
#include "services/health/lag_metrics.h"
#include "tests/services/health/prometheus_parse.h"
#include "tests/services/store/hot_standby.h"
#include "tests/services/store/postgres_test_env.h"

namespace arbiter::store::pg {
namespace {

using store::testing::FreshDatabase;

PgPoolOptions PoolOn(const std::string& conninfo, int max_connections) {
  PgPoolOptions options;
  options.conninfo = conninfo;
  options.max_connections = max_connections;
  return options;
}

// Opens `n` connections in `pool` at once and gives them back idle; their
// backends' process ids.
std::vector<int> WarmConnections(PgPool& pool, int n) {
  std::vector<PgPool::Lease> leases;
  std::vector<int> pids;
  for (int i = 0; i < n; ++i) {
    absl::StatusOr<PgPool::Lease> lease = pool.Take();
    EXPECT_TRUE(lease.ok()) << lease.status();
    if (!lease.ok()) break;
    pqxx::nontransaction txn(lease->conn());
    pids.push_back(txn.exec1("SELECT pg_backend_pid()")[0].as<int>());
    txn.commit();
    leases.push_back(*std::move(lease));
  }
  return pids;
}

// Ends those backends, as a restart or a failover does, and waits until
// they are gone.
void Terminate(const std::string& conninfo, const std::vector<int>& pids) {
  pqxx::connection admin(conninfo);
  pqxx::nontransaction txn(admin);
  const std::string list = absl::StrJoin(pids, ",");
  txn.exec(absl::StrCat("SELECT pg_terminate_backend(pid) FROM unnest(ARRAY[", list, "]) pid"));
  for (int i = 0; i < 200; ++i) {
    if (txn.exec(absl::StrCat("SELECT 1 FROM pg_stat_activity WHERE pid IN (", list, ")")).empty()) {
      return;
    }
    absl::SleepFor(absl::Milliseconds(10));
  }
  ADD_FAILURE() << "the backends did not end";
}

TEST(HealthQueries, APrimaryIsWritableAndAnEmptyStoreHasItsFigures) {
  PgPool pool(PoolOn(FreshDatabase(), 2));
  SocketCutter cutter;
  absl::StatusOr<DatabaseRole> role = ProbeDatabase(pool, absl::Seconds(1), cutter);
  ASSERT_TRUE(role.ok()) << role.status();
  EXPECT_FALSE(role->in_recovery);
  EXPECT_FALSE(role->replay_lag_bytes.has_value());
  EXPECT_FALSE(role->replay_lag_seconds.has_value());
  absl::StatusOr<StoreFigures> figures = ReadStoreFigures(pool, absl::Seconds(1), cutter);
  ASSERT_TRUE(figures.ok()) << figures.status();
  EXPECT_EQ(figures->head_position, 0);
  ASSERT_TRUE(figures->projectors.has_value());
  ASSERT_EQ(figures->projectors->size(), 1u);
  EXPECT_EQ((*figures->projectors)[0].projector, "leagues");
  EXPECT_EQ(figures->transparency_tree_size, 0u);
  EXPECT_EQ(figures->unlogged_stream_events, 0);
}

TEST(HealthQueries, DeadIdleConnectionsAreDroppedAndTheNextTriedNotReported) {
  const std::string conninfo = FreshDatabase();
  PgPool pool(PoolOn(conninfo, 4));
  SocketCutter cutter;
  Terminate(conninfo, WarmConnections(pool, 4));
  absl::StatusOr<DatabaseRole> role = ProbeDatabase(pool, absl::Seconds(1), cutter);
  EXPECT_TRUE(role.ok()) << role.status();
  Terminate(conninfo, WarmConnections(pool, 4));
  absl::StatusOr<StoreFigures> figures = ReadStoreFigures(pool, absl::Seconds(1), cutter);
  EXPECT_TRUE(figures.ok()) << figures.status();
}

TEST(HealthQueries, ABackendThatStopsAnsweringIsCutWithinTheBound) {
  const std::string conninfo = FreshDatabase();
  PgPool pool(PoolOn(conninfo, 1));
  const std::vector<int> pids = WarmConnections(pool, 1);
  ASSERT_EQ(pids.size(), 1u);
  ASSERT_EQ(kill(pids[0], SIGSTOP), 0);
  absl::Cleanup resume = [&] { kill(pids[0], SIGCONT); };
  SocketCutter cutter;
  std::atomic<bool> done{false};
  std::thread ticker([&] {
    while (!done) {
      cutter.CutIfLate(absl::Now());
      absl::SleepFor(absl::Milliseconds(20));
    }
  });
  const absl::Time start = absl::Now();
  std::future<absl::StatusOr<DatabaseRole>> probe = std::async(
      std::launch::async, [&] { return ProbeDatabase(pool, absl::Milliseconds(500), cutter); });
  const bool answered = probe.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  const absl::Duration took = absl::Now() - start;
  kill(pids[0], SIGCONT);  // unblocks a probe that was not cut
  absl::StatusOr<DatabaseRole> role = probe.get();
  done = true;
  ticker.join();
  ASSERT_TRUE(answered) << "the probe was not cut: it waited for the stopped backend";
  EXPECT_EQ(role.status().code(), absl::StatusCode::kDeadlineExceeded) << role.status();
  EXPECT_LT(took, absl::Milliseconds(900));
  // The cut connection was dropped: the next probe opens another.
  EXPECT_TRUE(ProbeDatabase(pool, absl::Seconds(1), cutter).ok());
}

TEST(HealthQueries, ABusyPoolIsToldApartFromAnUnreachableServer) {
  PgPool pool(PoolOn(FreshDatabase(), 1));
  absl::StatusOr<PgPool::Lease> held = pool.Take();
  ASSERT_TRUE(held.ok());
  SocketCutter cutter;
  const absl::Time start = absl::Now();
  absl::StatusOr<DatabaseRole> role = ProbeDatabase(pool, absl::Milliseconds(300), cutter);
  EXPECT_EQ(role.status().code(), absl::StatusCode::kResourceExhausted) << role.status();
  EXPECT_LT(absl::Now() - start, absl::Milliseconds(800));

  PgPool nowhere(PoolOn("host=/nonexistent-socket-dir dbname=x user=x", 1));
  EXPECT_EQ(ProbeDatabase(nowhere, absl::Seconds(1), cutter).status().code(),
            absl::StatusCode::kUnavailable);
}

// A hot standby of the test cluster, streaming from it (pg_basebackup -R),
// with every database the cluster had.
class StandbyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    database_ = pqxx::connection(FreshDatabase()).dbname();
    standby_ = store::testing::HotStandby::Start();
    ASSERT_NE(standby_, nullptr);
  }

  std::string database_;
  std::unique_ptr<store::testing::HotStandby> standby_;
};

TEST_F(StandbyTest, AStandbyIsInRecoveryReportsItsReplayLagAndIsNotReady) {
  PgPool pool(PoolOn(standby_->ConninfoFor(database_), 2));
  SocketCutter cutter;
  absl::StatusOr<DatabaseRole> role;
  // Both lags are known once the standby streams (receives) WAL.
  for (int i = 0; i < 200; ++i) {
    role = ProbeDatabase(pool, absl::Seconds(1), cutter);
    ASSERT_TRUE(role.ok()) << role.status();
    if (role->replay_lag_bytes.has_value() && role->replay_lag_seconds.has_value()) break;
    absl::SleepFor(absl::Milliseconds(50));
  }
  EXPECT_TRUE(role->in_recovery);
  ASSERT_TRUE(role->replay_lag_bytes.has_value());
  ASSERT_TRUE(role->replay_lag_seconds.has_value());
  EXPECT_GE(*role->replay_lag_bytes, 0);
  EXPECT_GE(*role->replay_lag_seconds, 0);
  // The figures skip what a standby refuses to read (the unlogged
  // projection tables).
  absl::StatusOr<StoreFigures> figures = ReadStoreFigures(pool, absl::Seconds(1), cutter);
  ASSERT_TRUE(figures.ok()) << figures.status();
  EXPECT_FALSE(figures->projectors.has_value());
  EXPECT_EQ(figures->head_position, 0);

  health::PgHealthSource source(pool, absl::Seconds(1));
  health::HealthMonitor monitor(source, {}, nullptr);
  monitor.Start();
  EXPECT_EQ(monitor.Current().readiness.reason,
            "no writable PostgreSQL: connected to a standby (read-only, in recovery)");
  health::LagMetrics metrics(monitor, source, nullptr);
  absl::StatusOr<health::testing::PromText> text =
      health::testing::ParsePrometheusText(metrics.Text());
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(text->Value("arbiter_ready"), 0);
  EXPECT_EQ(text->Value("arbiter_database_writable"), 0);
  EXPECT_EQ(text->Value("arbiter_database_in_recovery"), 1);
  EXPECT_TRUE(text->Value("arbiter_standby_replay_lag_bytes").has_value());
  EXPECT_TRUE(text->Value("arbiter_standby_replay_lag_seconds").has_value());
  EXPECT_EQ(text->Value("arbiter_store_figures_ok"), 1);
  monitor.Stop();

  // A read replica (issue 26 item 4) would be ready within its lag bound.
  health::HealthOptions replica;
  replica.policy.standby_max_lag = absl::Seconds(60);
  health::HealthMonitor replica_monitor(source, replica, nullptr);
  replica_monitor.Start();
  EXPECT_TRUE(replica_monitor.Current().readiness.ready)
      << replica_monitor.Current().readiness.reason;
  replica_monitor.Stop();
}

}  // namespace
}  // namespace arbiter::store::pg
