// Spectators on a real server over a private PostgreSQL: a live game whose
// organiser allows them (Game.spectators, recorded in event 1) is followed
// by any token, public ones included, through GetGame, ListEvents,
// GetGameState and WatchGame, seeing no hand and no seed; a live game
// without it stays closed to them; nobody but a seat's player (or an admin
// or auditor) lists that seat's moves.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <google/protobuf/util/message_differencer.h>

#include "absl/strings/str_cat.h"
#include "tests/engine/conformance/view_checks.h"
#include "tests/integration/server_fixture.h"
#include "tests/integration/watcher.h"

namespace arbiter::server::testing {
namespace {

using SpectatedGame = GameCase;

class SpectatorTest : public ServerTest, public ::testing::WithParamInterface<SpectatedGame> {
 protected:
  // Creates a live game with the header and seed of `log`, open to
  // spectators or not.
  grpc::Status CreateLive(const log::GameLog& log, const std::string& game_id, bool spectators,
                          v1::Game* out) {
    v1::CreateGameRequest request;
    request.set_request_id(absl::StrCat("create-", game_id));
    request.set_game_id(game_id);
    v1::Game& game = *request.mutable_game();
    game.set_game_type(log.header.game());
    *game.mutable_players() = log.header.players();
    game.set_seed(log.header.seed());
    game.set_spectators(spectators);
    return stub_->CreateGame(As(admin_).get(), request, out);
  }

  // Appends the first `count` actions of `log` as the admin.
  void PlayFirst(const log::GameLog& log, const std::string& game_id, size_t count) {
    int64_t last = 1;
    for (size_t i = 0; i < count && i < log.actions.size(); ++i) {
      v1::AppendActionsResponse response;
      grpc::Status status = Append(admin_, game_id, last, {log.actions[i]},
                                   absl::StrCat(game_id, "-", i), &response);
      ASSERT_TRUE(status.ok()) << status.error_message();
      last = response.last_event();
    }
  }

  grpc::Status StateAs(const std::string& token, const std::string& game_id, v1::GameState* out) {
    v1::GetGameStateRequest request;
    request.set_name(absl::StrCat("games/", game_id));
    return stub_->GetGameState(As(token).get(), request, out);
  }
};

// The admin's view with every seat's hand cut to its size, and how many
// hands had something to cut.
std::pair<v1::PositionView, int> WithoutHands(v1::PositionView view,
                                              const std::set<std::string>& hands) {
  int cut = 0;
  for (v1::PlayerHoldings& holdings : *view.mutable_players()) {
    for (v1::Counter& counter : *holdings.mutable_items()) {
      if (hands.count(counter.name()) == 0 || counter.detail().empty()) continue;
      counter.clear_detail();
      ++cut;
    }
  }
  return {view, cut};
}

TEST_P(SpectatorTest, ThePublicFollowsALiveGameOnlyWhenAllowedAndSeesNoHandNorSeed) {
  const SpectatedGame param = GetParam();
  const log::GameLog log = Simulated(21, param.players, param.type);
  const std::optional<std::set<std::string>> hands = arbiter::testing::HandCountersOf(param.type);
  ASSERT_TRUE(hands.has_value());
  v1::Game created;
  ASSERT_TRUE(CreateLive(log, "open", true, &created).ok());
  EXPECT_TRUE(created.spectators());
  ASSERT_TRUE(CreateLive(log, "closed", false, &created).ok());
  EXPECT_FALSE(created.spectators());
  // Play on until some seat holds a hand the spectator must not see.
  size_t moves = 0;
  for (; moves + 1 < log.actions.size(); ++moves) {
    v1::GameState everything;
    ASSERT_TRUE(StateAs(admin_, "open", &everything).ok());
    if (moves >= 3 && WithoutHands(everything.view(), *hands).second > 0) break;
    v1::AppendActionsResponse response;
    ASSERT_TRUE(Append(admin_, "open", static_cast<int64_t>(moves) + 1, {log.actions[moves]},
                       absl::StrCat("open-", moves), &response)
                    .ok());
  }
  PlayFirst(log, "closed", moves);
  if (HasFatalFailure()) return;
  const std::string spectator = MakeToken(store::Role::kPublic, "visitor");
  const std::string bystander = MintPlayer(admin_, "not-seated", {"open", "closed"});
  ASSERT_FALSE(bystander.empty());

  for (const std::string& token : {spectator, bystander}) {
    // Without the organiser's leave: nothing, as before.
    v1::GetGameRequest get;
    get.set_name("games/closed");
    v1::Game game;
    EXPECT_EQ(stub_->GetGame(As(token).get(), get, &game).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
    v1::GameState state;
    EXPECT_EQ(StateAs(token, "closed", &state).error_code(), grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_FALSE(state.has_view());

    // With it: the game without its seed, and the position without a hand.
    get.set_name("games/open");
    grpc::Status status = stub_->GetGame(As(token).get(), get, &game);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_TRUE(game.spectators());
    EXPECT_FALSE(game.has_seed());
    v1::ListEventsRequest list;
    list.set_parent("games/open");
    v1::ListEventsResponse events;
    ASSERT_TRUE(stub_->ListEvents(As(token).get(), list, &events).ok());
    ASSERT_EQ(events.events_size(), static_cast<int>(moves) + 1);
    EXPECT_EQ(events.events(0).game_created().header().seed(), 0u);
    // Each action in words, the same words the admin gets (they tell no hand).
    const std::vector<std::string> words = ActionWords(log);
    for (int i = 1; i < events.events_size(); ++i) {
      EXPECT_EQ(events.events(i).text(), words.at(static_cast<std::size_t>(i - 1))) << "event " << i + 1;
    }
    status = StateAs(token, "open", &state);
    ASSERT_TRUE(status.ok()) << status.error_message();
    v1::GameState everything;
    ASSERT_TRUE(StateAs(admin_, "open", &everything).ok());
    const auto [expected, cut] = WithoutHands(everything.view(), *hands);
    EXPECT_GT(cut, 0) << "no hand to hide: the comparison would prove nothing";
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(state.view(), expected))
        << state.view().ShortDebugString();

    // No seat's moves: they show its hand.
    v1::ListLegalActionsRequest moves_request;
    moves_request.set_game("games/open");
    moves_request.set_player(log.header.players(0).id());
    v1::ListLegalActionsResponse offered;
    EXPECT_EQ(stub_->ListLegalActions(As(token).get(), moves_request, &offered).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_TRUE(offered.actions().empty());
  }

  // The live feed: every event so far, without the seed; a closed game's
  // feed is refused.
  Watcher watcher(*stub_, spectator, "open", 0, static_cast<int>(moves) + 1);
  const Watched watched = watcher.Join();
  ASSERT_EQ(watched.updates.size(), moves + 1) << watched.status.error_message();
  EXPECT_EQ(watched.updates[0].event().game_created().header().seed(), 0u);
  Watcher refused(*stub_, spectator, "closed", 0);
  EXPECT_EQ(refused.Join().status.error_code(), grpc::StatusCode::PERMISSION_DENIED);

  // A spectator writes nothing.
  v1::AppendActionsResponse response;
  EXPECT_EQ(Append(spectator, "open", static_cast<int64_t>(moves) + 1, {log.actions[moves]},
                   "spectator-move", &response)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Get("open").last_event(), static_cast<int64_t>(moves) + 1);
}

INSTANTIATE_TEST_SUITE_P(EveryGame, SpectatorTest,
                         ::testing::Values(SpectatedGame{"atlantis", 3},
                                           SpectatedGame{"atlantica", 2},
                                           SpectatedGame{"atlantis-rising", 3}),
                         GameCaseName);

}  // namespace
}  // namespace arbiter::server::testing
