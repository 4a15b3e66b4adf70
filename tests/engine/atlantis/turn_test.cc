// The shape of a turn: buying, passing, whose turn it is, malformed moves,
// drawing and reshuffling, the legal-action list and canonical spellings.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/engine/atlantis/atlantis_test_util.h"

namespace arbiter::engine::atlantis::testing {
namespace {

uint8_t T(std::string_view tile) { return TileCode(ItemOfLetter(tile[0]), tile[1] - '0'); }

std::vector<std::string> Listed(const State& s) {
  std::vector<std::string> out;
  for (const Move& m : s.LegalActions()) out.push_back(m.action.ShortDebugString());
  return out;
}

bool IsListed(const State& s, const v1::Action& a) {
  const std::vector<std::string> listed = Listed(s);
  return std::find(listed.begin(), listed.end(), a.ShortDebugString()) != listed.end();
}

// 001_412b213e84fff6ab.txt, "Nákup karet": "za 7bodovou destičku hráč dostane
// 3 karty"; 003_4cb24d7ca1c7eb6e.txt, "Acquistare carte": "se, ad esempio,
// scarta una tessera di valore 5, pesca due carte".
TEST(AtlantisBuy, AGivenUpTileBuysHalfItsValueInCards) {
  auto s = PositionBuilder(2).Path("F3 O2").Hand(0, "").Tiles(0, "C7 A1").Deck("RRRRR").Build();
  ASSERT_EQ(ApplyRule(*s, 0, BuyAction("C7")), "");
  EXPECT_EQ(s->board().players[0].card_count, 3);
  EXPECT_EQ(s->board().players[0].TileCount(T("C7")), 0);
  EXPECT_EQ(s->discard_size(), 0) << "a bought tile leaves the game";
  EXPECT_EQ(s->board().current, 0) << "buying does not end the turn";
  auto five = PositionBuilder(2).Path("F3 O2").Tiles(0, "A5").Deck("RRRRR").Build();
  ASSERT_EQ(ApplyRule(*five, 0, BuyAction("A5")), "");
  EXPECT_EQ(five->board().players[0].card_count, 2);
}

TEST(AtlantisBuy, OnlyOnceAndOnlyFirst) {
  auto s = PositionBuilder(2).Path("F3 . O2").Hand(0, "F").Tiles(0, "C7 A4").Deck("RRRRR").Build();
  ASSERT_EQ(ApplyRule(*s, 0, BuyAction("C7")), "");
  EXPECT_EQ(ApplyRule(*s, 0, BuyAction("A4")), "buy_not_first");
  auto t = PositionBuilder(2).Path("F3 . O2").Hand(0, "F").Tiles(0, "C7").Build();
  ASSERT_EQ(ApplyRule(*t, 0, BridgeAction(2)), "");
  EXPECT_EQ(ApplyRule(*t, 0, BuyAction("C7")), "buy_not_first");
  EXPECT_EQ(ApplyRule(*t, 0, BuyAction("C6")), "buy_not_first");
  auto u = PositionBuilder(2).Path("F3 O2").Tiles(0, "C7").Build();
  EXPECT_EQ(ApplyRule(*u, 0, BuyAction("C6")), "buy_tile_not_held");
}

TEST(AtlantisPass, PassingIsRefusedWhileAFigureCanMove) {
  auto s = PositionBuilder(2).Path("F3 O2").Hand(0, "O").Build();
  EXPECT_EQ(ApplyRule(*s, 0, PassAction()), "pass_not_allowed");
}

TEST(AtlantisPass, WithoutCardsThePlayerPassesAndDrawsTwo) {
  auto s = PositionBuilder(2).Path("F3 O2").Hand(0, "").Deck("RSC").Build();
  EXPECT_EQ(Listed(*s), std::vector<std::string>{PassAction().ShortDebugString()});
  ASSERT_EQ(ApplyRule(*s, 0, PassAction()), "");
  EXPECT_EQ(s->board().players[0].card_count, 2);
  EXPECT_EQ(s->board().current, 1);
}

TEST(AtlantisPass, AnUnpayableTollAllowsPassing) {
  auto s = PositionBuilder(2).Path("F3 . O5 S1").Figure(0, 1, 1).Figure(0, 2, 1).Figure(0, 3, 1)
               .Hand(0, "O").Bridges(0, 0).Deck("RR").Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "O")), "toll_not_covered");
  EXPECT_EQ(ApplyRule(*s, 0, PassAction()), "");
}

TEST(AtlantisPass, TheBridgeStillHeldCountsAsAWayToMove) {
  auto s = PositionBuilder(2).Path("F3 . O5 S1").Figure(0, 1, 1).Figure(0, 2, 1).Figure(0, 3, 1)
               .Hand(0, "O").Build();
  EXPECT_EQ(ApplyRule(*s, 0, PassAction()), "pass_not_allowed");
  EXPECT_FALSE(IsListed(*s, PassAction()));
  ASSERT_EQ(ApplyRule(*s, 0, BridgeAction(2)), "");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "O")), "");
}

TEST(AtlantisPass, BuyingFirstThenPassing) {
  auto s = PositionBuilder(2).Path("F3 . O5 S1").Figure(0, 1, 1).Figure(0, 2, 1).Figure(0, 3, 1)
               .Hand(0, "").Tiles(0, "A2").Bridges(0, 0).Deck("CCCC").Build();
  ASSERT_EQ(ApplyRule(*s, 0, BuyAction("A2")), "");
  ASSERT_EQ(ApplyRule(*s, 0, PassAction()), "");
  EXPECT_EQ(s->board().players[0].card_count, 3);
}

TEST(AtlantisTurn, RefusalsNameTheirRule) {
  auto s = PositionBuilder(2).Path("F3 O2").Figure(0, 2, kMainland).Hand(0, "F").Build();
  EXPECT_EQ(ApplyRule(*s, 1, MoveAction(1, "F")), kRuleNotYourTurn);
  EXPECT_EQ(ApplyRule(*s, 0, v1::Action()), kRuleWrongGame);
  v1::Action empty;
  empty.mutable_atlantis();
  EXPECT_EQ(ApplyRule(*s, 0, empty), kRuleEmptyAction);
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(4, "F")), "unknown_figure");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(0, "F")), "unknown_figure");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(2, "F")), "figure_on_mainland");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "")), "no_card_played");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "O")), "card_not_in_hand");
  v1::Action bad = MoveAction(1, "F");
  bad.mutable_atlantis()->mutable_move()->set_cards(0, static_cast<v1::Atlantis::Item>(42));
  EXPECT_EQ(ApplyRule(*s, 0, bad), "unknown_item");
  EXPECT_EQ(s->num_actions(), 0);
}

TEST(AtlantisTurn, AnEmptyDrawPileIsRefilledFromTheDiscards) {
  auto s = PositionBuilder(2).Path("F3 O2 H4").Hand(0, "FO").Discard("CC").Build();
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "O")), "");
  EXPECT_EQ(s->board().players[0].card_count, 2);
  EXPECT_EQ(s->deck_size() + s->discard_size(), 2) << "three discards, one drawn";
}

TEST(AtlantisTurn, WithBothPilesEmptyADrawGetsWhatThereIs) {
  auto s = PositionBuilder(2).Path("F3 O2 H4").Hand(0, "").Build();
  ASSERT_EQ(ApplyRule(*s, 0, PassAction()), "");
  EXPECT_EQ(s->board().players[0].card_count, 0);
}

TEST(AtlantisTurn, AFullRoundOfPassesWithNothingToDrawIsAStalemate) {
  auto s = PositionBuilder(2).Path("F3 O2 H4").Hand(0, "").Hand(1, "").Build();
  ASSERT_EQ(ApplyRule(*s, 0, PassAction()), "");
  EXPECT_FALSE(s->IsTerminal());
  ASSERT_EQ(ApplyRule(*s, 1, PassAction()), "");
  EXPECT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->board().finisher, -1);
  ASSERT_TRUE(s->Final().has_value());
}

// The stalemate count (docs/atlantis.md, "Stalemate", assumed) counts only
// passes that draw nothing, and starts again after a Bridge or a Move: each
// test below would end the game one pass early otherwise. (A pass that draws
// cannot follow a counted pass: only a Move puts cards back into the piles,
// and the Move resets the count already.)
TEST(AtlantisTurn, APassThatDrawsACardDoesNotCountTowardsAStalemate) {
  auto s = PositionBuilder(2).Path("F3 O2 H4").Hand(0, "").Hand(1, "").Deck("R").Build();
  ASSERT_EQ(ApplyRule(*s, 0, PassAction()), "");
  ASSERT_EQ(s->board().players[0].card_count, 1) << "the last card is drawn";
  ASSERT_EQ(ApplyRule(*s, 1, PassAction()), "");
  EXPECT_FALSE(s->IsTerminal()) << "seat 0's pass drew a card, so only one pass counts";
  EXPECT_EQ(s->SeatsToAct(), std::vector<Seat>{0});
}

TEST(AtlantisTurn, ABridgeBetweenPassesStartsTheStalemateCountAgain) {
  auto s = PositionBuilder(2).Path("F3 . O2").Hand(0, "").Hand(1, "").Build();
  ASSERT_EQ(ApplyRule(*s, 0, PassAction()), "");
  ASSERT_EQ(ApplyRule(*s, 1, BridgeAction(2)), "");
  ASSERT_EQ(ApplyRule(*s, 1, PassAction()), "");
  EXPECT_FALSE(s->IsTerminal()) << "the bridge changed the path";
  ASSERT_EQ(ApplyRule(*s, 0, PassAction()), "");
  EXPECT_TRUE(s->IsTerminal());
}

TEST(AtlantisTurn, AMoveBetweenPassesStartsTheStalemateCountAgain) {
  auto s = PositionBuilder(2).Path("F3 O2 H4").Hand(0, "").Hand(1, "F").Build();
  ASSERT_EQ(ApplyRule(*s, 0, PassAction()), "");
  ASSERT_EQ(ApplyRule(*s, 1, MoveAction(1, "F")), "");
  ASSERT_EQ(ApplyRule(*s, 0, PassAction()), "");
  EXPECT_FALSE(s->IsTerminal()) << "the move came between the passes";
  EXPECT_EQ(s->SeatsToAct(), std::vector<Seat>{1});
}

TEST(AtlantisLegalActions, OneBuyPerDistinctTileAndOneBridgePerGap) {
  auto s = PositionBuilder(2).Path("F3 . . O2 . H4").Hand(0, "").Tiles(0, "C7 C7 A7").Build();
  const std::vector<std::string> listed = Listed(*s);
  EXPECT_EQ(listed, (std::vector<std::string>{
                        BuyAction("A7").ShortDebugString(), BuyAction("C7").ShortDebugString(),
                        BridgeAction(2).ShortDebugString(), BridgeAction(5).ShortDebugString(),
                        PassAction().ShortDebugString()}));
  EXPECT_EQ(s->Canonical(0, BridgeAction(3)).ShortDebugString(), BridgeAction(2).ShortDebugString());
}

TEST(AtlantisLegalActions, FiguresOnOnePositionAreListedOnce) {
  auto s = PositionBuilder(2).Path("F3 O2 H4").Hand(0, "F").Build();
  const std::vector<std::string> listed = Listed(*s);
  EXPECT_EQ(listed, std::vector<std::string>{MoveAction(1, "F").ShortDebugString()});
  EXPECT_EQ(s->Check(0, MoveAction(3, "F")), std::nullopt);
  EXPECT_EQ(s->Canonical(0, MoveAction(3, "F")).ShortDebugString(), MoveAction(1, "F").ShortDebugString());
}

TEST(AtlantisLegalActions, OnePaymentPerValuesAndCardCount) {
  // Toll 3; tiles of values 2, 1, 1 (two items for the 1) and cards O, S.
  auto s = PositionBuilder(2).Path("C7 . S3 R2").Figure(1, 1, 1).Hand(0, "SOS")
               .Tiles(0, "A2 H1 F1").Bridges(0, 0).Build();
  std::vector<std::string> moves;
  for (const Move& m : s->LegalActions()) {
    if (m.action.atlantis().has_move() && m.action.atlantis().move().cards(0) == v1::Atlantis::STATUE) {
      moves.push_back(m.action.ShortDebugString());
    }
  }
  // Cards after the movement card: O, S. Payments: A2+H1? (values {2,1}),
  // {1,1}+1 card, {2}+1 card, {1}+2 cards; {2,1,1} overpays; 3 cards are not held.
  const std::vector<std::string> expected = {
      MoveAction(1, "S", "A2", "O").ShortDebugString(),
      MoveAction(1, "S", "F1", "OS").ShortDebugString(),
      MoveAction(1, "S", "F1 H1", "O").ShortDebugString(),
      MoveAction(1, "S", "A2 F1").ShortDebugString(),
  };
  std::vector<std::string> sorted_moves = moves;
  std::vector<std::string> sorted_expected = expected;
  std::sort(sorted_moves.begin(), sorted_moves.end());
  std::sort(sorted_expected.begin(), sorted_expected.end());
  EXPECT_EQ(sorted_moves, sorted_expected);
  // Another spelling of the same outcome maps onto the listed one.
  EXPECT_EQ(s->Check(0, MoveAction(1, "S", "H1", "SO")), std::nullopt);
  EXPECT_EQ(s->Canonical(0, MoveAction(1, "S", "H1", "SO")).ShortDebugString(),
            MoveAction(1, "S", "F1", "OS").ShortDebugString());
  EXPECT_EQ(s->Canonical(0, MoveAction(1, "S", "A2 H1")).ShortDebugString(),
            MoveAction(1, "S", "A2 F1").ShortDebugString());
}

TEST(AtlantisRender, ThePictureShowsThePathAndTheHands) {
  auto s = PositionBuilder(2).Path("F3 . O2/H4 ~ R1").Figure(1, 1, 3).Hand(0, "FF").Tiles(1, "C7").Build();
  const std::string text = s->ToString();
  EXPECT_NE(text.find("FLAG 3"), std::string::npos) << text;
  EXPECT_NE(text.find("HELMET 4 (stack of 2)  [2.1]"), std::string::npos) << text;
  EXPECT_NE(text.find("water ~~ (bridge)"), std::string::npos) << text;
  EXPECT_NE(text.find("Seat 1 (to act): cards FLAG x2"), std::string::npos) << text;
  EXPECT_NE(text.find("CROWN 7 (7 points)"), std::string::npos) << text;
}

}  // namespace
}  // namespace arbiter::engine::atlantis::testing
