// Illegal turns: each reported with its own rule id and a sentence a
// player understands.
#include <gtest/gtest.h>

#include <limits>

#include "tests/engine/atlantica/position_builder.h"

namespace arbiter::engine::atlantica::testing {
namespace {

using v1::Atlantica;

Position Board2() {
  Position p(2);
  p.Treasures({"gold", "amphorae", "statues", "weapons", "ceramics", "architecture"})
      .TreasureStack({"gold", "gold", "gold"})
      .HurricaneStack({"hurricane"})
      .Ships(0, {1, 2}).Ships(1, {3, 4}).Ships(2, {3, 5})
      .Research({"R1", "R2", "R3", "R4"})
      .DrawPile({B, B, B, B, B, B});
  return p;
}

// The violation of `action` by seat 0, which must exist.
Violation Why(const State& state, const v1::Action& action, int seat = 0) {
  auto v = state.Check(seat, action);
  EXPECT_TRUE(v.has_value()) << action.ShortDebugString();
  return v.value_or(Violation{"legal", ""});
}

void ExpectMentions(const Violation& v, const std::string& words) {
  EXPECT_NE(v.detail.find(words), std::string::npos) << "detail: " << v.detail;
}

TEST(AtlanticaViolations, CardsThePlayerDoesNotHold) {
  auto game = Board2().Hand(0, {Y, R}).Build();
  const Violation v = Why(*game, TurnOf({Dive(2, {Y, P}, {1, 2})}));
  EXPECT_EQ(v.rule, "cards_not_held");
  ExpectMentions(v, "you hold 0 purple divers; this turn lays 1");
  EXPECT_EQ(Why(*game, TurnOf({Charter(1, {R}), Study(1, {R}, {1})})).rule, "cards_not_held");
}

TEST(AtlanticaViolations, AreasThatDoNotExist) {
  auto game = Board2().Hand(0, {G, P, W, B, R}).Build();
  const Violation v = Why(*game, TurnOf({Dive(3, {G, P, W}, {1, 2, 7})}));
  EXPECT_EQ(v.rule, "no_such_area");
  ExpectMentions(v, "the diving boat has areas 1-6; there is no area 7");
  EXPECT_EQ(Why(*game, TurnOf({Drink({B, W, R}, {{Atlantica::HARBOUR, 4}, {Atlantica::DIVING_BOAT, 1}})})).rule,
            "no_such_area");
  EXPECT_EQ(Why(*game, TurnOf({Drink({B, W, R}, {{Atlantica::RESEARCH_STATION, 5}, {Atlantica::DIVING_BOAT, 1}})})).rule,
            "no_such_area");
}

// The order of the checks (docs/atlantica.md): every place action is checked
// before the cards of the whole turn are counted against the hand.
TEST(AtlanticaCheckOrder, TheSamePlaceTwiceIsReportedBeforeCardsNotHeld) {
  auto game = Board2().Hand(0, {G}).Build();
  EXPECT_EQ(Why(*game, TurnOf({Dive(1, {G}, {1}), Dive(1, {Y}, {2})})).rule, "same_place_twice");
}

TEST(AtlanticaViolations, TheSamePlaceTwice) {
  auto game = Board2().Hand(0, {G, Y}).Build();
  const Violation v = Why(*game, TurnOf({Dive(1, {G}, {1}), Dive(1, {Y}, {2})}));
  EXPECT_EQ(v.rule, "same_place_twice");
  ExpectMentions(v, "the diving boat is visited twice this turn");
}

TEST(AtlanticaViolations, AFourthAction) {
  // Four places, four cards: too many actions before anything else.
  auto game = Board2().Hand(0, {G, R, Y, B}).Build();
  const Violation v = Why(*game, TurnOf({Dive(1, {G}, {1}), Charter(1, {R}), Hire(1, {Y}), Study(1, {B}, {1})}));
  EXPECT_EQ(v.rule, "too_many_actions");
  ExpectMentions(v, "at most 3 actions; this turn has 4");
}

TEST(AtlanticaViolations, AJokerTwice) {
  auto game = Board2().Hand(0, {R, R, W, W}).Build();
  const Violation v = Why(*game, TurnOf({WithJoker(Dive(1, {}, {1}), R), WithJoker(Hire(1, {}), W)}));
  EXPECT_EQ(v.rule, "joker_twice");
  ExpectMentions(v, "once per turn; actions 1 and 2 both use it");
}

TEST(AtlanticaViolations, AFourthCardWithoutTheJoker) {
  auto game = Board2().Hand(0, {G, P, W, R}).Build();
  const Violation v = Why(*game, TurnOf({Dive(3, {G, P, W}, {1, 2, 3}), Charter(1, {R})}));
  EXPECT_EQ(v.rule, "too_many_cards");
  ExpectMentions(v, "at most 3 diver cards");
}

TEST(AtlanticaViolations, ATurnWithNoAction) {
  auto game = Board2().Build();
  EXPECT_EQ(Why(*game, TurnOf({})).rule, "turn_without_action");
}

TEST(AtlanticaViolations, ATierThatDoesNotExist) {
  auto game = Board2().Hand(0, {G}).Build();
  EXPECT_EQ(Why(*game, TurnOf({Dive(4, {G}, {1})})).rule, "no_such_tier");
  PlaceAction nowhere = Dive(1, {G}, {1});
  nowhere.set_place(Atlantica::PLACE_UNSPECIFIED);
  EXPECT_EQ(Why(*game, TurnOf({nowhere})).rule, "no_such_place");
}

TEST(AtlanticaViolations, ADiverOfNoColour) {
  auto game = Board2().Hand(0, {G}).Build();
  EXPECT_EQ(Why(*game, TurnOf({Dive(1, {Atlantica::COLOUR_UNSPECIFIED}, {1})})).rule, "no_such_colour");
}

TEST(AtlanticaViolations, TheSameAreaTwiceInATurn) {
  auto game = Board2().Hand(0, {G, B, W, R}).Build();
  const Violation v = Why(*game, TurnOf({Drink({B, W, R}, {{Atlantica::DIVING_BOAT, 1}, {Atlantica::HARBOUR, 1}}),
                                          Dive(1, {G}, {1})}));
  EXPECT_EQ(v.rule, "area_taken_twice");
  ExpectMentions(v, "treasure area 1 is taken twice this turn");
  auto game2 = Board2().Hand(0, {G, P}).Build();
  EXPECT_EQ(Why(*game2, TurnOf({Dive(2, {G, P}, {2, 2})})).rule, "area_taken_twice");
}

TEST(AtlanticaViolations, AnEmptyTreasureArea) {
  auto game = Board2().Treasures({"gold", "", "statues", "", "", ""}).Hand(0, {G, P}).Build();
  const Violation v = Why(*game, TurnOf({Dive(2, {G, P}, {1, 2})}));
  EXPECT_EQ(v.rule, "area_empty");
  ExpectMentions(v, "treasure area 2 is empty");
}

TEST(AtlanticaViolations, TwoShipsFromAStackOfOne) {
  auto game = Board2().Ships(0, {2}).Hand(0, {R, B, W, R}).Build();
  const Violation v =
      Why(*game, TurnOf({Charter(1, {R}), Drink({B, W, R}, {{Atlantica::HARBOUR, 1}, {Atlantica::DIVING_BOAT, 1}})}));
  // 4 cards is also too many, but the empty stack is found first.
  EXPECT_EQ(v.rule, "stack_empty");
}

TEST(AtlanticaViolations, AreasGivenWhereNoneAreTaken) {
  auto game = Board2().Hand(0, {Y}).Build();
  PlaceAction hire = Hire(1, {Y});
  hire.add_areas(1);
  EXPECT_EQ(Why(*game, TurnOf({hire})).rule, "unexpected_picks");
}

TEST(AtlanticaViolations, OutOfTurnWrongGameAndEmptyAction) {
  auto game = Board2().Hand(1, {G}).Build();
  EXPECT_EQ(Why(*game, TurnOf({Dive(1, {G}, {1})}), 1).rule, "not_your_turn");
  v1::Action other;
  other.mutable_atlantis();
  EXPECT_EQ(Why(*game, other).rule, "wrong_game");
  v1::Action empty;
  empty.mutable_atlantica();
  EXPECT_EQ(Why(*game, empty).rule, "empty_action");
}

TEST(AtlanticaViolations, ExtremeNumbersAreRefusedNotMisread) {
  auto game = Board2().Hand(0, {G, P, W, B, R}).Build();
  constexpr int kMin = std::numeric_limits<int>::min();
  constexpr int kMax = std::numeric_limits<int>::max();
  EXPECT_EQ(Why(*game, TurnOf({Dive(1, {G}, {kMin})})).rule, "no_such_area");
  EXPECT_EQ(Why(*game, TurnOf({Dive(kMax, {G}, {1})})).rule, "no_such_tier");
  EXPECT_EQ(Why(*game, TurnOf({Drink({B, W, R}, {{Atlantica::HARBOUR, kMin}, {Atlantica::DIVING_BOAT, 1}})})).rule,
            "no_such_area");
  PlaceAction odd = Drink({B, W, R}, {{Atlantica::DIVING_BOAT, 1}, {Atlantica::HARBOUR, 1}});
  odd.mutable_picks(0)->set_place(static_cast<Atlantica::Place>(kMin));
  EXPECT_EQ(Why(*game, TurnOf({odd})).rule, "pick_place_invalid");
  PlaceAction strange = Dive(1, {G}, {1});
  strange.set_place(static_cast<Atlantica::Place>(kMax));
  EXPECT_EQ(Why(*game, TurnOf({strange})).rule, "no_such_place");
}

TEST(AtlanticaViolations, AnIllegalTurnLeavesTheStateUnchanged) {
  auto game = Board2().Hand(0, {Y}).Build();
  const std::string before = game->ToString();
  EXPECT_TRUE(game->Apply(0, TurnOf({Dive(1, {G}, {1})})).has_value());
  EXPECT_EQ(game->ToString(), before);
  EXPECT_EQ(game->num_actions(), 0);
}

}  // namespace
}  // namespace arbiter::engine::atlantica::testing
