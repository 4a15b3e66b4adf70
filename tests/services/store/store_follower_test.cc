// The follower of the PostgreSQL store (postgres_store_follower.h): it hears
// of events stored by another store object (another process, as far as
// PostgreSQL can tell) soon after their commit, reports each game with its
// highest position, survives a lost connection without skipping anything,
// and counts what this process wrote (WrittenThrough).
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "services/store/postgres_event_store.h"
#include "tests/services/store/postgres_test_env.h"
#include "tests/services/store/store_test_util.h"

namespace arbiter::store {
namespace {

using testing::Append;
using testing::CreateRequest;
using testing::Events;

// Records what the follower says.
class Recorder final : public StoreListener {
 public:
  void OnStored(int64_t through, const std::vector<std::pair<std::string, int64_t>>& games,
                bool restart) override {
    absl::MutexLock lock(&mu_);
    if (restart) ++restarts_;
    if (!restart && through < through_) backwards_ = true;
    through_ = through;
    for (const auto& [game, position] : games) {
      int64_t& highest = highest_[game];
      highest = std::max(highest, position);
    }
  }
  void OnLost() override {
    absl::MutexLock lock(&mu_);
    ++lost_;
  }

  // Waits up to `timeout` for the follower to report through `position`.
  bool AwaitThrough(int64_t position, absl::Duration timeout = absl::Seconds(5)) {
    absl::MutexLock lock(&mu_);
    auto reached = [this, position]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return through_ >= position;
    };
    return mu_.AwaitWithTimeout(absl::Condition(&reached), timeout);
  }
  std::map<std::string, int64_t> highest() {
    absl::MutexLock lock(&mu_);
    return highest_;
  }
  int restarts() {
    absl::MutexLock lock(&mu_);
    return restarts_;
  }
  int lost() {
    absl::MutexLock lock(&mu_);
    return lost_;
  }
  bool went_backwards() {
    absl::MutexLock lock(&mu_);
    return backwards_;
  }

 private:
  absl::Mutex mu_;
  int64_t through_ ABSL_GUARDED_BY(mu_) = -1;
  std::map<std::string, int64_t> highest_ ABSL_GUARDED_BY(mu_);
  int restarts_ ABSL_GUARDED_BY(mu_) = 0;
  int lost_ ABSL_GUARDED_BY(mu_) = 0;
  bool backwards_ ABSL_GUARDED_BY(mu_) = false;
};

class StoreFollowerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = testing::FreshPostgresStore(&conninfo_);
    PostgresOptions options;
    options.conninfo = conninfo_;
    absl::StatusOr<std::unique_ptr<PostgresEventStore>> other = PostgresEventStore::Open(options);
    ASSERT_TRUE(other.ok()) << other.status();
    other_ = *std::move(other);
  }

  // Creates `game_id` with `events` events through `store`; returns the
  // position of its last event.
  int64_t GameWithEvents(EventStore& store, const std::string& game_id, int events) {
    EXPECT_TRUE(store.CreateGame(CreateRequest(game_id)).ok());
    absl::StatusOr<AppendResult> appended =
        store.Append(Append(game_id, 0, "append-" + game_id, Events(game_id, events)));
    EXPECT_TRUE(appended.ok()) << appended.status();
    return appended.ok() ? appended->last_position : 0;
  }

  std::string conninfo_;
  std::unique_ptr<PostgresEventStore> store_;
  std::unique_ptr<PostgresEventStore> other_;  // another writer
};

TEST_F(StoreFollowerTest, ReportsEachGameWithItsHighestPositionSoonAfterCommit) {
  const int64_t before = GameWithEvents(*other_, "old", 3);
  Recorder recorder;
  std::unique_ptr<StoreFollower> follower = store_->Follow(recorder);
  ASSERT_NE(follower, nullptr);
  ASSERT_TRUE(recorder.AwaitThrough(before));
  EXPECT_EQ(recorder.restarts(), 1);
  EXPECT_TRUE(recorder.highest().empty()) << "events before the start are not reported";

  const int64_t a = GameWithEvents(*other_, "a", 5);
  const int64_t b = GameWithEvents(*other_, "b", 2);
  ASSERT_TRUE(recorder.AwaitThrough(b));
  // Woken by the notification, well before the once-a-second look: five
  // commits in a row each heard of within 300 ms (by chance alone, without
  // notifications, all five would be once in 400 runs).
  for (int i = 0; i < 5; ++i) {
    const int64_t position =
        other_->Append(Append("b", 2 + i, absl::StrCat("more-", i), Events(absl::StrCat("m", i), 1)))
            ->last_position;
    const absl::Time committed = absl::Now();
    ASSERT_TRUE(recorder.AwaitThrough(position));
    EXPECT_LT(absl::Now() - committed, absl::Milliseconds(300)) << "commit " << i;
  }
  const int64_t b_last = b + 5;
  const std::map<std::string, int64_t> highest = recorder.highest();
  EXPECT_EQ(highest, (std::map<std::string, int64_t>{{"a", a}, {"b", b_last}}));
  EXPECT_EQ(recorder.restarts(), 1);
  EXPECT_FALSE(recorder.went_backwards());
}

TEST_F(StoreFollowerTest, GoesOnFromWhereItWasAfterItsConnectionIsKilled) {
  Recorder recorder;
  std::unique_ptr<StoreFollower> follower = store_->Follow(recorder);
  ASSERT_TRUE(recorder.AwaitThrough(0));
  {
    pqxx::connection admin(conninfo_);
    pqxx::nontransaction txn(admin);
    pqxx::result killed = txn.exec(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE pid <> pg_backend_pid() AND query LIKE '%store_head h LEFT JOIN append_requests%'");
    ASSERT_GE(killed.size(), 1u);
  }
  // Written while the follower is away: reported once it is back.
  const int64_t gone = GameWithEvents(*other_, "while-away", 4);
  ASSERT_TRUE(recorder.AwaitThrough(gone));
  EXPECT_GE(recorder.lost(), 1);
  EXPECT_EQ(recorder.restarts(), 1) << "a reconnection goes on, it does not start over";
  EXPECT_EQ(recorder.highest().at("while-away"), gone);
}

TEST_F(StoreFollowerTest, WrittenThroughCountsThisObjectsAppendsAndRetriedAnswers) {
  EXPECT_EQ(store_->WrittenThrough(), 0);
  const int64_t mine = GameWithEvents(*store_, "mine", 3);
  EXPECT_EQ(store_->WrittenThrough(), mine);
  const int64_t theirs = GameWithEvents(*other_, "theirs", 3);
  EXPECT_EQ(store_->WrittenThrough(), mine) << "another writer's events are not this object's";
  EXPECT_EQ(other_->WrittenThrough(), theirs);
  // A retry answered from the record of the first call counts as well.
  std::unique_ptr<PostgresEventStore> third;
  {
    PostgresOptions options;
    options.conninfo = conninfo_;
    third = *PostgresEventStore::Open(options);
  }
  absl::StatusOr<AppendResult> retried =
      third->Append(Append("theirs", 0, "append-theirs", Events("theirs", 3)));
  ASSERT_TRUE(retried.ok()) << retried.status();
  EXPECT_TRUE(retried->replayed);
  EXPECT_EQ(third->WrittenThrough(), theirs);
}

TEST_F(StoreFollowerTest, StopsPromptlyWhenDestroyed) {
  Recorder recorder;
  std::unique_ptr<StoreFollower> follower = store_->Follow(recorder);
  ASSERT_TRUE(recorder.AwaitThrough(0));
  const absl::Time start = absl::Now();
  follower.reset();
  EXPECT_LT(absl::Now() - start, absl::Milliseconds(500));
}

}  // namespace
}  // namespace arbiter::store
