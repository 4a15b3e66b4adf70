// The rule ids that the games' documents mark "verdict: no" (docs/atlantis.md,
// docs/atlantica.md, docs/atlantis-rising.md, "The ids"): the engine has them,
// but the referee refuses an action that would break one as malformed
// (InvalidArgument, `arbiter replay` exit 2) before the engine judges it, so
// none can appear in a verdict. Each case is named by its rule id;
// tests/engine/rule_id_tables_test.py checks that every id the documents mark
// "no" has a case here.
#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/replay/referee.h"
#include "services/replay/simulate.h"

namespace arbiter::replay {
namespace {

using ::testing::HasSubstr;

struct NeverAVerdict {
  std::string game;
  std::string rule;                       // the id the action would break if the engine judged it
  std::string refusal;                    // part of the malformed-line message: the field refused
  std::function<void(v1::Action&)> make;  // fills an action by p1, the first to act
};

std::vector<NeverAVerdict> Cases() {
  using v1::Atlantica;
  using v1::Atlantis;
  return {
      {"atlantis", "wrong_game", "the action is for atlantica",
       [](v1::Action& a) { a.mutable_atlantica()->mutable_draw_breath(); }},
      {"atlantis", "empty_action", "atlantis.kind", [](v1::Action& a) { a.mutable_atlantis(); }},
      {"atlantis", "unknown_figure", "atlantis.move.figure",
       [](v1::Action& a) {
         auto* move = a.mutable_atlantis()->mutable_move();
         move->set_figure(4);
         move->add_cards(Atlantis::RING);
       }},
      {"atlantis", "unknown_item", "atlantis.move.cards[0]",
       [](v1::Action& a) {
         auto* move = a.mutable_atlantis()->mutable_move();
         move->set_figure(1);
         move->add_cards(Atlantis::ITEM_UNSPECIFIED);
       }},
      {"atlantica", "wrong_game", "the action is for atlantis",
       [](v1::Action& a) { a.mutable_atlantis()->mutable_pass(); }},
      {"atlantica", "empty_action", "neither `turn` nor `draw_breath`", [](v1::Action& a) { a.mutable_atlantica(); }},
      {"atlantica", "no_such_place", "atlantica.turn.actions[0].place",
       [](v1::Action& a) { a.mutable_atlantica()->mutable_turn()->add_actions()->set_tier(1); }},
      {"atlantica", "no_such_tier", "atlantica.turn.actions[0].tier",
       [](v1::Action& a) {
         auto* place = a.mutable_atlantica()->mutable_turn()->add_actions();
         place->set_place(Atlantica::DIVING_BOAT);
         place->set_tier(9);
       }},
      {"atlantica", "no_such_colour", "atlantica.turn.actions[0].divers",
       [](v1::Action& a) {
         auto* place = a.mutable_atlantica()->mutable_turn()->add_actions();
         place->set_place(Atlantica::DIVING_BOAT);
         place->set_tier(1);
         place->add_divers(Atlantica::COLOUR_UNSPECIFIED);
         place->add_areas(1);
       }},
      {"atlantis-rising", "not_your_turn", "unknown player 'zed'",
       [](v1::Action& a) {
         a.set_player("zed");
         a.mutable_atlantis_rising()->mutable_finish_placement();
       }},
      {"atlantis-rising", "wrong_game", "the action is for atlantis",
       [](v1::Action& a) { a.mutable_atlantis()->mutable_pass(); }},
      {"atlantis-rising", "empty_action", "atlantis_rising", [](v1::Action& a) { a.mutable_atlantis_rising(); }},
      {"atlantis-rising", "no_spot", "atlantis_rising.place",
       [](v1::Action& a) { a.mutable_atlantis_rising()->mutable_place(); }},
      {"atlantis-rising", "malformed_action", "atlantis_rising.flood.peninsula",
       [](v1::Action& a) {
         a.mutable_atlantis_rising()->mutable_flood()->set_peninsula(v1::AtlantisRising::PENINSULA_UNSPECIFIED);
       }},
  };
}

TEST(NeverAVerdictTest, EveryIdTheDocumentsMarkNoIsRefusedAsMalformedBeforeTheEngineJudges) {
  auto registry = engine::RulesetRegistry::WithBuiltins();
  ASSERT_TRUE(registry.ok()) << registry.status();
  for (const NeverAVerdict& c : Cases()) {
    SCOPED_TRACE(c.game + " " + c.rule);
    auto log = SimulateGame({.game = c.game, .players = 2, .seed = 11}, *registry);
    ASSERT_TRUE(log.ok()) << log.status();
    auto referee = Referee::Start(log->header, *registry);
    ASSERT_TRUE(referee.ok()) << referee.status();
    v1::Action action;
    action.set_player("p1");
    c.make(action);
    auto judged = referee->Apply(action, 2);
    EXPECT_EQ(judged.status().code(), absl::StatusCode::kInvalidArgument)
        << (judged.ok() && judged->has_value() ? "judged: " + (*judged)->rule : judged.status().ToString());
    EXPECT_THAT(std::string(judged.status().message()), HasSubstr(c.refusal));
    EXPECT_EQ(referee->verdict(), Verdict::kUnfinished);
  }
}

// The same harness tells a verdict from a malformed line: an action that is
// well formed but breaks a rule is judged, with the engine's rule id.
TEST(NeverAVerdictTest, AWellFormedActionOutOfTurnIsJudged) {
  auto registry = engine::RulesetRegistry::WithBuiltins();
  ASSERT_TRUE(registry.ok()) << registry.status();
  auto log = SimulateGame({.game = "atlantica", .players = 2, .seed = 11}, *registry);
  ASSERT_TRUE(log.ok()) << log.status();
  auto referee = Referee::Start(log->header, *registry);
  ASSERT_TRUE(referee.ok()) << referee.status();
  v1::Action action;
  action.set_player("p2");
  action.mutable_atlantica()->mutable_draw_breath();
  auto judged = referee->Apply(action, 2);
  ASSERT_TRUE(judged.ok()) << judged.status();
  ASSERT_TRUE(judged->has_value());
  EXPECT_EQ((*judged)->rule, "not_your_turn");
}

}  // namespace
}  // namespace arbiter::replay
