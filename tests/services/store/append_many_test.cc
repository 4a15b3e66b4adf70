// Batches of several games appended in one transaction (PostgresEventStore::
// AppendMany and the group commit behind concurrent Append calls), against a
// real PostgreSQL: each batch gets the answer it would get alone, a refused
// batch never fails another, and a writer that dies between a group's commit
// and its answers leaves every answer to be found by its request id.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pqxx/pqxx>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
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

class AppendManyTest : public ::testing::Test {
 protected:
  void SetUp() override { store_ = testing::FreshPostgresStore(&conninfo_); }

  void Create(const std::vector<std::string>& games) {
    for (const std::string& game : games) {
      ASSERT_TRUE(store_->CreateGame(CreateRequest(game)).ok()) << game;
    }
  }

  // How many transactions wrote the answers of these request ids.
  int64_t TransactionsOf(const std::vector<std::string>& request_ids) {
    pqxx::connection conn(conninfo_);
    pqxx::read_transaction txn(conn);
    std::string list;
    for (const std::string& id : request_ids) absl::StrAppend(&list, list.empty() ? "" : ",", txn.quote(id));
    return txn
        .exec1(absl::StrCat("SELECT count(DISTINCT xmin::text) FROM append_requests "
                            "WHERE request_id IN (", list, ")"))[0]
        .as<int64_t>();
  }

  // Positions 1..n without a gap and every game's chain intact.
  void ExpectConsistentStore(int64_t events) {
    int64_t seen = 0;
    std::set<std::string> games;
    absl::Status scanned = store_->ScanEvents(0, 0, [&](const StoredEvent& event) {
      EXPECT_EQ(event.position, ++seen);
      games.insert(event.game_id);
      return absl::OkStatus();
    });
    ASSERT_TRUE(scanned.ok()) << scanned;
    EXPECT_EQ(seen, events);
    EXPECT_EQ(*store_->HeadPosition(), events);
    for (const std::string& game : games) {
      absl::StatusOr<VerifyReport> report = store_->VerifyGame(game);
      EXPECT_TRUE(report.ok()) << game << ": " << report.status();
    }
  }

  std::string conninfo_;
  std::unique_ptr<PostgresEventStore> store_;
};

TEST_F(AppendManyTest, ARefusedBatchIsAnsweredAloneAndTheOthersShareOneCommit) {
  Create({"a", "b", "c", "done", "retry"});
  ASSERT_TRUE(store_->Append(Append("retry", 0, "retry-1", Events("retry", 1))).ok());
  {
    AppendRequest finish = Append("done", 0, "done-1", Events("done", 1));
    finish.events[0].type = kGameFinishedType;
    ASSERT_TRUE(store_->Append(finish).ok());
  }
  const std::vector<AppendRequest> requests = {
      Append("a", 0, "a-1", Events("a", 2)),
      Append("b", 5, "b-1", Events("b", 1)),                 // stale: b is at 0
      Append("nowhere", 0, "n-1", Events("nowhere", 1)),     // no such game
      Append("done", 1, "done-2", Events("done", 1)),        // finished
      Append("retry", 0, "retry-1", Events("retry", 1)),     // answered already
      Append("c", 0, "c-1", Events("c", 3)),
  };
  const std::vector<absl::StatusOr<AppendResult>> answers = store_->AppendMany(requests);
  ASSERT_EQ(answers.size(), requests.size());
  ASSERT_TRUE(answers[0].ok()) << answers[0].status();
  EXPECT_EQ(answers[1].status().code(), absl::StatusCode::kAborted);
  EXPECT_EQ(answers[1].status().message(), "expected sequence 5, game \"b\" is at 0");
  EXPECT_EQ(answers[2].status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(answers[3].status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(answers[4].ok()) << answers[4].status();
  EXPECT_TRUE(answers[4]->replayed);
  EXPECT_EQ(answers[4]->first_position, 1);
  ASSERT_TRUE(answers[5].ok()) << answers[5].status();
  // a then c, in request order, after the two events stored before.
  EXPECT_FALSE(answers[0]->replayed);
  EXPECT_EQ(answers[0]->first_position, 3);
  EXPECT_EQ(answers[0]->last_position, 4);
  EXPECT_EQ(answers[5]->first_position, 5);
  EXPECT_EQ(answers[5]->last_position, 7);
  EXPECT_EQ(answers[5]->last_sequence, 3);
  EXPECT_EQ(TransactionsOf({"a-1", "c-1"}), 1);
  EXPECT_EQ(store_->GetGame("b")->last_sequence, 0);
  ExpectConsistentStore(7);
  // Each batch of the group answers a retry of its request, alone.
  absl::StatusOr<AppendResult> again = store_->Append(requests[5]);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->replayed);
  EXPECT_EQ(again->last_hash, answers[5]->last_hash);
}

TEST_F(AppendManyTest, AnEventIdStoredElsewhereRefusesOnlyItsOwnBatch) {
  Create({"a", "b", "c"});
  ASSERT_TRUE(store_->Append(Append("a", 0, "a-1", Events("a", 2))).ok());
  std::vector<NewEvent> reused = Events("b", 2);
  reused[1].event_id = "a-1";  // stored in game a
  const std::vector<absl::StatusOr<AppendResult>> answers = store_->AppendMany(
      {Append("b", 0, "b-1", reused), Append("c", 0, "c-1", Events("c", 1)),
       Append("a", 2, "a-2", Events("a-more", 1))});
  EXPECT_EQ(answers[0].status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_NE(answers[0].status().message().find("\"a-1\""), std::string::npos)
      << answers[0].status();
  ASSERT_TRUE(answers[1].ok()) << answers[1].status();
  ASSERT_TRUE(answers[2].ok()) << answers[2].status();
  EXPECT_EQ(store_->GetGame("b")->last_sequence, 0);
  ExpectConsistentStore(4);
}

TEST_F(AppendManyTest, TwoBatchesOfOneGameInOneCallAreWrittenInTurn) {
  Create({"a", "b"});
  const std::vector<absl::StatusOr<AppendResult>> answers = store_->AppendMany(
      {Append("a", 0, "a-1", Events("a1", 1)), Append("a", 1, "a-2", Events("a2", 2)),
       Append("b", 0, "b-1", Events("b", 1)), Append("b", 0, "b-1", Events("b", 1)),
       Append("a", 0, "a-late", Events("a3", 1))});
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(answers[i].ok()) << i << ": " << answers[i].status();
  EXPECT_EQ(answers[1]->first_sequence, 2);
  EXPECT_EQ(answers[1]->last_sequence, 3);
  EXPECT_FALSE(answers[2]->replayed);
  EXPECT_TRUE(answers[3]->replayed);  // the same request twice: one write
  EXPECT_EQ(answers[3]->first_position, answers[2]->first_position);
  EXPECT_EQ(answers[4].status().code(), absl::StatusCode::kAborted);
  ExpectConsistentStore(4);
}

TEST_F(AppendManyTest, ConcurrentAppendsShareCommitsAndStayGapFree) {
  constexpr int kWriters = 32;
  constexpr int kAppendsEach = 20;
  std::vector<std::string> games;
  for (int w = 0; w < kWriters; ++w) games.push_back(absl::StrCat("g", w));
  Create(games);
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      for (int k = 0; k < kAppendsEach; ++k) {
        absl::StatusOr<AppendResult> r = store_->Append(Append(
            games[w], k, absl::StrCat(games[w], "-", k), Events(absl::StrCat(games[w], "-", k), 1)));
        if (!r.ok() || r->last_sequence != k + 1) ++failures;
      }
    });
  }
  for (std::thread& t : writers) t.join();
  EXPECT_EQ(failures.load(), 0);
  ExpectConsistentStore(kWriters * kAppendsEach);
  std::vector<std::string> request_ids;
  for (const std::string& game : games) {
    for (int k = 0; k < kAppendsEach; ++k) request_ids.push_back(absl::StrCat(game, "-", k));
  }
  // 32 writers on 2 cores: appends meet in the queue, so fewer commits than
  // appends (each append alone would be a commit of its own).
  EXPECT_LT(TransactionsOf(request_ids), kWriters * kAppendsEach);
}

// Two groups over the same games, listed in opposite orders, meet while a
// third party holds one of the games: each group locks its games in game id
// order, so the second waits behind the first instead of holding the games
// the first needs (a cycle PostgreSQL would break after a second by failing
// one group, whose batches would then be Unavailable).
TEST_F(AppendManyTest, GroupsOverTheSameGamesInOppositeOrdersNeverDeadlock) {
  constexpr int kGames = 8;
  std::vector<std::string> games;
  for (int g = 0; g < kGames; ++g) games.push_back(absl::StrCat("g", g));
  Create(games);
  pqxx::connection holder(conninfo_);
  pqxx::work hold(holder);
  hold.exec("SELECT 1 FROM games WHERE game_id = 'g3' FOR UPDATE");
  std::vector<absl::StatusOr<AppendResult>> forward_answers, backward_answers;
  auto group = [&](bool reversed, std::vector<absl::StatusOr<AppendResult>>* answers) {
    std::vector<AppendRequest> requests;
    for (int k = 0; k < kGames; ++k) {
      const std::string& game = games[reversed ? kGames - 1 - k : k];
      const std::string id = absl::StrCat(game, reversed ? "-backward" : "-forward");
      requests.push_back(Append(game, reversed ? 1 : 0, id, Events(id, 1)));
    }
    *answers = store_->AppendMany(requests);
  };
  std::thread forward(group, false, &forward_answers);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::thread backward(group, true, &backward_answers);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  hold.commit();
  forward.join();
  backward.join();
  // The forward group came first and wrote every game; the backward one
  // then found each game at the sequence it expected.
  for (int k = 0; k < kGames; ++k) {
    EXPECT_TRUE(forward_answers[k].ok()) << k << ": " << forward_answers[k].status();
    EXPECT_TRUE(backward_answers[k].ok()) << k << ": " << backward_answers[k].status();
  }
  ExpectConsistentStore(2 * kGames);
}

// The writer process is killed while groups are being committed: nothing it
// committed is lost or written twice, and every request it sent is answered
// by its id afterwards (stored before the kill: replayed; not: written now).
TEST_F(AppendManyTest, AWriterKilledAmidGroupsLeavesEveryAnswerToItsRequestId) {
  constexpr int kGames = 16;
  constexpr int kAppendsEach = 400;
  std::vector<std::string> games;
  for (int g = 0; g < kGames; ++g) games.push_back(absl::StrCat("g", g));
  Create(games);
  // Batch k of a game has 1 + k % 3 events.
  auto before = [](int k) {
    int64_t events = 0;
    for (int j = 0; j < k; ++j) events += 1 + j % 3;
    return events;
  };
  auto request = [&](int g, int k) {
    return Append(games[g], before(k), absl::StrCat(games[g], "-", k),
                  Events(absl::StrCat(games[g], "-", k), 1 + k % 3));
  };
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The writer: its own store and connections, a thread per game.
    PostgresOptions options;
    options.conninfo = conninfo_;
    std::unique_ptr<PostgresEventStore> writer = *PostgresEventStore::Open(options);
    std::vector<std::thread> threads;
    for (int g = 0; g < kGames; ++g) {
      threads.emplace_back([&, g] {
        for (int k = 0; k < kAppendsEach; ++k) {
          absl::StatusOr<AppendResult> answer = writer->Append(request(g, k));
          if (!answer.ok()) {
            std::fprintf(stderr, "the writer failed: %s\n", answer.status().ToString().c_str());
            _exit(3);
          }
        }
      });
    }
    for (std::thread& t : threads) t.join();
    _exit(0);
  }
  // Kill it once it has committed something.
  for (int i = 0; i < 2000 && *store_->HeadPosition() < 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(child, SIGKILL);
  int wait_status = 0;
  ASSERT_EQ(waitpid(child, &wait_status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(wait_status))
      << "the writer ended before it was killed, exit status " << WEXITSTATUS(wait_status);
  int replayed = 0, written = 0;
  int64_t events = 0;
  for (int k = 0; k < kAppendsEach; ++k) {
    std::vector<AppendRequest> round;
    for (int g = 0; g < kGames; ++g) round.push_back(request(g, k));
    const std::vector<absl::StatusOr<AppendResult>> answers = store_->AppendMany(round);
    for (int g = 0; g < kGames; ++g) {
      ASSERT_TRUE(answers[g].ok()) << games[g] << " #" << k << ": " << answers[g].status();
      (answers[g]->replayed ? replayed : written)++;
      events += 1 + k % 3;
    }
  }
  EXPECT_GT(replayed, 0);
  EXPECT_GT(written, 0) << "every append had committed before the kill";
  ExpectConsistentStore(events);
}

}  // namespace
}  // namespace arbiter::store
