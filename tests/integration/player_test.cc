// Player tokens end to end on a real server over a private PostgreSQL: who
// may mint them, a game played to its end by one client per seat, and every
// way a player's write or read beyond its own seat and game is refused with
// nothing stored.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <google/protobuf/util/message_differencer.h>

#include "absl/strings/str_cat.h"
#include "engine/core/rng.h"
#include "services/access/token_format.h"
#include "tests/engine/conformance/view_checks.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

class PlayerTest : public ServerTest {};

// Each seat's client appends only its own actions, one move at a time, to
// the end of the game.
TEST_F(PlayerTest, EachSeatPlaysItsOwnMovesToTheEndOfTheGame) {
  const log::GameLog log = Simulated(5, 3);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "g1", &game).ok());
  std::map<std::string, std::string> token_of;
  for (const v1::Player& p : log.header.players()) {
    token_of[p.id()] = MintPlayer(admin_, p.id(), {"g1"});
    ASSERT_FALSE(token_of[p.id()].empty());
  }
  int64_t last = 1;
  v1::AppendActionsResponse response;
  for (size_t i = 0; i < log.actions.size(); ++i) {
    const v1::Action& action = log.actions[i];
    grpc::Status status = Append(token_of.at(action.player()), "g1", last, {action},
                                 absl::StrCat("move-", i), &response);
    ASSERT_TRUE(status.ok()) << i << ": " << status.error_message();
    last = response.last_event();
  }
  EXPECT_EQ(response.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(response.verdict(), v1::VERDICT_LEGAL);
}

// What `token` may see of game `id` now: its GameState, and that of the
// admin (everyone) at the same event.
struct SeenState {
  v1::GameState mine;
  v1::GameState everyone;
};

// The admin's view of a position with the hand of every seat but `seat`
// (0-based) cut to its size: what that seat's player must be shown.
v1::PositionView CutFor(v1::PositionView view, int seat, const std::set<std::string>& hands) {
  for (v1::PlayerHoldings& holdings : *view.mutable_players()) {
    if (holdings.seat() == seat) continue;
    for (v1::Counter& counter : *holdings.mutable_items()) {
      if (hands.count(counter.name()) > 0) counter.clear_detail();
    }
  }
  return view;
}

using PlayedGame = GameCase;

class PlayThroughTest : public PlayerTest, public ::testing::WithParamInterface<PlayedGame> {
 protected:
  SeenState StateAs(const std::string& token, int64_t event) {
    v1::GetGameStateRequest request;
    request.set_name("games/live");
    request.set_event(event);
    SeenState out;
    grpc::Status status = stub_->GetGameState(As(token).get(), request, &out.mine);
    EXPECT_TRUE(status.ok()) << status.error_message();
    status = stub_->GetGameState(As(admin_).get(), request, &out.everyone);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return out;
  }

  v1::ListLegalActionsResponse MovesAs(const std::string& token) {
    v1::ListLegalActionsRequest request;
    request.set_game("games/live");
    v1::ListLegalActionsResponse out;
    grpc::Status status = stub_->ListLegalActions(As(token).get(), request, &out);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return out;
  }
};

// One client per seat, each with its own player token, plays a whole game
// choosing among the moves ListLegalActions offers it; at every step each
// seat's position equals the admin's with the other hands cut to their
// size, and a seat not to act is offered nothing.
TEST_P(PlayThroughTest, EachSeatPlaysFromItsOwnLegalMovesAndSeesOnlyItsOwnHand) {
  const PlayedGame played = GetParam();
  const log::GameLog log = Simulated(11, played.players, played.type);
  const std::optional<std::set<std::string>> hands = arbiter::testing::HandCountersOf(played.type);
  ASSERT_TRUE(hands.has_value());
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "live", &game).ok());
  std::vector<std::string> tokens;
  std::map<std::string, int> seat_of;
  for (const v1::Player& p : log.header.players()) {
    seat_of[p.id()] = static_cast<int>(tokens.size());
    tokens.push_back(MintPlayer(admin_, p.id(), {"live"}));
  }
  engine::Rng choose(3);
  int64_t last = 1;
  int moves = 0;
  for (; moves < 5000; ++moves) {
    std::string to_act;
    for (size_t seat = 0; seat < tokens.size(); ++seat) {
      const SeenState seen = StateAs(tokens[seat], last);
      // Once the game is over every seat sees everything.
      const v1::PositionView expected =
          seen.everyone.terminal() ? seen.everyone.view()
                                   : CutFor(seen.everyone.view(), static_cast<int>(seat), *hands);
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(seen.mine.view(), expected))
          << "seat " << seat + 1 << " after event " << last << ":\n"
          << seen.mine.view().ShortDebugString();
      if (seen.everyone.terminal()) continue;
      ASSERT_FALSE(seen.everyone.players_to_act().empty());
      to_act = seen.everyone.players_to_act(0);
      const v1::ListLegalActionsResponse offered = MovesAs(tokens[seat]);
      EXPECT_EQ(offered.last_event(), last);
      if (log.header.players(static_cast<int>(seat)).id() != to_act &&
          std::count(seen.everyone.players_to_act().begin(), seen.everyone.players_to_act().end(),
                     log.header.players(static_cast<int>(seat)).id()) == 0) {
        EXPECT_TRUE(offered.actions().empty()) << "seat " << seat + 1 << " is not to act";
        EXPECT_EQ(offered.players_to_act(0), to_act);
      }
    }
    if (to_act.empty()) break;  // the game is over
    const v1::ListLegalActionsResponse offered = MovesAs(tokens[seat_of.at(to_act)]);
    ASSERT_FALSE(offered.actions().empty()) << to_act << " after event " << last;
    for (const v1::LegalAction& move : offered.actions()) {
      EXPECT_FALSE(move.label().empty());
      EXPECT_FALSE(move.group().empty());
    }
    const v1::LegalAction& move =
        offered.actions(static_cast<int>(choose.Uniform(offered.actions_size())));
    v1::AppendActionsResponse response;
    grpc::Status status = Append(tokens[seat_of.at(to_act)], "live", last, {move.action()},
                                 absl::StrCat("move-", moves), &response);
    ASSERT_TRUE(status.ok()) << move.label() << ": " << status.error_message();
    last = response.last_event();
  }
  EXPECT_GT(moves, 10);
  const v1::Game finished = Get("live");
  EXPECT_EQ(finished.status(), v1::GAME_STATUS_FINISHED);
  v1::AdjudicateGameRequest adjudicate;
  adjudicate.set_name("games/live");
  v1::Adjudication judged;
  ASSERT_TRUE(stub_->AdjudicateGame(As(tokens[0]).get(), adjudicate, &judged).ok());
  EXPECT_EQ(judged.verdict(), v1::VERDICT_LEGAL);
  // Once the game is over every seat sees everything.
  const SeenState end = StateAs(tokens[0], 0);
  EXPECT_TRUE(
      google::protobuf::util::MessageDifferencer::Equals(end.mine.view(), end.everyone.view()));
}

INSTANTIATE_TEST_SUITE_P(EveryGame, PlayThroughTest,
                         ::testing::ValuesIn(EveryGameAtEveryPlayerCount()), GameCaseName);

// Moves show a hand: another seat's are refused to a player, and to an
// organiser while the game is live; a player gets an empty list with who
// is to act; a seat the game does not have is named.
TEST_F(PlayerTest, OnlyTheSeatItselfAndThoseWhoSeeEverythingListASeatsMoves) {
  const log::GameLog log = Simulated(5, 3);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "g1", &game).ok());
  const std::string ann = log.header.players(0).id();
  const std::string bob = log.header.players(1).id();
  const std::string token = MintPlayer(admin_, bob, {"g1"});
  v1::ListLegalActionsRequest request;
  request.set_game("games/g1");
  request.set_player(ann);
  v1::ListLegalActionsResponse response;
  grpc::Status status = stub_->ListLegalActions(As(token).get(), request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(status.error_message(),
            absl::StrCat("this player token may not list the moves of seat 1 (\"", ann,
                         "\") in game \"g1\" while it is live (they show its hand; a player "
                         "lists its own, admins and auditors any, an organiser those of the "
                         "seeded games its token created)"));
  const std::string organiser = MakeToken(store::Role::kOrganiser, "olga");
  EXPECT_EQ(stub_->ListLegalActions(As(organiser).get(), request, &response).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(stub_->ListLegalActions(As(admin_).get(), request, &response).ok());
  EXPECT_FALSE(response.actions().empty());
  EXPECT_EQ(response.actions(0).action().player(), ann);
  request.set_player("");
  ASSERT_TRUE(stub_->ListLegalActions(As(token).get(), request, &response).ok());
  EXPECT_EQ(response.player(), bob);
  EXPECT_TRUE(response.actions().empty());
  ASSERT_EQ(response.players_to_act_size(), 1);
  EXPECT_EQ(response.players_to_act(0), ann);
  request.set_player("nobody");
  status = stub_->ListLegalActions(As(admin_).get(), request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "player");
  request.set_player("");
  EXPECT_EQ(stub_->ListLegalActions(As(admin_).get(), request, &response).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

// A token bound to a tournament plays every table of that tournament its
// player sits at, and no game of another tournament.
TEST_F(PlayerTest, ATournamentPlayerTokenPlaysEveryTableOfItsTournament) {
  const log::GameLog log = Simulated(5, 3);
  for (const auto& [id, tournament] :
       std::vector<std::pair<std::string, std::string>>{{"cup-r1-t1", "cup"}, {"open-r1-t1", "open"}}) {
    v1::CreateGameRequest request;
    request.set_request_id("create-" + id);
    request.set_game_id(id);
    v1::Game& game = *request.mutable_game();
    game.set_game_type(log.header.game());
    *game.mutable_players() = log.header.players();
    game.set_seed(log.header.seed());
    game.set_tournament(tournament);
    v1::Game created;
    ASSERT_TRUE(stub_->CreateGame(As(admin_).get(), request, &created).ok()) << id;
  }
  const v1::Action& first = log.actions[0];
  const std::string token = MintPlayer(admin_, first.player(), {}, {"cup"});
  v1::AppendActionsResponse response;
  grpc::Status status = Append(token, "cup-r1-t1", 1, {first}, "at-cup", &response);
  EXPECT_TRUE(status.ok()) << status.error_message();
  status = Append(token, "open-r1-t1", 1, {first}, "at-open", &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Get("cup-r1-t1").last_event(), 2);
  EXPECT_EQ(Get("open-r1-t1").last_event(), 1);
}

// A move for another seat, for a game the token is not bound to (or that
// does not exist), a void or a reveal, by a revoked token: each refused,
// nothing stored.
TEST_F(PlayerTest, APlayerWritesNothingBeyondItsOwnSeatOfItsOwnGames) {
  const TwoGamesOfOneLog games = CreateTwoGamesOfOneLog();
  ASSERT_FALSE(HasFailure());  // both games were created
  const log::GameLog& log = games.log;
  const v1::Action& first = games.first;
  const std::string& other_player = games.other_player;
  const std::string other = MintPlayer(admin_, other_player, {"g1"});
  v1::AppendActionsResponse response;
  grpc::Status status = Append(other, "g1", 1, {first}, "not-mine", &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(status.error_message(),
            absl::StrCat("this player token may not act for seat 1 (\"", first.player(),
                         "\") in game \"g1\": actions[0]; it plays seat ",
                         other_player == log.header.players(1).id() ? 2 : 3, " (\"", other_player,
                         "\") only"));
  const std::string mine = MintPlayer(admin_, first.player(), {"g1"});
  for (const char* id : {"g2", "nosuch"}) {
    status = Append(mine, id, 1, {first}, "elsewhere", &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << id;
    EXPECT_EQ(status.error_message(),
              absl::StrCat("this player token may not write to game \"", id,
                           "\" (a player token plays only the games it is bound to, at its own "
                           "seat)"));
  }
  // A token bound to g1 for someone with no seat in it plays nowhere.
  const std::string stranger = MintPlayer(admin_, "zed", {"g1"});
  status = Append(stranger, "g1", 1, {first}, "stranger", &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  v1::GetGameRequest get;
  get.set_name("games/g1");
  v1::Game read;
  EXPECT_EQ(stub_->GetGame(As(stranger).get(), get, &read).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::VoidGameRequest void_request;
  void_request.set_name("games/g1");
  void_request.set_request_id("void");
  void_request.set_reason("a player wants a new deal");
  v1::Game voided;
  EXPECT_EQ(stub_->VoidGame(As(mine).get(), void_request, &voided).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::RevokeTokenRequest revoke;
  revoke.set_token_id(mine.substr(4, mine.rfind('_') - 4));
  v1::TokenInfo revoked;
  ASSERT_TRUE(token_stub_->RevokeToken(As(admin_).get(), revoke, &revoked).ok());
  status = Append(mine, "g1", 1, {first}, "revoked", &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Get("g1").last_event(), 1);
  EXPECT_EQ(Get("g2").last_event(), 1);
  EXPECT_EQ(Get("g1").status(), v1::GAME_STATUS_ACTIVE);
}

// A player reads the live game it plays (without the seed, which deals
// every hidden card), and not another live game or its positions.
TEST_F(PlayerTest, APlayerReadsItsOwnLiveGameWithoutItsSeed) {
  const log::GameLog log = Simulated(5, 3);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "g1", &game).ok());
  ASSERT_TRUE(Create(admin_, log, "g2", &game).ok());
  const std::string mine = MintPlayer(admin_, log.header.players(0).id(), {"g1"});
  v1::GetGameRequest get;
  get.set_name("games/g1");
  v1::Game read;
  ASSERT_TRUE(stub_->GetGame(As(mine).get(), get, &read).ok());
  EXPECT_EQ(read.seed(), 0u);
  v1::ListEventsRequest list;
  list.set_parent("games/g1");
  v1::ListEventsResponse events;
  ASSERT_TRUE(stub_->ListEvents(As(mine).get(), list, &events).ok());
  ASSERT_EQ(events.events_size(), 1);
  EXPECT_EQ(events.events(0).game_created().header().seed(), 0u);
  EXPECT_TRUE(events.events(0).payload().empty());
  v1::GetGameStateRequest state;
  state.set_name("games/g2");
  v1::GameState position;
  EXPECT_EQ(stub_->GetGameState(As(mine).get(), state, &position).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  for (const char* id : {"games/g2", "games/nosuch"}) {
    get.set_name(id);
    grpc::Status status = stub_->GetGame(As(mine).get(), get, &read);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << id;
    EXPECT_EQ(status.error_message(),
              absl::StrCat("this player token may not read game \"", id + 6,
                           "\" (player tokens read finished and voided games, the games they play in, "
                           "and live games whose organiser allows spectators)"));
  }
  v1::ListGamesRequest live;
  live.set_status(v1::GAME_STATUS_ACTIVE);
  v1::ListGamesResponse page;
  EXPECT_EQ(stub_->ListGames(As(mine).get(), live, &page).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

// Organisers mint player tokens for the games and tournaments they manage,
// and nothing else; a player token needs games or tournaments.
TEST_F(PlayerTest, OrganisersMintPlayerTokensForWhatTheyManageOnly) {
  const log::GameLog log = Simulated(5, 3);
  const std::string organiser = MakeToken(store::Role::kOrganiser, "olga");
  v1::Game game;
  ASSERT_TRUE(Create(organiser, log, "hers", &game).ok());
  ASSERT_TRUE(Create(admin_, log, "theirs", &game).ok());
  const std::string ann = log.header.players(0).id();
  grpc::Status status;
  EXPECT_FALSE(MintPlayer(organiser, ann, {"hers"}, {}, &status).empty()) << status.error_message();
  EXPECT_TRUE(MintPlayer(organiser, ann, {"theirs"}, {}, &status).empty());
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(status.error_message(),
            "this organiser token may not create player tokens for game \"theirs\" (games of its "
            "scope, and games it created, only)");
  EXPECT_TRUE(MintPlayer(organiser, ann, {}, {"cup"}, &status).empty());
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  absl::StatusOr<access::NewToken> cup = access::GenerateToken();
  ASSERT_TRUE(cup.ok());
  cup->record.role = store::Role::kOrganiser;
  cup->record.principal = "carl";
  cup->record.tournaments = {"cup"};
  cup->record.created_by = "test";
  ASSERT_TRUE(tokens_->Insert(cup->record).ok());
  EXPECT_FALSE(MintPlayer(cup->token, ann, {}, {"cup"}, &status).empty()) << status.error_message();
  // An organiser mints no other role.
  v1::CreateTokenRequest auditor;
  auditor.set_request_id("auditor");
  auditor.set_role(v1::ROLE_AUDITOR);
  auditor.set_principal("inspector");
  v1::CreateTokenResponse refused;
  EXPECT_EQ(token_stub_->CreateToken(As(cup->token).get(), auditor, &refused).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(MintPlayer(admin_, ann, {}, {}, &status).empty());
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "games");
  const std::string player = MintPlayer(admin_, ann, {}, {"cup"}, &status);
  ASSERT_FALSE(player.empty()) << status.error_message();
  // A player mints nothing.
  EXPECT_TRUE(MintPlayer(player, ann, {"hers"}, {}, &status).empty());
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  v1::ListTokensRequest list;
  v1::ListTokensResponse tokens;
  ASSERT_TRUE(token_stub_->ListTokens(As(admin_).get(), list, &tokens).ok());
  int with_games = 0;
  for (const v1::TokenInfo& t : tokens.tokens()) {
    if (t.role() == v1::ROLE_PLAYER && !t.games().empty()) {
      EXPECT_EQ(t.games(0), "hers");
      ++with_games;
    }
  }
  EXPECT_EQ(with_games, 1);
}

// Two moves sent at the same instant for the same event, from two devices of
// the seat to act (both legal) and from the seat to act and another seat:
// exactly one is stored each time; the other is refused, and a legal move
// that lost the race is told the event the game is now at.
TEST_F(PlayerTest, OfTwoMovesSentAtOnceOneIsStoredAndTheOtherIsToldWhatChanged) {
  const log::GameLog log = Simulated(9, 2);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "race", &game).ok());
  std::map<std::string, std::string> token_of;
  for (const v1::Player& p : log.header.players()) token_of[p.id()] = MintPlayer(admin_, p.id(), {"race"});
  int stale = 0;
  int64_t last = 1;
  for (int round = 0; round < 6; ++round) {
    v1::ListLegalActionsRequest ask;
    ask.set_game("games/race");
    ask.set_player(log.header.players(0).id());
    v1::ListLegalActionsResponse offered;
    ASSERT_TRUE(stub_->ListLegalActions(As(admin_).get(), ask, &offered).ok());
    if (offered.actions().empty()) {
      ask.set_player(offered.players_to_act(0));
      ASSERT_TRUE(stub_->ListLegalActions(As(admin_).get(), ask, &offered).ok());
    }
    ASSERT_GE(offered.actions_size(), 2);
    const std::string seat = offered.player();
    std::string other;
    for (const v1::Player& p : log.header.players()) {
      if (p.id() != seat) other = p.id();
    }
    // Even rounds: two devices of the seat to act; odd: the other seat too.
    v1::Action second = offered.actions(1).action();
    if (round % 2 == 1) second.set_player(other);
    const std::string second_token = token_of.at(second.player());
    grpc::Status status[2];
    v1::AppendActionsResponse response[2];
    std::thread a([&] {
      status[0] = Append(token_of.at(seat), "race", last, {offered.actions(0).action()},
                         absl::StrCat("a-", round), &response[0]);
    });
    std::thread b([&] {
      status[1] = Append(second_token, "race", last, {second}, absl::StrCat("b-", round),
                         &response[1]);
    });
    a.join();
    b.join();
    const int stored = (status[0].ok() ? 1 : 0) + (status[1].ok() ? 1 : 0);
    ASSERT_EQ(stored, 1) << status[0].error_message() << " / " << status[1].error_message();
    EXPECT_EQ(Get("race").last_event(), last + 1);
    const grpc::Status& lost = status[0].ok() ? status[1] : status[0];
    if (lost.error_code() == grpc::StatusCode::ABORTED) {
      ++stale;
      EXPECT_EQ(lost.error_message(),
                absl::StrCat("expected_last_event is ", last, " but the game is at event ",
                             last + 1, "; read the new events and decide again"));
      EXPECT_EQ(ErrorInfoOf(lost).metadata().at("last_event"), absl::StrCat(last + 1));
    } else {
      // The other seat's move, judged first: not its turn.
      EXPECT_EQ(round % 2, 1) << lost.error_message();
      EXPECT_TRUE(status[0].ok());
    }
    last += 1;
  }
  EXPECT_GE(stale, 3) << "every race between two legal moves ends with one told it is stale";
}

// A player asking for its own games gets the finished ones and the live ones
// its token plays in; not a live game its token is not for, nor another
// player's live games.
TEST_F(PlayerTest, APlayerListsItsOwnLiveGamesAndNoOneElses) {
  const log::GameLog log = Simulated(31, 2);
  const std::string ann = log.header.players(0).id();
  v1::Game game;
  for (const char* id : {"mine", "other-table", "done"}) ASSERT_TRUE(Create(admin_, log, id, &game).ok());
  v1::AppendActionsResponse response;
  ASSERT_TRUE(Append(admin_, "done", 1, log.actions, "all", &response).ok());
  const std::string token = MintPlayer(admin_, ann, {"mine"});
  auto listed = [&](const std::string& player, v1::GameStatus status, grpc::Status* out_status) {
    v1::ListGamesRequest request;
    request.set_player(player);
    request.set_status(status);
    v1::ListGamesResponse games;
    *out_status = stub_->ListGames(As(token).get(), request, &games);
    std::vector<std::string> names;
    for (const v1::Game& g : games.games()) names.push_back(g.name());
    return names;
  };
  grpc::Status status;
  EXPECT_EQ(listed(ann, v1::GAME_STATUS_UNSPECIFIED, &status),
            (std::vector<std::string>{"games/done", "games/mine"}));
  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(listed(ann, v1::GAME_STATUS_ACTIVE, &status), (std::vector<std::string>{"games/mine"}));
  EXPECT_TRUE(status.ok()) << status.error_message();
  // Another player's games, or every live game: as before, finished only.
  const std::string bob = log.header.players(1).id();
  EXPECT_EQ(listed(bob, v1::GAME_STATUS_UNSPECIFIED, &status), (std::vector<std::string>{"games/done"}));
  listed("", v1::GAME_STATUS_ACTIVE, &status);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
}

}  // namespace
}  // namespace arbiter::server::testing
