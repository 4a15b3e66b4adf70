// Dealt games end to end on a real server over a private PostgreSQL
// (docs/chance.md, "Dealt games"): the server commits to a secret, each
// seat adds a value with its own player token, the game is played through
// the API by one client per seat, the secret is recorded at the end, and
// the deal is re-derived offline from the log alone. Also every refusal of
// the deal's writes (nothing stored), the reveal on voiding, and a forged
// reveal or a changed seat value found by VerifyGame.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <google/protobuf/util/message_differencer.h>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/core/dealer_seed.h"
#include "engine/core/rng.h"
#include "engine/core/ruleset_registry.h"
#include "services/replay/referee.h"
#include "tests/integration/server_fixture.h"
#include "tests/integration/watcher.h"

namespace arbiter::server::testing {
namespace {

using ::testing::HasSubstr;

class DealtGameTest : public ServerTest {
 protected:
  // Creates a dealt game of `type` for the players of a simulated header.
  grpc::Status CreateDealt(const std::string& game_id, const std::string& type, int players,
                           v1::Game* out, const std::string& token = "") {
    const log::GameLog log = Simulated(1, players, type);
    v1::CreateGameRequest request;
    request.set_request_id(absl::StrCat("create-", game_id));
    request.set_game_id(game_id);
    v1::Game& game = *request.mutable_game();
    game.set_game_type(type);
    *game.mutable_players() = log.header.players();
    game.set_deal(true);
    return stub_->CreateGame(As(token.empty() ? admin_ : token).get(), request, out);
  }

  grpc::Status AddValue(const std::string& token, const std::string& game_id,
                        const std::string& value, v1::Game* out,
                        const std::string& request_id = "") {
    v1::AddSeatValueRequest request;
    request.set_game(absl::StrCat("games/", game_id));
    request.set_request_id(request_id.empty() ? absl::StrCat("value-", value) : request_id);
    request.set_value(value);
    return stub_->AddSeatValue(As(token).get(), request, out);
  }

  grpc::Status Close(const std::string& token, const std::string& game_id, v1::Game* out) {
    v1::CloseDealRequest request;
    request.set_game(absl::StrCat("games/", game_id));
    request.set_request_id(absl::StrCat("close-", game_id));
    return stub_->CloseDeal(As(token).get(), request, out);
  }

  std::vector<v1::Event> Events(const std::string& game_id, const std::string& token = "") {
    v1::ListEventsRequest request;
    request.set_parent(absl::StrCat("games/", game_id));
    request.set_page_size(1000);
    v1::ListEventsResponse response;
    grpc::Status status =
        stub_->ListEvents(As(token.empty() ? admin_ : token).get(), request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return {response.events().begin(), response.events().end()};
  }

  // One player token per seat of `game`, bound to it.
  std::vector<std::string> SeatTokens(const v1::Game& game, const std::string& game_id) {
    std::vector<std::string> tokens;
    for (const v1::Player& p : game.players()) {
      tokens.push_back(MintPlayer(admin_, p.id(), {game_id}));
      EXPECT_FALSE(tokens.back().empty());
    }
    return tokens;
  }

  // Plays `game_id` to its end, each seat through its own token choosing
  // among the moves ListLegalActions offers it. Every answer a player
  // received while the game was live is appended to `seen`.
  void PlayToTheEnd(const std::string& game_id, const std::vector<std::string>& tokens,
                    std::string& seen) {
    engine::Rng choose(7);
    int64_t last = 0;
    for (int moves = 0; moves < 5000; ++moves) {
      bool moved = false;
      for (const std::string& token : tokens) {
        v1::ListLegalActionsRequest request;
        request.set_game(absl::StrCat("games/", game_id));
        v1::ListLegalActionsResponse offered;
        grpc::Status status = stub_->ListLegalActions(As(token).get(), request, &offered);
        ASSERT_TRUE(status.ok()) << status.error_message();
        seen += offered.SerializeAsString();
        if (offered.terminal()) return;
        if (offered.actions().empty()) continue;
        last = offered.last_event();
        const v1::LegalAction& move =
            offered.actions(static_cast<int>(choose.Uniform(offered.actions_size())));
        v1::AppendActionsResponse response;
        status = Append(token, game_id, last, {move.action()}, absl::StrCat("move-", moves),
                        &response);
        ASSERT_TRUE(status.ok()) << move.label() << ": " << status.error_message();
        seen += response.SerializeAsString();
        // Once over, every seat may see everything (the secret included).
        if (response.status() == v1::GAME_STATUS_FINISHED) return;
        v1::GetGameStateRequest state;
        state.set_name(absl::StrCat("games/", game_id));
        v1::GameState position;
        ASSERT_TRUE(stub_->GetGameState(As(token).get(), state, &position).ok());
        seen += position.SerializeAsString();
        if (moves % 8 == 0) {
          for (const v1::Event& e : Events(game_id, token)) seen += e.SerializeAsString();
        }
        moved = true;
        break;
      }
      ASSERT_TRUE(moved) << "nobody could move after event " << last;
    }
    FAIL() << "the game did not end";
  }
};

const engine::RulesetRegistry& Rulesets() {
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  return *registry;
}

using DealtCase = GameCase;

class DealtPlayTest : public DealtGameTest, public ::testing::WithParamInterface<DealtCase> {};

// The whole life of a dealt game: committed, the values added, played
// through the API by each seat, the secret recorded before the result, and
// the deal re-derived offline from the events to the same verdict and
// standings. No answer a player received before the end held the secret,
// nor any message of its live feed before the reveal; the feed names the
// seats to act from the closing of the deal on.
TEST_P(DealtPlayTest, EverySeatAddsAValuePlaysAndTheDealIsRederivedOffline) {
  const DealtCase dealt = GetParam();
  v1::Game game;
  ASSERT_TRUE(CreateDealt("dealt", dealt.type, dealt.players, &game).ok());
  EXPECT_TRUE(game.deal());
  EXPECT_FALSE(game.has_seed());
  EXPECT_EQ(game.seed_commitment().size(), 64u);
  const std::vector<std::string> tokens = SeatTokens(game, "dealt");
  std::string seen;
  std::vector<std::unique_ptr<Watcher>> feeds;
  for (const std::string& token : tokens) {
    feeds.push_back(std::make_unique<Watcher>(*stub_, token, "dealt", 0));
  }

  // Before the deal closes no action is taken, and nothing is stored.
  v1::Game now = Get("dealt");
  ASSERT_EQ(now.awaiting_seat_values_size(), dealt.players);
  EXPECT_FALSE(now.deal_closed());
  // A well-formed action (the first of a game with these seats).
  const log::GameLog shaped = Simulated(1, dealt.players, dealt.type);
  v1::Action early = shaped.actions.front();
  v1::AppendActionsResponse refused;
  const int early_seat = static_cast<int>(
      std::find_if(game.players().begin(), game.players().end(),
                   [&](const v1::Player& p) { return p.id() == early.player(); }) -
      game.players().begin());
  ASSERT_LT(early_seat, dealt.players);
  grpc::Status status = Append(tokens[static_cast<size_t>(early_seat)], "dealt", 1, {early}, "early",
                               &refused);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), HasSubstr("the deal of game \"dealt\" is still open"));
  EXPECT_THAT(status.error_message(), HasSubstr(game.players(0).id()));
  EXPECT_EQ(Get("dealt").last_event(), 1);

  std::vector<std::string> values;
  for (size_t seat = 0; seat < tokens.size(); ++seat) {
    values.push_back(absl::StrCat("value of seat ", seat + 1, " \xC3\xA9t\xC3\xA9"));
    ASSERT_TRUE(AddValue(tokens[seat], "dealt", values.back(), &now).ok());
    seen += now.SerializeAsString();
    EXPECT_EQ(now.deal_closed(), seat + 1 == tokens.size());
  }
  EXPECT_EQ(now.last_event(), dealt.players + 2);  // the values, then the closing
  EXPECT_FALSE(now.has_seed());

  PlayToTheEnd("dealt", tokens, seen);
  const std::vector<v1::Event> events = Events("dealt", tokens[0]);
  ASSERT_GE(events.size(), 3u);
  const v1::Event& finished = events[events.size() - 1];
  const v1::Event& revealed = events[events.size() - 2];
  ASSERT_TRUE(finished.has_game_finished());
  ASSERT_TRUE(revealed.has_dealer_revealed()) << revealed.type();
  const std::string& secret = revealed.dealer_revealed().secret();
  EXPECT_EQ(engine::DealerCommitment("dealt", secret), game.seed_commitment());
  EXPECT_EQ(seen.find(secret), std::string::npos) << "a player saw the secret before the end";
  EXPECT_EQ(seen.find(absl::BytesToHexString(secret)), std::string::npos);

  // Offline: the seat values and the secret from the events, the derivation
  // of docs/chance.md, and a replay of the recorded actions.
  std::vector<engine::SeatValue> from_log;
  for (const v1::Player& p : game.players()) from_log.push_back({p.id(), std::nullopt});
  v1::LogHeader header = events[0].game_created().header();
  for (const v1::Event& e : events) {
    if (!e.has_seat_value()) continue;
    for (engine::SeatValue& v : from_log) {
      if (v.player_id == e.seat_value().player()) v.value = e.seat_value().value();
    }
  }
  for (size_t seat = 0; seat < values.size(); ++seat) EXPECT_EQ(from_log[seat].value, values[seat]);
  header.set_seed(engine::DeriveDealtSeed("dealt", secret, from_log));
  absl::StatusOr<replay::Referee> referee = replay::Referee::Start(header, Rulesets());
  ASSERT_TRUE(referee.ok()) << referee.status();
  int actions = 0;
  for (const v1::Event& e : events) {
    if (!e.has_action()) continue;
    ++actions;
    auto judged = referee->Apply(e.action(), e.event());
    ASSERT_TRUE(judged.ok()) << judged.status();
    ASSERT_FALSE(judged->has_value()) << "event " << e.event() << " is illegal offline";
  }
  EXPECT_GT(actions, 10);
  EXPECT_EQ(actions, finished.game_finished().actions());
  EXPECT_TRUE(referee->state().IsTerminal());
  EXPECT_EQ(finished.game_finished().verdict(), v1::VERDICT_LEGAL);
  ASSERT_TRUE(referee->Standings().has_value());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(
      *referee->Standings(), finished.game_finished().standings()));
  const v1::VerifyGameResponse verified = Verify("dealt");
  EXPECT_TRUE(verified.intact()) << verified.problem();
  EXPECT_EQ(verified.verdict(), v1::VERDICT_LEGAL);

  for (std::unique_ptr<Watcher>& feed : feeds) {
    const Watched watched = feed->Join();
    EXPECT_TRUE(watched.status.ok()) << watched.status.error_message();
    ASSERT_EQ(watched.updates.size(), events.size());
    bool closed = false;
    for (size_t i = 0; i < watched.updates.size(); ++i) {
      const v1::GameUpdate& update = watched.updates[i];
      EXPECT_EQ(update.event().event(), static_cast<int64_t>(i + 1));
      if (update.event().has_dealer_revealed()) break;
      EXPECT_EQ(update.SerializeAsString().find(secret), std::string::npos) << "event " << i + 1;
      closed = closed || update.event().has_deal_closed();
      // Nobody acts before the closing; the closing names who acts first.
      if (!closed) {
        EXPECT_TRUE(update.players_to_act().empty()) << "event " << i + 1;
      }
      if (update.event().has_deal_closed()) {
        EXPECT_FALSE(update.players_to_act().empty());
      }
      EXPECT_EQ(update.seed_sealed(), !closed) << "event " << i + 1;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryGame, DealtPlayTest,
                         ::testing::ValuesIn(EveryGameAtEveryPlayerCount()), GameCaseName);

// Each refusal is precise and stores nothing; repeats are answered.
TEST_F(DealtGameTest, BadValuesAndClosingsAreRefusedWithNothingStored) {
  v1::Game game;
  ASSERT_TRUE(CreateDealt("d1", "atlantis", 3, &game).ok());
  const std::vector<std::string> tokens = SeatTokens(game, "d1");
  v1::Game now;
  auto events = [&] { return Get("d1").last_event(); };

  // Not a player: no value on anyone's behalf.
  grpc::Status status = AddValue(admin_, "d1", "mine", &now);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(status.error_message(), HasSubstr("only a player adds a value to a deal"));
  // A player of another game.
  ASSERT_TRUE(CreateDealt("d2", "atlantis", 3, &now).ok());
  const std::string other = MintPlayer(admin_, game.players(0).id(), {"d2"});
  EXPECT_EQ(AddValue(other, "d1", "mine", &now).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  // Malformed values name the field (text that is not UTF-8 cannot be
  // sent at all: protobuf refuses a string field holding it).
  for (const std::string& bad :
       {std::string(), std::string("tab\there"), std::string(65, 'x')}) {
    status = AddValue(tokens[0], "d1", bad, &now, "bad");
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << bad;
    EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "value");
  }
  EXPECT_EQ(events(), 1);

  ASSERT_TRUE(AddValue(tokens[0], "d1", "first", &now).ok());
  ASSERT_TRUE(AddValue(tokens[0], "d1", "first", &now).ok());  // a repeat: answered
  EXPECT_EQ(events(), 2);
  status = AddValue(tokens[0], "d1", "second", &now);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), HasSubstr("added its value to the deal of game \"d1\" at event 2"));
  EXPECT_EQ(events(), 2);

  // Only those who may write to the game close its deal.
  EXPECT_EQ(Close(tokens[1], "d1", &now).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  const std::string stranger = MakeToken(store::Role::kOrganiser, "olga", {"elsewhere"});
  EXPECT_EQ(Close(stranger, "d1", &now).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(events(), 2);
  ASSERT_TRUE(Close(admin_, "d1", &now).ok());
  EXPECT_TRUE(now.deal_closed());
  ASSERT_TRUE(Close(admin_, "d1", &now).ok());  // a repeat: answered
  EXPECT_EQ(events(), 3);
  const std::vector<v1::Event> stored = Events("d1");
  ASSERT_TRUE(stored[2].has_deal_closed());
  EXPECT_EQ(std::vector<std::string>(stored[2].deal_closed().absent().begin(),
                                     stored[2].deal_closed().absent().end()),
            (std::vector<std::string>{game.players(1).id(), game.players(2).id()}));

  status = AddValue(tokens[1], "d1", "late", &now);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), HasSubstr("is closed and takes no more values"));
  EXPECT_EQ(events(), 3);

  // Games the server does not deal take no values; dealt ones no seed.
  v1::Game seeded;
  ASSERT_TRUE(Create(admin_, Simulated(3, 3), "seeded", &seeded).ok());
  const std::string seated = MintPlayer(admin_, seeded.players(0).id(), {"seeded"});
  status = AddValue(seated, "seeded", "mine", &now);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), HasSubstr("is not dealt by the server"));
  v1::CreateGameRequest both;
  both.set_request_id("both");
  both.set_game_id("both");
  *both.mutable_game() = game;
  both.mutable_game()->set_seed(5);
  status = stub_->CreateGame(As(admin_).get(), both, &now);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "game.deal");
  v1::RevealSeedRequest reveal;
  reveal.set_game("games/d1");
  reveal.set_request_id("reveal");
  reveal.set_nonce("00112233445566778899aabbccddeeff");
  v1::RevealSeedResponse revealed;
  status = stub_->RevealSeed(As(admin_).get(), reveal, &revealed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), HasSubstr("is dealt by the server"));
  EXPECT_EQ(events(), 3);
}

// A retried creation commits to the same secret: the store keeps one per
// game, and the second answer is the first.
TEST_F(DealtGameTest, ARetriedCreationCommitsToTheSameSecret) {
  v1::Game first;
  v1::Game again;
  ASSERT_TRUE(CreateDealt("retried", "atlantis", 2, &first).ok());
  ASSERT_TRUE(CreateDealt("retried", "atlantis", 2, &again).ok());
  EXPECT_EQ(first.seed_commitment(), again.seed_commitment());
  EXPECT_EQ(Get("retried").last_event(), 1);
}

// Voiding a dealt game records its secret just before the void, and a
// retry of the void is answered.
TEST_F(DealtGameTest, VoidingADealtGameRecordsItsSecret) {
  v1::Game game;
  ASSERT_TRUE(CreateDealt("voided", "atlantica", 2, &game).ok());
  v1::Game now;
  ASSERT_TRUE(Close(admin_, "voided", &now).ok());
  v1::VoidGameRequest request;
  request.set_name("games/voided");
  request.set_request_id("void-it");
  request.set_reason("the table was disturbed");
  ASSERT_TRUE(stub_->VoidGame(As(admin_).get(), request, &now).ok());
  ASSERT_TRUE(stub_->VoidGame(As(admin_).get(), request, &now).ok());
  const std::vector<v1::Event> events = Events("voided");
  ASSERT_EQ(events.size(), 4u);
  ASSERT_TRUE(events[2].has_dealer_revealed());
  EXPECT_TRUE(events[3].has_game_voided());
  EXPECT_EQ(engine::DealerCommitment("voided", events[2].dealer_revealed().secret()),
            game.seed_commitment());
  EXPECT_TRUE(Verify("voided").intact());
}

// A superuser who rewrites the log and recomputes its chain is caught by
// VerifyGame: a forged reveal at the reveal, a changed seat value at the
// result its replay no longer gives.
TEST_F(DealtGameTest, AForgedRevealOrAChangedSeatValueIsFoundByVerifyGame) {
  for (const char* id : {"forged", "changed"}) {
    v1::Game game;
    ASSERT_TRUE(CreateDealt(id, "atlantis", 2, &game).ok());
    const std::vector<std::string> tokens = SeatTokens(game, id);
    v1::Game now;
    ASSERT_TRUE(AddValue(tokens[0], id, "ann's", &now).ok());
    ASSERT_TRUE(AddValue(tokens[1], id, "bob's", &now).ok());
    std::string seen;
    PlayToTheEnd(id, tokens, seen);
    ASSERT_TRUE(Verify(id).intact());
  }
  AsSuperuser([&](pqxx::work& txn) {
    v1::DealerRevealed forged;
    forged.set_secret(std::string(engine::kDealerSecretBytes, '\x07'));
    txn.exec_params0(
        "UPDATE events SET payload = $1 WHERE game_id = 'forged' AND type = 'dealer_revealed'",
        pqxx::binarystring(forged.SerializeAsString()));
    RecomputeChain(txn, "forged");
    v1::SeatValueAdded changed;
    changed.set_player(Get("changed").players(1).id());
    changed.set_value("mallory's");
    txn.exec_params0("UPDATE events SET payload = $1 WHERE game_id = 'changed' AND sequence = 3",
                     pqxx::binarystring(changed.SerializeAsString()));
    RecomputeChain(txn, "changed");
  });
  const v1::VerifyGameResponse forged = Verify("forged");
  EXPECT_FALSE(forged.intact());
  EXPECT_EQ(forged.first_bad_event(), Get("forged").last_event() - 1);
  EXPECT_THAT(forged.problem(),
              HasSubstr("reveals a dealer's secret that does not open the commitment of event 1"));
  const v1::VerifyGameResponse changed = Verify("changed");
  EXPECT_FALSE(changed.intact());
  EXPECT_GT(changed.first_bad_event(), 4);
  EXPECT_TRUE(absl::StrContains(changed.problem(), "cannot be replayed") ||
              absl::StrContains(changed.problem(), "but the replay of the events before it gives"))
      << changed.problem();
}

}  // namespace
}  // namespace arbiter::server::testing
