// The referee: header validation, malformed versus illegal actions, verdicts.
// Uses Atlantis and its default ruleset as the example game.
#include "services/replay/referee.h"

#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/replay/replay.h"
#include "services/replay/simulate.h"

namespace arbiter::replay {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class RefereeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto registry = engine::RulesetRegistry::WithBuiltins();
    ASSERT_TRUE(registry.ok()) << registry.status();
    registry_ = *std::move(registry);
    auto log = SimulateGame({.game = "atlantis", .players = 3, .seed = 7}, registry_);
    ASSERT_TRUE(log.ok()) << log.status();
    game_ = *std::move(log);
  }

  absl::Status StartStatus(const v1::LogHeader& header) {
    return Referee::Start(header, registry_).status();
  }
  static std::string Message(const absl::Status& status) { return std::string(status.message()); }

  engine::RulesetRegistry registry_;
  log::GameLog game_;
};

TEST_F(RefereeTest, ASimulatedGameIsLegalAndFinished) {
  auto referee = Replay(game_, registry_);
  ASSERT_TRUE(referee.ok()) << referee.status();
  EXPECT_EQ(referee->verdict(), Verdict::kLegal);
  ASSERT_TRUE(referee->Standings().has_value());
  EXPECT_EQ(referee->Standings()->players(0).player(), "p1");
  EXPECT_EQ(referee->actions_applied(), static_cast<int64_t>(game_.actions.size()));
}

TEST_F(RefereeTest, AnUnknownGameIsNotFound) {
  game_.header.set_game("chess");
  const absl::Status status = StartStatus(game_.header);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Message(status), StartsWith("line 1: unknown game 'chess'; known games: atlantis"));
}

TEST_F(RefereeTest, AnUnknownRulesetHashIsNotFoundAndListsTheKnownOnes) {
  game_.header.set_ruleset_hash(std::string(64, 'a'));
  const absl::Status status = StartStatus(game_.header);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Message(status), HasSubstr("no ruleset with hash aaaa"));
  EXPECT_THAT(Message(status), HasSubstr("atlantis-amigo-2009"));
}

TEST_F(RefereeTest, AMalformedHashIsInvalid) {
  game_.header.set_ruleset_hash("not-a-hash");
  const absl::Status status = StartStatus(game_.header);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(status), StartsWith("line 1: "));
  EXPECT_THAT(Message(status),
              HasSubstr("ruleset_hash 'not-a-hash' is not a SHA-256 in lowercase hex (64 digits)"));
}

TEST_F(RefereeTest, ARulesetIdThatDoesNotMatchItsHashIsInvalid) {
  game_.header.set_ruleset_id("atlantis-other");
  const absl::Status status = StartStatus(game_.header);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(status), HasSubstr("belongs to ruleset 'atlantis-amigo-2009'"));
}

TEST_F(RefereeTest, AMissingRulesetNamesTheDefault) {
  game_.header.clear_ruleset_hash();
  const absl::Status status = StartStatus(game_.header);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(status), HasSubstr("the default ruleset is atlantis-amigo-2009"));
}

TEST_F(RefereeTest, AWrongPlayerCountIsInvalid) {
  v1::LogHeader header = game_.header;
  header.mutable_players()->DeleteSubrange(1, 2);
  EXPECT_EQ(Message(StartStatus(header)), "line 1: atlantis is for 2-4 players; the header lists 1");
  header = game_.header;
  for (int i = 4; i <= 5; ++i) header.add_players()->set_id("extra" + std::to_string(i));
  EXPECT_EQ(StartStatus(header).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(RefereeTest, PlayerIdsMustBeUniqueAndWellFormed) {
  v1::LogHeader header = game_.header;
  header.mutable_players(2)->set_id("p1");
  EXPECT_EQ(Message(StartStatus(header)), "line 1: player id 'p1' appears twice");
  header = game_.header;
  header.mutable_players(1)->set_id("bad id!");
  EXPECT_THAT(Message(StartStatus(header)), StartsWith("line 1: players[1].id 'bad id!' must be"));
  header.mutable_players(1)->set_id(std::string(65, 'x'));
  EXPECT_EQ(StartStatus(header).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(RefereeTest, AnUnknownOptionIsInvalid) {
  (*game_.header.mutable_options())["house_rule"] = "yes";
  const absl::Status status = StartStatus(game_.header);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(status), HasSubstr("house_rule"));
}

TEST_F(RefereeTest, AnActionByAnUnknownPlayerIsMalformedAndNamesTheLine) {
  game_.actions[3].set_player("zed");
  auto referee = Replay(game_, registry_);
  EXPECT_EQ(referee.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Message(referee.status()), "line 5: unknown player 'zed'; the players are p1, p2, p3");
}

TEST_F(RefereeTest, AnActionOfAnotherGameIsMalformed) {
  game_.actions[0].mutable_atlantica();
  auto referee = Replay(game_, registry_);
  EXPECT_EQ(referee.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Message(referee.status()), "line 2: the action is for atlantica, but this game is atlantis");
}

TEST_F(RefereeTest, AnEmptyActionIsMalformed) {
  game_.actions[0].clear_atlantis();
  auto referee = Replay(game_, registry_);
  EXPECT_EQ(referee.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(Message(referee.status()), StartsWith("line 2:"));
}

TEST_F(RefereeTest, AnActionOutOfTurnIsIllegalAndStopsTheReplay) {
  game_.actions[0].set_player("p2");
  auto referee = Replay(game_, registry_);
  ASSERT_TRUE(referee.ok()) << referee.status();
  EXPECT_EQ(referee->verdict(), Verdict::kIllegal);
  ASSERT_TRUE(referee->violation().has_value());
  EXPECT_EQ(referee->violation()->event, 2);
  EXPECT_EQ(referee->violation()->player, "p2");
  EXPECT_EQ(referee->violation()->violation.rule, "not_your_turn");
  EXPECT_EQ(referee->actions_applied(), 0);
  EXPECT_FALSE(referee->Standings().has_value());
  const v1::ReplayReport report = MakeReport(*referee);
  EXPECT_EQ(report.verdict(), "illegal");
  EXPECT_EQ(report.violation().event(), 2);
  // The offending action in words, as the engine says it before it.
  auto fresh = Referee::Start(game_.header, registry_);
  ASSERT_TRUE(fresh.ok()) << fresh.status();
  EXPECT_THAT(referee->violation()->action_text, StartsWith("Player 2 (p2) "));
  EXPECT_EQ(referee->violation()->action_text, fresh->state().Label(1, game_.actions[0]));
  EXPECT_EQ(report.violation().action_text(), referee->violation()->action_text);
}

TEST_F(RefereeTest, AnActionIsSaidInWordsForThePositionBeforeItOrNotAtAllWhenMalformed) {
  auto referee = Referee::Start(game_.header, registry_);
  ASSERT_TRUE(referee.ok()) << referee.status();
  EXPECT_EQ(referee->Label(game_.actions[0]), referee->state().Label(0, game_.actions[0]));
  EXPECT_THAT(referee->Label(game_.actions[0]), StartsWith("Player 1 (p1) "));
  v1::Action stranger = game_.actions[0];
  stranger.set_player("zed");
  EXPECT_EQ(referee->Label(stranger), "");
  v1::Action other_game = game_.actions[0];
  other_game.mutable_atlantica();
  EXPECT_EQ(referee->Label(other_game), "");
}

TEST_F(RefereeTest, ALogThatStopsEarlyIsUnfinished) {
  game_.actions.resize(game_.actions.size() / 2);
  auto referee = Replay(game_, registry_);
  ASSERT_TRUE(referee.ok());
  EXPECT_EQ(referee->verdict(), Verdict::kUnfinished);
  EXPECT_FALSE(referee->Standings().has_value());
  EXPECT_EQ(MakeReport(*referee).verdict(), "unfinished");
}

TEST_F(RefereeTest, AnActionAfterTheEndIsIllegal) {
  game_.actions.push_back(game_.actions.back());
  auto referee = Replay(game_, registry_);
  ASSERT_TRUE(referee.ok());
  EXPECT_EQ(referee->verdict(), Verdict::kIllegal);
  EXPECT_EQ(referee->violation()->violation.rule, "game_over");
  EXPECT_EQ(referee->violation()->event, log::LineOfAction(game_.actions.size() - 1));
}

TEST_F(RefereeTest, NoActionIsJudgedAfterAViolation) {
  auto referee = Referee::Start(game_.header, registry_);
  ASSERT_TRUE(referee.ok());
  v1::Action wrong = game_.actions[0];
  wrong.set_player("p3");
  ASSERT_TRUE(referee->Apply(wrong, 2).ok());
  EXPECT_EQ(referee->Apply(game_.actions[0], 3).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(RefereeTest, StoppingAfterALineGivesTheStateThere) {
  auto referee = Replay(game_, registry_, {.stop_after_line = 4});
  ASSERT_TRUE(referee.ok());
  EXPECT_EQ(referee->actions_applied(), 3);
}

TEST_F(RefereeTest, ACorrectedRulesetIsRegisteredAsDataAndChangesTheGame) {
  const engine::RegisteredRuleset* original = registry_.DefaultFor("atlantis");
  ASSERT_NE(original, nullptr);
  // A print run with fewer cards per item, under its own id.
  const std::string corrected = absl::StrReplaceAll(
      original->text, {{"id: \"atlantis-amigo-2009\"", "id: \"atlantis-corrected\""},
                       {"cards_per_item: 15", "cards_per_item: 9"}});
  ASSERT_NE(corrected.find("cards_per_item: 9"), std::string::npos);
  auto registered = registry_.Register(corrected);
  ASSERT_TRUE(registered.ok()) << registered.status();
  EXPECT_NE((*registered)->hash, original->hash);
  auto log = SimulateGame({.game = "atlantis", .players = 3, .seed = 7, .ruleset_id = "atlantis-corrected"},
                          registry_);
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->header.ruleset_hash(), (*registered)->hash);
  auto referee = Replay(*log, registry_);
  ASSERT_TRUE(referee.ok());
  EXPECT_EQ(referee->verdict(), Verdict::kLegal);
  // The same header (seed, players) under the original ruleset deals another
  // game: the ruleset's hash, not only its id, decides the position.
  v1::LogHeader under_original = log->header;
  under_original.set_ruleset_id(original->ruleset.id());
  under_original.set_ruleset_hash(original->hash);
  auto corrected_start = Referee::Start(log->header, registry_);
  auto original_start = Referee::Start(under_original, registry_);
  ASSERT_TRUE(corrected_start.ok() && original_start.ok());
  EXPECT_NE(corrected_start->state().ToString(), original_start->state().ToString());
  // And the same actions under the original ruleset are not the same legal game.
  log::GameLog same_actions = *log;
  same_actions.header = under_original;
  auto replayed = Replay(same_actions, registry_);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_TRUE(replayed->verdict() != Verdict::kLegal ||
              replayed->state().ToString() != referee->state().ToString());
}

}  // namespace
}  // namespace arbiter::replay
