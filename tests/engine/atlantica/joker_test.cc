// The joker: two cards of one colour for a slot whose colours the player
// does not hold; once per turn; the turn may then lay four cards.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/engine/atlantica/position_builder.h"

namespace arbiter::engine::atlantica::testing {
namespace {

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

TEST(AtlanticaJoker, TwoWhitesMayStandInForAMissingPurple) {
  auto game = Board2().Hand(0, {G, W, W}).Build();
  EXPECT_EQ(game->Apply(0, TurnOf({WithJoker(Dive(2, {G}, {1, 2}), W)})), std::nullopt);
  EXPECT_EQ(Held(*game, 0, W), 0);
  EXPECT_EQ(game->board().discard[ColourIndex(W)], 2);
}

TEST(AtlanticaJoker, IsNotAllowedWhileTheMissingColourIsHeld) {
  auto game = Board2().Hand(0, {G, P, W, W}).Build();
  const auto v = game->Check(0, TurnOf({WithJoker(Dive(2, {G}, {1, 2}), W)}));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->rule, "joker_not_allowed");
  EXPECT_NE(v->detail.find("purple"), std::string::npos) << v->detail;
}

TEST(AtlanticaJoker, IsJudgedAfterTheTurnsOtherCardsAreLaid) {
  // The only purple goes to the pub, so the diving boat's purple slot may
  // take the joker: 1 + 1 + 2 = 4 cards.
  auto game = Board2().Hand(0, {Y, P, W, W}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({WithJoker(Dive(2, {Y}, {1, 2}), W), Hire(1, {P})})), "legal");
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Hire(1, {P}), WithJoker(Dive(2, {Y}, {1, 2}), W)})), "legal");
}

TEST(AtlanticaJoker, MustBeTwoCardsOfOneColour) {
  auto game = Board2().Hand(0, {G, W, R}).Build();
  PlaceAction mixed = Dive(2, {G}, {1, 2});
  mixed.add_joker(W);
  mixed.add_joker(R);
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({mixed})), "joker_pair_mixed");
  PlaceAction single = Dive(2, {G}, {1, 2});
  single.add_joker(W);
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({single})), "joker_pair_size");
}

TEST(AtlanticaJoker, MayBeUsedOncePerTurn) {
  auto game = Board2().Hand(0, {R, R, W, W}).Build();
  // Neither green nor yellow (diving boat) nor blue, purple or yellow (pub).
  const auto v = game->Check(0, TurnOf({WithJoker(Dive(1, {}, {1}), R), WithJoker(Hire(1, {}), W)}));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->rule, "joker_twice");
}

TEST(AtlanticaJoker, FillsATierOneSlotAlone) {
  auto game = Board2().Hand(0, {R, R}).Build();
  EXPECT_EQ(game->Apply(0, TurnOf({WithJoker(Dive(1, {}, {1}), R)})), std::nullopt);
  EXPECT_EQ(game->board().players[0].treasures[KindOf("gold")], 1);
}

TEST(AtlanticaJoker, RaisesTheLimitToFourCardsButNoMore) {
  auto game = Board2().Hand(0, {G, W, W, W, R, R}).Build();
  // Tier 3 of the diving boat with the joker for purple: 2 + 2 = 4 cards.
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({WithJoker(Dive(3, {G, W}, {1, 2, 3}), R)})), "legal");
  // One more card at the harbour makes five.
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({WithJoker(Dive(3, {G, W}, {1, 2, 3}), R), Charter(1, {W})})),
            "too_many_cards");
}

TEST(AtlanticaJoker, PairMustBeHeld) {
  auto game = Board2().Hand(0, {G, W}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({WithJoker(Dive(2, {G}, {1, 2}), W)})), "cards_not_held");
}

TEST(AtlanticaJoker, AppearsInTheLegalActionsOnlyWhenAllowed) {
  auto allowed = Board2().Hand(0, {G, W, W}).Build();
  auto held = Board2().Hand(0, {G, W, W, P}).Build();
  auto count_jokers = [](const AtlanticaState& s) {
    int n = 0;
    for (const Move& m : s.LegalActions()) {
      for (const auto& a : m.action.atlantica().turn().actions()) n += a.joker_size() > 0;
    }
    return n;
  };
  EXPECT_GT(count_jokers(*allowed), 0);
  // With a purple in hand, the purple slot takes the joker only in turns
  // that lay that purple elsewhere (at the pub).
  const auto listed = [&](const v1::Action& turn) {
    const auto moves = held->LegalActions();
    return std::any_of(moves.begin(), moves.end(), [&](const Move& m) {
      return m.action.SerializeAsString() == turn.SerializeAsString();
    });
  };
  EXPECT_FALSE(listed(TurnOf({WithJoker(Dive(2, {G}, {1, 2}), W)})));
  EXPECT_TRUE(listed(TurnOf({WithJoker(Dive(2, {G}, {1, 2}), W), Hire(1, {P})})));
}

}  // namespace
}  // namespace arbiter::engine::atlantica::testing
