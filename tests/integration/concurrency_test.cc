// Many clients at once: no lost or doubled actions, and a graceful shutdown
// keeps every acknowledged write.
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

TEST_F(ServerTest, ManyClientsAppendingToOneGameLoseAndDoubleNothing) {
  const log::GameLog log = Simulated(51, 4);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "crowded", &game).ok());
  constexpr int kClients = 8;
  std::atomic<int> accepted{0};
  std::atomic<int> aborted{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      // Each client reads where the game is and offers the next action.
      auto stub = StubFor(*server_);
      while (true) {
        v1::GetGameRequest get;
        get.set_name("games/crowded");
        v1::Game now;
        if (!stub->GetGame(As(admin_).get(), get, &now).ok()) {
          ++failures;
          return;
        }
        const int64_t index = now.last_event() - 1;
        if (now.status() != v1::GAME_STATUS_ACTIVE ||
            index >= static_cast<int64_t>(log.actions.size())) {
          return;
        }
        v1::AppendActionsRequest request;
        request.set_game("games/crowded");
        request.set_request_id(absl::StrCat("client", c, "-at", now.last_event()));
        request.set_expected_last_event(now.last_event());
        *request.add_actions() = log.actions[static_cast<std::size_t>(index)];
        v1::AppendActionsResponse first;
        grpc::Status status = stub->AppendActions(As(admin_).get(), request, &first);
        if (status.error_code() == grpc::StatusCode::ABORTED) {
          ++aborted;
          continue;
        }
        if (!status.ok()) {
          ADD_FAILURE() << "append: " << status.error_code() << " " << status.error_message();
          ++failures;
          return;
        }
        ++accepted;
        // A retry of an acknowledged request changes nothing.
        v1::AppendActionsResponse again;
        grpc::Status retried = stub->AppendActions(As(admin_).get(), request, &again);
        if (!retried.ok() || again.first_event() != first.first_event()) {
          ADD_FAILURE() << "retry: " << retried.error_code() << " " << retried.error_message()
                        << " first " << first.first_event() << " again " << again.first_event();
          ++failures;
        }
      }
    });
  }
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(accepted.load(), static_cast<int>(log.actions.size()));
  const v1::Game final_game = Get("crowded");
  // The header, the actions, and the result the last append led to.
  EXPECT_EQ(final_game.last_event(), static_cast<int64_t>(log.actions.size()) + 2);
  EXPECT_EQ(final_game.status(), v1::GAME_STATUS_FINISHED);

  // The stored actions are the log's, in order, each once.
  absl::StatusOr<std::vector<store::StoredEvent>> stored =
      events_->ReadGameEvents("crowded", 1, 10000);
  ASSERT_TRUE(stored.ok());
  ASSERT_EQ(stored->size(), log.actions.size() + 1);
  EXPECT_EQ(stored->back().type, "game_finished");
  // Stored in the batch of the action that ended the game, by its writer.
  EXPECT_EQ(stored->back().recorded_by, "root");
  EXPECT_EQ(stored->back().position, (*stored)[stored->size() - 2].position + 1);
  for (std::size_t i = 0; i < log.actions.size(); ++i) {
    v1::Action action;
    ASSERT_TRUE(action.ParseFromString((*stored)[i].payload));
    EXPECT_EQ(action.SerializeAsString(), log.actions[i].SerializeAsString()) << i;
  }
  v1::VerifyGameRequest verify;
  verify.set_name("games/crowded");
  v1::VerifyGameResponse report;
  ASSERT_TRUE(stub_->VerifyGame(As(admin_).get(), verify, &report).ok());
  EXPECT_TRUE(report.intact());
  EXPECT_EQ(report.verdict(), v1::VERDICT_LEGAL);
  RecordProperty("aborted_races", aborted.load());
}

TEST_F(ServerTest, ConcurrentSubmissionsAreAllStored) {
  constexpr int kClients = 8;
  constexpr int kGamesEach = 5;
  std::atomic<int> failures{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      auto stub = StubFor(*server_);
      for (int g = 0; g < kGamesEach; ++g) {
        v1::SubmitGameRequest request;
        request.set_request_id(absl::StrCat("c", c, "g", g));
        request.set_log(log::FormatLog(Simulated(static_cast<uint64_t>(100 + c * kGamesEach + g))));
        v1::SubmitGameResponse response;
        if (!stub->SubmitGame(As(admin_).get(), request, &response).ok() ||
            response.adjudication().verdict() != v1::VERDICT_LEGAL) {
          ++failures;
        }
      }
    });
  }
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(StoredGames(), kClients * kGamesEach);
}

TEST_F(ServerTest, AGracefulShutdownKeepsEveryAcknowledgedAppend) {
  constexpr int kGames = 4;
  std::vector<log::GameLog> logs;
  for (int g = 0; g < kGames; ++g) {
    logs.push_back(Simulated(static_cast<uint64_t>(60 + g)));
    v1::Game game;
    ASSERT_TRUE(Create(admin_, logs.back(), absl::StrCat("busy", g), &game).ok());
  }
  std::mutex mu;
  std::map<std::string, int64_t> acknowledged;  // game -> last acknowledged event
  std::vector<std::thread> writers;
  for (int g = 0; g < kGames; ++g) {
    writers.emplace_back([&, g] {
      auto stub = StubFor(*server_);
      const std::string id = absl::StrCat("busy", g);
      int64_t last = 1;
      for (const v1::Action& action : logs[static_cast<std::size_t>(g)].actions) {
        v1::AppendActionsRequest request;
        request.set_game(absl::StrCat("games/", id));
        request.set_request_id(absl::StrCat("w", last));
        request.set_expected_last_event(last);
        *request.add_actions() = action;
        v1::AppendActionsResponse response;
        if (!stub->AppendActions(As(admin_).get(), request, &response).ok()) return;
        last = response.last_event();
        std::lock_guard<std::mutex> lock(mu);
        acknowledged[id] = last;
      }
    });
  }
  // Shut down once writing is well under way: some appends acknowledged,
  // none of the games complete.
  const auto acknowledged_so_far = [&] {
    std::lock_guard<std::mutex> lock(mu);
    int64_t total = 0;
    for (const auto& [id, last] : acknowledged) total += last - 1;
    return total;
  };
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (acknowledged_so_far() < kGames * 2 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  for (std::thread& t : writers) t.join();
  // Writes were in flight: at least one writer was stopped before its game
  // ended, so the shutdown, not the end of the work, ended the writing.
  int interrupted = 0;
  for (int g = 0; g < kGames; ++g) {
    const int64_t all = static_cast<int64_t>(logs[static_cast<std::size_t>(g)].actions.size()) + 1;
    if (acknowledged[absl::StrCat("busy", g)] < all) ++interrupted;
  }
  EXPECT_GT(interrupted, 0) << "every game was complete before the shutdown";
  for (const auto& [id, last] : acknowledged) {
    absl::StatusOr<store::GameRecord> record = events_->GetGame(id);
    ASSERT_TRUE(record.ok());
    EXPECT_GE(record->last_sequence, last) << id;
  }
}

}  // namespace
}  // namespace arbiter::server::testing
