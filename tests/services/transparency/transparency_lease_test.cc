// The transparency log's builder under its lease (docs/replication.md,
// "Singletons"): two builders on one database, as two servers run them,
// each with its own lease keeper. Only the holder builds and signs; a
// holder paused inside a step (the tree's head locked) and resumed after
// another took over writes nothing, and the tree is the one a single
// builder makes; a checkpoint asked of a standby is signed by the holder;
// the other server takes over within ttl + one renewal period of the
// holder's death; and under one grant the tree's expected size still keeps
// one tree.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "engine/merkle/merkle.h"
#include "services/store/lease_keeper.h"
#include "services/store/pg/leases.h"
#include "services/transparency/checkpoint.h"
#include "services/transparency/transparency_log.h"
#include "tests/services/store/postgres_test_env.h"
#include "tests/services/store/store_test_util.h"

namespace arbiter::transparency {
namespace {

using engine::merkle::Hash;

// The tree's size, or 0 (and a failure) if building failed.
uint64_t Built(const absl::StatusOr<uint64_t>& size) {
  EXPECT_TRUE(size.ok()) << size.status();
  return size.ok() ? *size : 0;
}

store::LeaseTiming Quick() {
  store::LeaseTiming timing;
  timing.ttl = absl::Seconds(1);
  timing.renew_every = absl::Milliseconds(250);
  return timing;
}

// Quick, but a fenced transaction may sit idle for 10 s: a holder paused
// inside one for a couple of seconds keeps its session and reaches its
// fence.
store::LeaseTiming QuickWithPatientSessions() {
  store::LeaseTiming timing = Quick();
  timing.idle_limit = absl::Seconds(10);
  return timing;
}

// One server's builder and the keeper of its lease. Counts the steps that
// found new events, and can be stopped inside one (paused).
struct BuilderServer {
  std::shared_ptr<store::LeaseKeeper> keeper;
  std::unique_ptr<TransparencyLog> log;
  std::atomic<int> steps{0};
  std::atomic<bool> pause_next{false};
  absl::Notification paused;
  absl::Notification resume;
};

class TransparencyLeaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = store::testing::FreshPostgresStore(&conninfo_);
    ASSERT_NE(store_, nullptr);
    table_ = std::make_unique<store::pg::LeaseTable>(store_->pool());
    signer_ = std::make_unique<NoteSigner>(*NoteSigner::Generate("test.example/log"));
  }
  void TearDown() override { servers_.clear(); }

  BuilderServer& NewServer(const std::string& holder,
                           std::shared_ptr<store::LeaseKeeper> keeper = nullptr,
                           store::LeaseTiming timing = Quick()) {
    auto server = std::make_unique<BuilderServer>();
    BuilderServer* s = server.get();
    if (keeper == nullptr) {
      keeper = std::make_shared<store::LeaseKeeper>(*table_, kTransparencyLease, holder, timing);
      keeper->Start();
    }
    s->keeper = keeper;
    s->log = std::make_unique<TransparencyLog>(store_->pool(), *signer_);
    s->log->UseLease(*keeper);
    s->log->SetInStepHookForTest([s] {
      ++s->steps;
      if (s->pause_next.exchange(false)) {
        s->paused.Notify();
        s->resume.WaitForNotification();
      }
    });
    servers_.push_back(std::move(server));
    return *s;
  }

  // A game with `events` events, appended in batches of 3.
  void Game(const std::string& id, int events) {
    ASSERT_TRUE(store_->CreateGame(store::testing::CreateRequest(id)).ok());
    for (int at = 0; at < events; at += 3) {
      const int n = std::min(3, events - at);
      ASSERT_TRUE(store_
                      ->Append(store::testing::Append(id, at, absl::StrCat(id, "-req-", at),
                                                      store::testing::Events(absl::StrCat(id, "-", at), n)))
                      .ok());
    }
  }

  // The root a single builder gives: game events' leaves in store order.
  Hash ExpectedRoot() {
    pqxx::connection conn(conninfo_);
    pqxx::work txn(conn);
    std::vector<Hash> leaves;
    for (const pqxx::row& row : txn.exec("SELECT hash FROM events_readable ORDER BY position")) {
      leaves.push_back(*EventLeafHash(row[0].as<std::string>()));
    }
    return engine::merkle::RootOf(leaves);
  }

  uint64_t Events() { return static_cast<uint64_t>(*store_->HeadPosition()); }

  uint64_t TreeSize() { return *servers_.front()->log->TreeSize(); }

  static bool WaitFor(const std::function<bool()>& done, absl::Duration limit = absl::Seconds(20)) {
    const absl::Time deadline = absl::Now() + limit;
    while (!done()) {
      if (absl::Now() > deadline) return false;
      absl::SleepFor(absl::Milliseconds(5));
    }
    return true;
  }

  std::string conninfo_;
  std::unique_ptr<store::PostgresEventStore> store_;
  std::unique_ptr<store::pg::LeaseTable> table_;
  std::unique_ptr<NoteSigner> signer_;
  std::vector<std::unique_ptr<BuilderServer>> servers_;
};

TEST_F(TransparencyLeaseTest, OnlyTheHolderBuildsAndSigns) {
  BuilderServer& a = NewServer("a");
  BuilderServer& b = NewServer("b");
  a.log->Start(absl::Milliseconds(10), absl::Milliseconds(50));
  b.log->Start(absl::Milliseconds(10), absl::Milliseconds(50));
  for (int g = 0; g < 5; ++g) Game(absl::StrCat("g", g), 7);
  ASSERT_TRUE(WaitFor([&] { return TreeSize() == Events(); }));
  ASSERT_TRUE(WaitFor([&] {
    absl::StatusOr<StoredCheckpoint> latest = b.log->LatestCheckpoint();
    return latest.ok() && latest->size == Events();
  }));
  absl::SleepFor(absl::Milliseconds(300));
  EXPECT_GT(a.steps.load(), 0);
  EXPECT_EQ(b.steps.load(), 0);
  EXPECT_EQ(a.log->RootAt(Events()).value_or(Hash{}), ExpectedRoot());
  EXPECT_EQ(b.log->CatchUp().status().code(), absl::StatusCode::kUnavailable);
}

// Server a is paused inside a build step, holding the tree's head, while its
// lease lapses and b takes it over (b's steps wait: the head is a's). When a
// resumes, its step is refused by the lease's token with nothing written; b
// then builds the tree a single builder would have.
TEST_F(TransparencyLeaseTest, ABuilderPausedInAStepPastItsLeaseWritesNothingAndTheTreeDoesNotFork) {
  Game("first", 5);
  BuilderServer& a = NewServer("a", nullptr, QuickWithPatientSessions());
  ASSERT_EQ(Built(a.log->CatchUp()), 5u);
  BuilderServer& b = NewServer("b");
  b.log->Start(absl::Milliseconds(10), absl::Hours(1));
  Game("second", 8);

  a.pause_next = true;
  absl::StatusOr<uint64_t> stale;
  std::thread step([&] { stale = a.log->CatchUp(); });
  a.paused.WaitForNotification();
  a.keeper->Pause(true);
  ASSERT_TRUE(WaitFor([&] { return b.keeper->Held().has_value(); }));
  Game("third", 4);
  const uint64_t before = *b.log->TreeSize();
  a.resume.Notify();
  step.join();

  EXPECT_TRUE(store::IsLeaseLost(stale.status())) << stale.status();
  EXPECT_EQ(before, 5u);
  ASSERT_TRUE(WaitFor([&] { return TreeSize() == Events(); }));
  EXPECT_EQ(Events(), 17u);
  EXPECT_EQ(b.log->RootAt(17).value_or(Hash{}), ExpectedRoot());
  pqxx::connection conn(conninfo_);
  pqxx::work txn(conn);
  EXPECT_EQ(txn.exec1("SELECT count(DISTINCT position) FROM transparency_leaves")[0].as<int>(), 17);
}

// The same pause, longer than the idle limit of a fenced transaction (the
// ttl): PostgreSQL ends a's session, which frees the tree's head, so b
// builds while a is still paused; a's step, resumed, writes nothing.
TEST_F(TransparencyLeaseTest, ABuilderPausedInAStepPastItsIdleLimitLosesItsSessionAndItsLocks) {
  Game("first", 5);
  BuilderServer& a = NewServer("a");
  ASSERT_EQ(Built(a.log->CatchUp()), 5u);
  BuilderServer& b = NewServer("b");
  b.log->Start(absl::Milliseconds(10), absl::Hours(1));
  Game("second", 8);

  a.pause_next = true;
  absl::StatusOr<uint64_t> stale;
  std::thread step([&] { stale = a.log->CatchUp(); });
  a.paused.WaitForNotification();
  a.keeper->Pause(true);
  const bool built_meanwhile = WaitFor([&] { return TreeSize() == Events(); }, absl::Seconds(8));
  a.resume.Notify();
  step.join();

  EXPECT_TRUE(built_meanwhile) << "b could not build while a was paused in its step";
  EXPECT_EQ(stale.status().code(), absl::StatusCode::kUnavailable) << stale.status();
  ASSERT_TRUE(WaitFor([&] { return TreeSize() == Events(); }));
  EXPECT_EQ(b.log->RootAt(13).value_or(Hash{}), ExpectedRoot());
}

TEST_F(TransparencyLeaseTest, ACheckpointAskedOfAStandbyIsSignedByTheHolder) {
  BuilderServer& a = NewServer("a");
  BuilderServer& b = NewServer("b");
  a.log->Start(absl::Milliseconds(10), absl::Hours(1));  // the first checkpoint only
  b.log->Start(absl::Milliseconds(10), absl::Hours(1));
  ASSERT_TRUE(WaitFor([&] { return b.log->LatestCheckpoint().ok(); }));
  Game("g", 6);
  absl::StatusOr<StoredCheckpoint> published = b.log->Publish();
  ASSERT_TRUE(published.ok()) << published.status();
  EXPECT_EQ(published->size, 6u);  // every event stored before the call
  absl::StatusOr<Checkpoint> opened =
      OpenCheckpoint(*NoteVerifier::Parse(signer_->VerifierKey()), published->note);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_EQ(opened->root, ExpectedRoot());
  EXPECT_EQ(b.steps.load(), 0);
}

TEST_F(TransparencyLeaseTest, AnotherServerTakesOverWithinTtlAndOneRenewalPeriodOfTheHoldersDeath) {
  BuilderServer& a = NewServer("a");
  BuilderServer& b = NewServer("b");
  a.log->Start(absl::Milliseconds(10), absl::Hours(1));
  b.log->Start(absl::Milliseconds(10), absl::Hours(1));
  Game("before", 3);
  ASSERT_TRUE(WaitFor([&] { return TreeSize() == Events(); }));
  const absl::Time died = absl::Now();
  a.log->Stop();
  a.keeper->Abandon();
  Game("after", 3);
  ASSERT_TRUE(WaitFor([&] { return TreeSize() == Events(); }));
  const absl::Duration takeover = absl::Now() - died;
  EXPECT_GT(b.steps.load(), 0);
  EXPECT_LE(takeover, Quick().ttl + Quick().renew_every + absl::Milliseconds(500)) << takeover;
  EXPECT_EQ(b.log->RootAt(6).value_or(Hash{}), ExpectedRoot());
}

// Two builders under one grant, each with its own frontier in memory: the
// one whose frontier is behind the stored tree must not extend it.
TEST_F(TransparencyLeaseTest, UnderOneGrantTheTreesExpectedSizeStillKeepsOneTree) {
  BuilderServer& first = NewServer("a");
  BuilderServer& second = NewServer("a", first.keeper);
  Game("g1", 6);
  ASSERT_EQ(Built(first.log->CatchUp()), 6u);
  Game("g2", 9);
  ASSERT_EQ(Built(second.log->CatchUp()), 15u);
  Game("g3", 2);
  EXPECT_EQ(Built(first.log->CatchUp()), 17u);  // its frontier was stale: it reloaded
  EXPECT_EQ(first.log->RootAt(17).value_or(Hash{}), ExpectedRoot());
}

}  // namespace
}  // namespace arbiter::transparency
