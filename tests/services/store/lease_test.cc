// Leases on a real PostgreSQL (services/store/pg/leases.h, lease_keeper.h):
// one holder at a time, takeover of a lapsed lease with the next token, a
// stale holder's fenced write refused with nothing written (also when the
// takeover commits while the write is in flight), requests done only by the
// holder, and a keeper that takes over within ttl + one renewal period of
// the holder's death.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "absl/time/clock.h"
#include "services/store/lease_keeper.h"
#include "services/store/pg/leases.h"
#include "services/store/pg/pool.h"
#include "tests/services/store/postgres_test_env.h"

namespace arbiter::store::pg {
namespace {

using store::testing::FreshDatabase;

constexpr absl::Duration kLockWait = absl::Seconds(1);

class LeaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    conninfo_ = FreshDatabase();
    pqxx::connection conn(conninfo_);
    pqxx::nontransaction sql(conn);
    sql.exec("CREATE TABLE singleton_writes (value text)");
    sql.exec("GRANT SELECT, INSERT ON singleton_writes TO arbiter_service");
    PgPoolOptions options;
    options.conninfo = conninfo_;
    pool_ = std::make_unique<PgPool>(options);
    table_ = std::make_unique<LeaseTable>(*pool_);
  }

  LeaseFence Granted(const std::string& holder, absl::Duration ttl) {
    absl::StatusOr<LeaseGrant> grant = table_->Acquire("work", holder, ttl, kLockWait);
    EXPECT_TRUE(grant.ok()) << grant.status();
    EXPECT_TRUE(grant.ok() && grant->fence.has_value()) << holder << " was not granted the lease";
    return grant.ok() && grant->fence.has_value() ? *grant->fence : LeaseFence{};
  }

  // What a singleton's write does: a row, then the fence, then the commit.
  absl::Status FencedWrite(const LeaseFence& fence, const std::string& value) {
    return pool_->Run("a fenced write", [&](pqxx::connection_base& c) -> absl::Status {
      pqxx::work txn(c);
      txn.exec_params("INSERT INTO singleton_writes VALUES ($1)", value);
      if (absl::Status fenced = CheckFence(txn, fence); !fenced.ok()) return fenced;
      txn.commit();
      return absl::OkStatus();
    });
  }

  int64_t Writes() {
    pqxx::connection conn(conninfo_);
    pqxx::nontransaction sql(conn);
    return sql.exec1("SELECT count(*) FROM singleton_writes")[0].as<int64_t>();
  }

  std::string conninfo_;
  std::unique_ptr<PgPool> pool_;
  std::unique_ptr<LeaseTable> table_;
};

TEST_F(LeaseTest, OneOfTwoHoldersIsGrantedAndTheOtherLearnsWhoHoldsItForHowLong) {
  const LeaseFence a = Granted("a", absl::Seconds(10));
  EXPECT_EQ(a.token, 1);
  absl::StatusOr<LeaseGrant> b = table_->Acquire("work", "b", absl::Seconds(10), kLockWait);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_FALSE(b->fence.has_value());
  EXPECT_EQ(b->holder, "a");
  EXPECT_EQ(b->token, 1);
  // The expiry is the database's now + ttl.
  EXPECT_GT(b->remaining, absl::Seconds(8));
  EXPECT_LE(b->remaining, absl::Seconds(10));
  EXPECT_TRUE(FencedWrite(a, "a").ok());
  EXPECT_EQ(Writes(), 1);
}

TEST_F(LeaseTest, ALapsedLeaseIsTakenOverWithTheNextTokenAndTheOldHolderIsFencedOff) {
  const LeaseFence a = Granted("a", absl::Milliseconds(200));
  absl::SleepFor(absl::Milliseconds(300));
  const LeaseFence b = Granted("b", absl::Seconds(10));
  EXPECT_EQ(b.token, a.token + 1);
  EXPECT_FALSE(*table_->Renew(a, absl::Seconds(10), kLockWait));
  const absl::Status stale = FencedWrite(a, "a");
  EXPECT_TRUE(IsLeaseLost(stale)) << stale;
  EXPECT_EQ(stale.message(),
            "lease \"work\" was taken over by b with token 2; this holder's token 1 is stale: "
            "nothing written");
  EXPECT_EQ(Writes(), 0);
  EXPECT_TRUE(FencedWrite(b, "b").ok());
  EXPECT_EQ(Writes(), 1);
}

TEST_F(LeaseTest, ALeaseThatLapsedWithoutATakeoverRefusesWritesUntilItsHolderRenewsIt) {
  const LeaseFence a = Granted("a", absl::Milliseconds(200));
  absl::SleepFor(absl::Milliseconds(300));
  const absl::Status lapsed = FencedWrite(a, "a");
  EXPECT_TRUE(IsLeaseLost(lapsed)) << lapsed;
  EXPECT_EQ(lapsed.message(), "lease \"work\" (token 1) expired before this write: nothing written");
  EXPECT_EQ(Writes(), 0);
  // Nobody took it over: the same grant, renewed, writes again.
  EXPECT_TRUE(*table_->Renew(a, absl::Seconds(10), kLockWait));
  EXPECT_TRUE(FencedWrite(a, "a").ok());
  EXPECT_EQ(Writes(), 1);
}

// The fence locks the lease row FOR SHARE: a write whose fence is checked
// while a takeover is being committed waits for it and then fails, instead
// of reading the row as it was and committing after the takeover.
TEST_F(LeaseTest, AFencedWriteWaitsForATakeoverInFlightAndIsThenRefused) {
  const LeaseFence a = Granted("a", absl::Seconds(10));
  pqxx::connection other(conninfo_);
  pqxx::work takeover(other);
  takeover.exec(
      "UPDATE leases SET holder = 'b', token = token + 1, "
      "expires_at = clock_timestamp() + interval '10 s' WHERE name = 'work'");
  std::atomic<bool> finished{false};
  absl::Status written;
  std::thread writer([&] {
    written = FencedWrite(a, "a");
    finished = true;
  });
  absl::SleepFor(absl::Milliseconds(500));
  EXPECT_FALSE(finished.load()) << "the fenced write did not wait for the takeover";
  takeover.commit();
  writer.join();
  EXPECT_TRUE(IsLeaseLost(written)) << written;
  EXPECT_EQ(Writes(), 0);
}

TEST_F(LeaseTest, ReleaseLetsTheNextHolderTakeOverAtOnce) {
  const LeaseFence a = Granted("a", absl::Seconds(30));
  ASSERT_TRUE(table_->Release(a).ok());
  EXPECT_EQ(Granted("b", absl::Seconds(30)).token, 2);
  EXPECT_TRUE(IsLeaseLost(FencedWrite(a, "a")));
}

TEST_F(LeaseTest, RequestsAreMarkedDoneOnlyByTheHolder) {
  EXPECT_EQ(*table_->Request("work", "north"), 1);
  EXPECT_EQ(*table_->Request("work", "north"), 2);
  EXPECT_EQ(*table_->Request("work", "south"), 1);
  EXPECT_EQ(table_->Pending("work")->size(), 2u);
  const LeaseFence a = Granted("a", absl::Milliseconds(200));
  absl::SleepFor(absl::Milliseconds(300));
  const LeaseFence b = Granted("b", absl::Seconds(10));
  EXPECT_TRUE(IsLeaseLost(table_->MarkDone(a, "north", 2)));
  EXPECT_EQ(*table_->Done("work", "north"), 0);
  ASSERT_TRUE(table_->MarkDone(b, "north", 2).ok());
  EXPECT_EQ(*table_->Done("work", "north"), 2);
  EXPECT_EQ(table_->Pending("work")->count("north"), 0u);
  EXPECT_EQ(table_->Pending("work")->at("south"), 1);
}

LeaseTiming Quick() {
  LeaseTiming timing;
  timing.ttl = absl::Seconds(1);
  timing.renew_every = absl::Milliseconds(250);
  return timing;
}

TEST_F(LeaseTest, OfTwoKeepersOnlyOneEverHoldsTheLease) {
  LeaseKeeper a(*table_, "work", "a", Quick());
  LeaseKeeper b(*table_, "work", "b", Quick());
  a.Start();
  b.Start();
  int a_held = 0;
  for (int i = 0; i < 100; ++i) {  // 2 s: several ttls and many renewals
    const bool a_holds = a.Held().has_value();
    const bool b_holds = b.Held().has_value();
    ASSERT_FALSE(a_holds && b_holds) << "both hold the lease";
    a_held += a_holds ? 1 : 0;
    absl::SleepFor(absl::Milliseconds(20));
  }
  EXPECT_EQ(a_held, 100);  // the first holder keeps it while it renews
  EXPECT_EQ(a.Held()->token, 1);
  EXPECT_EQ(b.Describe().substr(0, 25), "held by a with token 1 fo");
}

// The holder dies (stops renewing, releases nothing): the other keeper holds
// the lease, with the next token, no sooner than the grant can have lapsed
// and within ttl + one renewal period of the death.
TEST_F(LeaseTest, AKeeperTakesOverWithinTtlAndOneRenewalPeriodOfTheHoldersDeath) {
  const LeaseTiming timing = Quick();
  LeaseKeeper a(*table_, "work", "a", timing);
  LeaseKeeper b(*table_, "work", "b", timing);
  a.Start();
  b.Start();
  absl::SleepFor(absl::Milliseconds(600));
  ASSERT_TRUE(a.Held().has_value());
  const absl::Time died = absl::Now();
  a.Abandon();
  while (!b.Held().has_value() && absl::Now() - died < absl::Seconds(5)) {
    absl::SleepFor(absl::Milliseconds(5));
  }
  const absl::Duration takeover = absl::Now() - died;
  ASSERT_TRUE(b.Held().has_value());
  EXPECT_EQ(b.Held()->token, 2);
  EXPECT_GE(takeover, timing.ttl - timing.renew_every);
  EXPECT_LE(takeover, timing.ttl + timing.renew_every + absl::Milliseconds(150)) << takeover;
}

// The belief ends before the database's grant does: a holder whose
// renewals stop (paused) stops working while the grant still stands, so it
// never starts work that only the fence would stop. The grant's lapse is
// bounded below by a read just after the pause (a renewal still in flight
// could only move it later), and the belief must not be seen after it:
// compared with the last time Held() answered, which no delay in noticing
// the belief's end can move.
TEST_F(LeaseTest, AHolderThatStopsRenewingStopsBelievingItHoldsBeforeTheGrantLapses) {
  LeaseKeeper a(*table_, "work", "a", Quick());
  a.Start();
  a.Pause(true);
  const absl::Time read_from = absl::Now();
  absl::StatusOr<std::optional<LeaseRow>> row = table_->Read("work");
  ASSERT_TRUE(row.ok() && row->has_value());
  EXPECT_EQ((*row)->holder, "a");
  const absl::Time lapses_no_sooner = read_from + (*row)->remaining;
  absl::Time last_held = read_from;
  while (absl::Now() - read_from < absl::Seconds(3)) {
    const absl::Time asked = absl::Now();
    if (!a.Held().has_value()) break;
    last_held = asked;
    absl::SleepFor(absl::Milliseconds(2));
  }
  ASSERT_FALSE(a.Held().has_value()) << "still believes it holds the lease 3 ttls later";
  EXPECT_LT(last_held, lapses_no_sooner)
      << "believed it held the lease " << (last_held - lapses_no_sooner) << " after the grant lapsed";
}

TEST_F(LeaseTest, AKeeperThatStopsReleasesTheLeaseForTheNextAtItsNextTry) {
  LeaseTiming timing;
  timing.ttl = absl::Seconds(30);
  timing.renew_every = absl::Milliseconds(200);
  LeaseKeeper a(*table_, "work", "a", timing);
  LeaseKeeper b(*table_, "work", "b", timing);
  a.Start();
  b.Start();
  ASSERT_TRUE(a.Held().has_value());
  const absl::Time stopped = absl::Now();
  a.Stop();
  EXPECT_FALSE(a.Held().has_value());
  while (!b.Held().has_value() && absl::Now() - stopped < absl::Seconds(5)) {
    absl::SleepFor(absl::Milliseconds(5));
  }
  ASSERT_TRUE(b.Held().has_value());
  EXPECT_LT(absl::Now() - stopped, absl::Seconds(1));  // not the 30 s ttl
}

}  // namespace
}  // namespace arbiter::store::pg
