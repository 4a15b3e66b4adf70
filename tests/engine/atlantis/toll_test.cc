// Water gaps, tolls, payments and bridges, and the rulebook's Example 2.
#include <gtest/gtest.h>

#include "tests/engine/atlantis/atlantis_test_util.h"

namespace arbiter::engine::atlantis::testing {
namespace {

uint8_t T(std::string_view tile) { return TileCode(ItemOfLetter(tile[0]), tile[1] - '0'); }

TEST(AtlantisToll, AGapCostsTheLowerOfItsSidesHoweverLong) {
  auto s = PositionBuilder(2).Path("C7 . . . S5 R2").Build();
  const Path& path = s->board().path;
  EXPECT_EQ(path.TollBetween(1, 5).total, 5);
  EXPECT_EQ(path.TollBetween(0, path.mainland()).total, 5);
  EXPECT_EQ(path.TollBetween(5, path.mainland()).total, 0);
}

TEST(AtlantisToll, TollsOfSeveralGapsAddUp) {
  auto s = PositionBuilder(2).Path("H1 . F5 . A4 . S3 R2").Hand(0, "R").Tiles(0, "C7 F1").Build();
  EXPECT_EQ(s->board().path.TollBetween(1, 8).total, 1 + 4 + 3);
  auto cheap = s->Clone();
  EXPECT_EQ(ApplyRule(*cheap, 0, MoveAction(1, "R", "C7")), "toll_not_covered");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "R", "C7 F1")), "");
}

TEST(AtlantisToll, EndsOfThePathAreNotGaps) {
  auto s = PositionBuilder(2).Path(". . F3 O2 .").Build();
  const Path& path = s->board().path;
  EXPECT_EQ(path.first(), 3);
  EXPECT_EQ(path.last(), 4);
  EXPECT_EQ(path.TollBetween(0, path.mainland()).total, 0);
}

TEST(AtlantisToll, PaymentMayMixTilesAndCards) {
  auto s = PositionBuilder(2).Path("C7 . S5 R2").Figure(1, 1, 1).Hand(0, "SOO").Tiles(0, "F3").Deck("F").Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "F3", "OO")), "");
  EXPECT_EQ(s->board().players[0].tile_count, 0) << "paid tiles leave the game";
  EXPECT_EQ(s->discard_size(), 1) << "the movement card; the two paid cards leave the game";
}

TEST(AtlantisToll, TheVariantRefusesMixedPayments) {
  auto s = PositionBuilder(2)
               .Path("C7 . S5 R2")
               .Hand(0, "SOOOOO")
               .Tiles(0, "F3 A2")
               .Payment(TollPayment::kTilesOrCards)
               .Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "F3", "OO")), "toll_mixed_payment");
  EXPECT_EQ(ApplyRule(*s->Clone(), 0, MoveAction(1, "S", "", "OOOOO")), "");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "F3 A2")), "");
}

TEST(AtlantisToll, TheVariantIsAGameOption) {
  auto game = NewGame(2, 1, {{"toll_payment", "tiles_or_cards"}});
  EXPECT_EQ(AsAtlantis(*game).board().toll_payment, TollPayment::kTilesOrCards);
  EXPECT_EQ(AsAtlantis(*NewGame(2, 1)).board().toll_payment, TollPayment::kTilesAndCards);
}

TEST(AtlantisToll, NoChangeButNoOverpaying) {
  auto s = PositionBuilder(2).Path("C7 . S3 R2").Figure(1, 1, 1).Hand(0, "SOOOO").Tiles(0, "F7 A2 H1").Build();
  // Toll 3.
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "F7", "O")), "toll_overpaid");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "", "OOOO")), "toll_overpaid");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "A2 H1", "O")), "toll_overpaid");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "A2")), "toll_not_covered");
  EXPECT_EQ(ApplyRule(*s->Clone(), 0, MoveAction(1, "S", "A2 H1")), "");
  EXPECT_EQ(ApplyRule(*s->Clone(), 0, MoveAction(1, "S", "A2", "O")), "");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "F7")), "") << "a 7 for a toll of 3: no change";
  EXPECT_EQ(s->board().players[0].tile_points, 3);
}

TEST(AtlantisToll, NothingIsPaidWhereNoTollIsDue) {
  auto s = PositionBuilder(2).Path("C7 S3 R2").Hand(0, "SO").Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "", "O")), "toll_overpaid");
}

TEST(AtlantisToll, MovementCardsCannotPayTheToll) {
  auto s = PositionBuilder(2).Path("C7 . S3 R2").Hand(0, "SSS").Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "", "SSS")), "toll_card_not_held");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "", "SS")), "toll_not_covered");
}

TEST(AtlantisToll, OnlyHeldTilesPay) {
  auto s = PositionBuilder(2).Path("C7 . S3 R2").Hand(0, "S").Tiles(0, "A2").Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "A2 A2")), "toll_tile_not_held");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "C7")), "toll_tile_not_held");
}

TEST(AtlantisToll, CardsBoughtThisTurnPayButTheTileGivenUpDoesNot) {
  auto s = PositionBuilder(2).Path("C7 . S3 R2").Hand(0, "S").Tiles(0, "A6 H1").Deck("OOOF").Build();
  ASSERT_EQ(ApplyRule(*s, 0, BuyAction("A6")), "");
  EXPECT_EQ(s->board().players[0].card_count, 4);
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "A6")), "toll_tile_not_held");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "", "OOO")), "");
}

TEST(AtlantisToll, TheTileTakenThisTurnCannotPay) {
  // The toll is judged on the holdings before the move; the RING 2 taken at
  // the end of the move is not among them.
  auto s = PositionBuilder(2).Path("C7 . S3 R2 O1").Figure(1, 1, 3).Hand(0, "SO").Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "SO", "R2")), "toll_tile_not_held");
}

TEST(AtlantisToll, OnlyTheTopTileOfAStackSetsTheToll) {
  auto s = PositionBuilder(2).Path("C7 . S1/R6 O2").Build();
  EXPECT_EQ(s->board().path.TollBetween(1, 3).total, 6);
}

TEST(AtlantisToll, AllGapsOfAMoveArePaidTogether) {
  // The first card stops on the occupied STATUE 5 past one gap (5), the second
  // crosses another (2): one payment of 7 for both.
  auto s = PositionBuilder(2).Path("C7 . S5 . R2 O3").Figure(1, 1, 3).Hand(0, "SO").Tiles(0, "A7").Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "SO", "A7")), "");
  EXPECT_EQ(s->board().figure(0, 0), 6);
}

TEST(AtlantisToll, TheVariantListsNoMixedPayments) {
  auto s = PositionBuilder(2)
               .Path("C7 . S3 R2")
               .Figure(1, 1, 1)
               .Hand(0, "SOOO")
               .Tiles(0, "A2 H1")
               .Bridges(0, 0)
               .Payment(TollPayment::kTilesOrCards)
               .Build();
  int moves = 0;
  for (const Move& m : s->LegalActions()) {
    if (!m.action.atlantis().has_move()) continue;
    const v1::AtlantisPayment& toll = m.action.atlantis().move().toll();
    EXPECT_FALSE(toll.tiles_size() > 0 && toll.cards_size() > 0) << m.action.ShortDebugString();
    ++moves;
  }
  // STATUE or OLIVE (to the Mainland), each paying 3 cards or A2 + H1.
  EXPECT_EQ(moves, 4);
}

TEST(AtlantisBridge, ABridgedGapIsFreeForEveryone) {
  auto s = PositionBuilder(2).Path("C7 . S5 R2").Figure(1, 2, 1).Hand(0, "S").Hand(1, "S").Build();
  ASSERT_EQ(ApplyRule(*s, 0, BridgeAction(2)), "");
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "S")), "");
  EXPECT_EQ(ApplyRule(*s, 1, MoveAction(1, "S")), "must_keep_moving") << "the STATUE 5 is occupied now";
  EXPECT_EQ(s->board().path.TollBetween(0, 3).total, 0);
}

TEST(AtlantisBridge, OnePerPlayerOnWaterOnly) {
  auto s = PositionBuilder(2).Path("C7 . S5 . . R2 O3").Hand(0, "OOOOOO").Build();
  EXPECT_EQ(ApplyRule(*s, 0, BridgeAction(3)), "bridge_not_on_water");
  EXPECT_EQ(ApplyRule(*s, 0, BridgeAction(8)), "bridge_not_on_water");
  ASSERT_EQ(ApplyRule(*s, 0, BridgeAction(4)), "");
  EXPECT_EQ(ApplyRule(*s, 0, BridgeAction(2)), "no_bridge_left");
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "O", "", "OOOOO")), "") << "the gap at 2 still costs 5";
  EXPECT_EQ(ApplyRule(*s, 1, BridgeAction(5)), "gap_already_bridged");
}

TEST(AtlantisBridge, ABridgeStaysWhenItsGapGrowsOrMerges) {
  // The RING 2 between two gaps is taken: the gaps merge around the bridge.
  auto s = PositionBuilder(2).Path("C7 . R2 ~ S5 O4").Figure(1, 1, 5).Hand(0, "O").Tiles(0, "H5").Build();
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "O", "H5")), "") << "the unbridged gap at 2 costs 2";
  EXPECT_EQ(s->board().players[0].TileCount(T("R2")), 1);
  EXPECT_TRUE(s->board().path.is_water(3));
  EXPECT_EQ(s->board().path.TollBetween(1, 5).total, 0) << "one gap 2-4, bridged at 4";
}

// Example 2 of the rulebook: Pino (seat 0) plays a ring and crosses four gaps,
// paying 1 + 4 + 3 = 8 for the first three; the fourth has a bridge.
// Rulebooks: 003_4cb24d7ca1c7eb6e.txt, "Esempio 2" (Pino, "1+4+3=8 e supera
// gratuitamente la quarta utilizzando il Ponte presente"); the same in
// 001_412b213e84fff6ab.txt, "Příklad 2" (Ivana).
TEST(AtlantisBridge, RulebookExampleTwo) {
  auto s = PositionBuilder(2)
               .Path("H1 . F5 . A4 . S3 ~ C5 R2 O7")
               .Figure(0, 1, 1)
               .Figure(1, 1, 9)
               .Hand(0, "R")
               .Tiles(0, "C7 F1")
               .Build();
  EXPECT_EQ(s->board().path.TollBetween(1, 10).total, 8);
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "R", "C7")), "toll_not_covered");
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "R", "C7 F1")), "");
  EXPECT_EQ(s->board().figure(0, 0), 10);
  // He takes the STATUE 3 because the CROWN 5 is occupied.
  EXPECT_EQ(s->board().players[0].TileCount(T("S3")), 1);
  // The last two gaps are now one, and the bridge makes it free.
  EXPECT_TRUE(s->board().path.is_water(7));
  EXPECT_EQ(s->board().path.TollBetween(5, 9).total, 0);
  EXPECT_EQ(s->board().path.TollBetween(0, 9).total, 1 + 4);
}

}  // namespace
}  // namespace arbiter::engine::atlantis::testing
