// Games created several to a statement (PostgresEventStore::CreateGames and
// the group commit behind concurrent CreateGame calls), against a real
// PostgreSQL: each request gets the answer it would get alone, and the store
// stays gap-free and verifiable.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "services/store/postgres_event_store.h"
#include "tests/services/store/postgres_test_env.h"
#include "tests/services/store/store_test_util.h"

namespace arbiter::store {
namespace {

using testing::Append;
using testing::CreateRequest;
using testing::Events;

CreateGameRequest WholeGame(const std::string& game_id, int events) {
  CreateGameRequest request = CreateRequest(game_id);
  request.events = Events(game_id, events);
  request.game.status = GameStatus::kFinished;
  return request;
}

class CreateGamesTest : public ::testing::Test {
 protected:
  void SetUp() override { store_ = testing::FreshPostgresStore(); }

  std::vector<StoredEvent> ReadAll() {
    absl::StatusOr<std::vector<StoredEvent>> all = store_->ReadAll(0, 10000);
    EXPECT_TRUE(all.ok()) << all.status();
    return all.ok() ? *all : std::vector<StoredEvent>{};
  }

  // Positions 1..n without a gap, each game's events in sequence order, and
  // every game's chain intact.
  void ExpectConsistentStore(int64_t events) {
    const std::vector<StoredEvent> all = ReadAll();
    ASSERT_EQ(static_cast<int64_t>(all.size()), events);
    std::set<std::string> games;
    for (size_t i = 0; i < all.size(); ++i) {
      EXPECT_EQ(all[i].position, static_cast<int64_t>(i) + 1);
      games.insert(all[i].game_id);
    }
    for (const std::string& game : games) {
      absl::StatusOr<VerifyReport> report = store_->VerifyGame(game);
      EXPECT_TRUE(report.ok()) << game << ": " << report.status();
    }
    EXPECT_EQ(*store_->HeadPosition(), events);
  }

  std::unique_ptr<PostgresEventStore> store_;
};

TEST_F(CreateGamesTest, AGroupIsStoredInRequestOrderWithContiguousPositions) {
  const std::vector<CreateGameRequest> requests = {WholeGame("a", 3), WholeGame("b", 1),
                                                   CreateRequest("empty"), WholeGame("c", 4)};
  const std::vector<absl::StatusOr<GameRecord>> created = store_->CreateGames(requests);
  ASSERT_EQ(created.size(), 4u);
  for (const absl::StatusOr<GameRecord>& game : created) ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(created[0]->game_id, "a");
  EXPECT_EQ(created[0]->last_sequence, 3);
  EXPECT_EQ(created[0]->status, GameStatus::kFinished);
  EXPECT_EQ(created[2]->game_id, "empty");
  EXPECT_EQ(created[2]->last_sequence, 0);
  EXPECT_EQ(created[2]->status, GameStatus::kActive);
  EXPECT_EQ(created[3]->players, (std::vector<std::string>{"ana", "ben", "cy"}));
  ExpectConsistentStore(8);
  const std::vector<StoredEvent> all = ReadAll();
  // a: 1-3, b: 4, c: 5-8, in the order of the requests.
  EXPECT_EQ(all[0].game_id, "a");
  EXPECT_EQ(all[3].game_id, "b");
  EXPECT_EQ(all[4].game_id, "c");
  EXPECT_EQ(all[7].sequence, 4);
  EXPECT_EQ(all[7].hash, created[3]->last_hash);
  // Each game's batch answers a retry of its request, alone.
  absl::StatusOr<GameRecord> again = store_->CreateGame(requests[3]);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->last_hash, created[3]->last_hash);
  ExpectConsistentStore(8);
}

TEST_F(CreateGamesTest, ATakenGameIdOrARetryInAGroupGetsItsOwnAnswer) {
  ASSERT_TRUE(store_->CreateGame(WholeGame("first", 2)).ok());
  CreateGameRequest other_request_same_id = WholeGame("first", 1);
  other_request_same_id.request_id = "someone-else";
  CreateGameRequest changed_retry = WholeGame("first", 3);  // same request id, other content
  const std::vector<CreateGameRequest> requests = {WholeGame("new-1", 2), other_request_same_id,
                                                   WholeGame("first", 2), changed_retry,
                                                   WholeGame("new-2", 1)};
  const std::vector<absl::StatusOr<GameRecord>> created = store_->CreateGames(requests);
  ASSERT_EQ(created.size(), 5u);
  EXPECT_TRUE(created[0].ok()) << created[0].status();
  EXPECT_EQ(created[1].status().code(), absl::StatusCode::kAlreadyExists) << created[1].status();
  EXPECT_EQ(created[1].status().message(), "game id \"first\" is taken");
  ASSERT_TRUE(created[2].ok()) << "a retry gets the stored game: " << created[2].status();
  EXPECT_EQ(created[2]->last_sequence, 2);
  EXPECT_EQ(created[3].status().code(), absl::StatusCode::kInvalidArgument) << created[3].status();
  EXPECT_TRUE(created[4].ok()) << created[4].status();
  ExpectConsistentStore(2 + 2 + 1);
}

// An event id already stored makes the group's statement fail as a whole;
// every game is then written on its own, and only the culprit is refused.
TEST_F(CreateGamesTest, AnEventIdAlreadyStoredRefusesOnlyItsGame) {
  ASSERT_TRUE(store_->CreateGame(CreateRequest("old")).ok());
  ASSERT_TRUE(store_->Append(Append("old", 0, "r", Events("dup", 2))).ok());
  CreateGameRequest clash = WholeGame("clash", 2);
  clash.events[1].event_id = "dup-1";
  const std::vector<absl::StatusOr<GameRecord>> created =
      store_->CreateGames({WholeGame("x", 2), clash, WholeGame("y", 3)});
  ASSERT_EQ(created.size(), 3u);
  EXPECT_TRUE(created[0].ok()) << created[0].status();
  EXPECT_EQ(created[1].status().code(), absl::StatusCode::kAlreadyExists) << created[1].status();
  EXPECT_NE(created[1].status().message().find("\"dup-1\""), std::string::npos)
      << created[1].status();
  EXPECT_TRUE(created[2].ok()) << created[2].status();
  EXPECT_EQ(store_->GetGame("clash").status().code(), absl::StatusCode::kNotFound);
  ExpectConsistentStore(2 + 2 + 3);
}

// Two identical requests in one group (a client's retry racing its first
// try) both get the one game; a bad request is refused before the group.
TEST_F(CreateGamesTest, TwinRequestsShareOneGameAndABadRequestIsRefusedAlone) {
  CreateGameRequest bad = WholeGame("bad", 1);
  bad.game.players.clear();
  const std::vector<absl::StatusOr<GameRecord>> created =
      store_->CreateGames({WholeGame("twin", 2), bad, WholeGame("twin", 2)});
  ASSERT_EQ(created.size(), 3u);
  ASSERT_TRUE(created[0].ok()) << created[0].status();
  EXPECT_EQ(created[1].status().code(), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(created[2].ok()) << created[2].status();
  EXPECT_EQ(created[0]->last_hash, created[2]->last_hash);
  ExpectConsistentStore(2);
}

// Concurrent CreateGame calls go through the group commit: every caller
// gets its own game, and the store is gap-free and verifiable.
TEST_F(CreateGamesTest, ConcurrentCreatesEachGetTheirOwnGame) {
  constexpr int kThreads = 12;
  constexpr int kGamesPerThread = 15;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kGamesPerThread; ++i) {
        const std::string id = absl::StrCat("t", t, "-", i);
        absl::StatusOr<GameRecord> game = store_->CreateGame(WholeGame(id, 1 + (t + i) % 4));
        if (!game.ok() || game->game_id != id || game->last_sequence != 1 + (t + i) % 4) {
          ++failures;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  int64_t events = 0;
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kGamesPerThread; ++i) events += 1 + (t + i) % 4;
  }
  ExpectConsistentStore(events);
}

// A store on a fresh database with these group commit options.
absl::StatusOr<std::unique_ptr<PostgresEventStore>> OpenFreshStore(
    int max_games_per_commit, int create_writers, std::string* conninfo = nullptr) {
  std::string fresh;
  testing::FreshPostgresStore(&fresh);
  if (conninfo != nullptr) *conninfo = fresh;
  PostgresOptions options;
  options.conninfo = fresh;
  options.max_games_per_commit = max_games_per_commit;
  options.create_writers = create_writers;
  return PostgresEventStore::Open(options);
}

// A list longer than max_games_per_commit goes in several statements: each
// transaction stamps its games with its own now().
TEST(CreateGamesOptionsTest, AListLongerThanAGroupIsWrittenInSeveralCommits) {
  std::string conninfo;
  absl::StatusOr<std::unique_ptr<PostgresEventStore>> store =
      OpenFreshStore(/*max_games_per_commit=*/3, /*create_writers=*/2, &conninfo);
  ASSERT_TRUE(store.ok()) << store.status();
  std::vector<CreateGameRequest> requests;
  for (int i = 0; i < 8; ++i) requests.push_back(WholeGame(absl::StrCat("g", i), 2));
  const std::vector<absl::StatusOr<GameRecord>> created = (*store)->CreateGames(requests);
  ASSERT_EQ(created.size(), 8u);
  for (const absl::StatusOr<GameRecord>& game : created) EXPECT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(*(*store)->HeadPosition(), 16);
  pqxx::connection conn(conninfo);
  pqxx::read_transaction txn(conn);
  EXPECT_EQ(txn.exec1("SELECT count(DISTINCT created_at) FROM games")[0].as<int>(), 3);
}

TEST(CreateGamesOptionsTest, OneGamePerCommitStillCreatesEveryGame) {
  absl::StatusOr<std::unique_ptr<PostgresEventStore>> store =
      OpenFreshStore(/*max_games_per_commit=*/1, /*create_writers=*/1);
  ASSERT_TRUE(store.ok()) << store.status();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i) {
        EXPECT_TRUE((*store)->CreateGame(WholeGame(absl::StrCat("s", t, "-", i), 2)).ok());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(*(*store)->HeadPosition(), 4 * 5 * 2);
}

}  // namespace
}  // namespace arbiter::store
