// A write whose deadline passes before it reaches the store stores nothing,
// whichever step the deadline falls in; and a write that reached the store
// is whole. GameWriter is driven directly (on the in-memory store), with a
// cancel check that starts failing after a given number of consultations,
// as the gRPC layer's check does once the call's deadline has passed.
#include <gtest/gtest.h>

#include "services/log/log_file.h"
#include "services/replay/simulate.h"
#include "services/games/game_writer.h"
#include "services/store/memory_event_store.h"

namespace arbiter::games {
namespace {

access::Caller Admin() {
  access::Caller caller;
  caller.principal = "admin";
  caller.role = store::Role::kAdmin;
  return caller;
}

// Fails (as a passed deadline does) from its `allowed + 1`-th call on.
games::CancelCheck DeadlineAfter(int allowed, int* consulted) {
  return [allowed, consulted]() -> absl::Status {
    if ((*consulted)++ < allowed) return absl::OkStatus();
    return absl::DeadlineExceededError("the call's deadline passed");
  };
}

int64_t StoredEvents(store::EventStore& store) { return *store.HeadPosition(); }

class GameWriterDeadlineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<engine::RulesetRegistry> registry = engine::RulesetRegistry::WithBuiltins();
    ASSERT_TRUE(registry.ok()) << registry.status();
    registry_.emplace(*std::move(registry));
    writer_.emplace(store_, *registry_, games::WriteLimits{});
  }

  store::MemoryEventStore store_;
  std::optional<engine::RulesetRegistry> registry_;
  std::optional<games::GameWriter> writer_;
};

TEST_F(GameWriterDeadlineTest, ASubmitPastItsDeadlineStoresNothingAtAnyStep) {
  absl::StatusOr<log::GameLog> game = replay::SimulateGame({"atlantica", 5, 11}, *registry_);
  ASSERT_TRUE(game.ok()) << game.status();
  v1::SubmitGameRequest request;
  request.set_log(log::FormatLog(*game));

  int steps_before_success = -1;
  for (int allowed = 0; allowed < 100 && steps_before_success < 0; ++allowed) {
    request.set_request_id(absl::StrCat("submit-", allowed));
    int consulted = 0;
    absl::StatusOr<v1::SubmitGameResponse> answer =
        writer_->Submit(Admin(), request, DeadlineAfter(allowed, &consulted));
    if (answer.ok()) {
      steps_before_success = allowed;
      break;
    }
    EXPECT_EQ(answer.status().code(), absl::StatusCode::kDeadlineExceeded) << answer.status();
    EXPECT_EQ(StoredEvents(store_), 0) << "deadline after " << allowed << " checks";
    absl::StatusOr<store::ListGamesPage> games = store_.ListGames({}, 10, "");
    ASSERT_TRUE(games.ok());
    EXPECT_TRUE(games->games.empty()) << "deadline after " << allowed << " checks";
  }
  ASSERT_GE(steps_before_success, 1) << "Submit checks its deadline before it stores";
  EXPECT_EQ(StoredEvents(store_), static_cast<int64_t>(game->actions.size()) + 2)
      << "the submit that met its deadline stored the whole log and its result";
}

TEST_F(GameWriterDeadlineTest, AnAppendPastItsDeadlineStoresNothing) {
  v1::CreateGameRequest create;
  create.set_request_id("create");
  create.set_game_id("live");
  create.mutable_game()->set_game_type("atlantis");
  create.mutable_game()->set_seed(5);
  for (const char* id : {"p1", "p2"}) create.mutable_game()->add_players()->set_id(id);
  absl::StatusOr<v1::Game> created = writer_->Create(Admin(), create);
  ASSERT_TRUE(created.ok()) << created.status();
  absl::StatusOr<log::GameLog> game = replay::SimulateGame({"atlantis", 2, 5}, *registry_);
  ASSERT_TRUE(game.ok()) << game.status();
  ASSERT_EQ(game->header.players(0).id(), "p1") << "the simulated log seats the same players";

  v1::AppendActionsRequest append;
  append.set_game("games/live");
  append.set_request_id("append");
  append.set_expected_last_event(1);
  for (int i = 0; i < 5; ++i) *append.add_actions() = game->actions[i];
  const int64_t before = StoredEvents(store_);
  int consulted = 0;
  absl::StatusOr<v1::AppendActionsResponse> late =
      writer_->Append(Admin(), append, DeadlineAfter(0, &consulted));
  EXPECT_EQ(late.status().code(), absl::StatusCode::kDeadlineExceeded) << late.status();
  EXPECT_EQ(StoredEvents(store_), before);

  consulted = 0;
  absl::StatusOr<v1::AppendActionsResponse> in_time =
      writer_->Append(Admin(), append, DeadlineAfter(1000, &consulted));
  ASSERT_TRUE(in_time.ok()) << in_time.status();
  EXPECT_EQ(in_time->last_event(), 6);
  EXPECT_EQ(StoredEvents(store_), before + 5);
}

}  // namespace
}  // namespace arbiter::games
