// Moving figures: cards, occupied tiles, taking tiles, the Mainland, draws,
// and the rulebook's Example 1.
#include <gtest/gtest.h>

#include "tests/engine/atlantis/atlantis_test_util.h"

namespace arbiter::engine::atlantis::testing {
namespace {

uint8_t T(std::string_view tile) { return TileCode(ItemOfLetter(tile[0]), tile[1] - '0'); }

int Tiles(const AtlantisState& s, int seat, std::string_view tile) {
  return s.board().players[static_cast<std::size_t>(seat)].TileCount(T(tile));
}

TEST(AtlantisMovement, ACardMovesToTheNextTileShowingItsItem) {
  auto s = PositionBuilder(2).Path("F3 O2 H5 A1 R4 S6 C7").Hand(0, "R").Deck("FFFF").Build();
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "R")), "");
  EXPECT_EQ(s->board().figure(0, 0), 5);
  EXPECT_EQ(Tiles(*s, 0, "A1"), 1) << "takes the free tile just behind";
  EXPECT_TRUE(s->board().path.is_water(4));
  EXPECT_EQ(s->board().current, 1);
}

TEST(AtlantisMovement, AnOccupiedTileRequiresAnotherCard) {
  auto s = PositionBuilder(2).Path("F3 O2 H5 A1 R4 S6 C7").Figure(1, 1, 5).Hand(0, "RS").Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "R")), "must_keep_moving");
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "RS")), "");
  EXPECT_EQ(s->board().figure(0, 0), 6);
  EXPECT_EQ(Tiles(*s, 0, "A1"), 1) << "the occupied RING 4 is skipped";
}

TEST(AtlantisMovement, AFurtherCardOnlyFromAnOccupiedTile) {
  auto s = PositionBuilder(2).Path("F3 O2 H5 A1 R4 S6 C7").Hand(0, "OR").Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "OR")), "extra_card");
}

TEST(AtlantisMovement, TheSecondCardMayShowAnyItem) {
  auto s = PositionBuilder(2).Path("F3 O2 H5 A1 R4 S6 C7").Figure(1, 1, 2).Hand(0, "OC").Build();
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "OC")), "");
  EXPECT_EQ(s->board().figure(0, 0), 7);
  EXPECT_EQ(Tiles(*s, 0, "S6"), 1);
}

TEST(AtlantisMovement, TheTileTakenSkipsOccupiedTilesAndWater) {
  auto s = PositionBuilder(2)
               .Path("F3 O2 . H5 A1 R4 S6")
               .Figure(1, 1, 4)
               .Figure(1, 2, 5)
               .Hand(0, "RFF")
               .Build();
  // Crossing the gap at 3 costs min(OLIVE 2, HELMET 5) = 2.
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "R", "", "FF")), "");
  EXPECT_EQ(Tiles(*s, 0, "O2"), 1);
  EXPECT_TRUE(s->board().path.is_water(2));
  EXPECT_TRUE(s->board().path.is_water(3));
}

TEST(AtlantisMovement, TheFirstPositionGivesNoTile) {
  auto s = PositionBuilder(2).Path("F3 O2 H5").Hand(0, "F").Build();
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "F")), "");
  EXPECT_EQ(s->board().players[0].tile_count, 0);
}

TEST(AtlantisMovement, OnlyTheTopTileOfAStackCounts) {
  auto s = PositionBuilder(2).Path("F3 O2/H5 R4 S1").Hand(0, "R").Hand(1, "O").Build();
  EXPECT_EQ(s->board().path.NextWithItem(0, ItemOfLetter('O')), s->board().path.mainland())
      << "the OLIVE 2 lies under the HELMET 5";
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "R")), "");
  EXPECT_EQ(Tiles(*s, 0, "H5"), 1);
  ASSERT_EQ(ApplyRule(*s, 1, MoveAction(1, "O")), "");
  EXPECT_EQ(s->board().figure(1, 0), 2) << "the OLIVE 2 is now on top";
}

TEST(AtlantisMovement, EmptyingTheFirstPositionMovesAtlantisUp) {
  auto s = PositionBuilder(2).Path("F3 O2 H5 R1").Figure(1, 1, 2).Hand(0, "H").Build();
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "H")), "");
  EXPECT_EQ(Tiles(*s, 0, "F3"), 1);
  EXPECT_EQ(s->board().path.first(), 2);
  EXPECT_FALSE(s->board().path.is_water(1)) << "an end closes up instead of becoming water";
}

TEST(AtlantisMovement, NoTileAheadWithTheItemMeansTheMainland) {
  auto s = PositionBuilder(2).Path("F3 O2 H5 R1").Hand(0, "C").Deck("FOHA").Build();
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "C")), "");
  EXPECT_EQ(s->board().figure(0, 0), s->board().path.mainland());
  EXPECT_EQ(Tiles(*s, 0, "R1"), 1) << "the last free tile before the Mainland";
  EXPECT_EQ(s->board().path.last(), 3) << "the Mainland moves up";
  EXPECT_EQ(s->board().players[0].card_count, 2) << "one figure home: draw 2";
}

TEST(AtlantisMovement, ReachingTheMainlandSkipsOccupiedTilesToo) {
  auto s = PositionBuilder(2).Path("F3 O2 H5 R1").Figure(1, 1, 4).Hand(0, "C").Build();
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "C")), "");
  EXPECT_EQ(Tiles(*s, 0, "H5"), 1);
  EXPECT_TRUE(s->board().path.is_water(3));
}

TEST(AtlantisMovement, DrawsGrowWithFiguresOnTheMainland) {
  const struct {
    int home_before;
    int drawn;
  } cases[] = {{0, 1}, {1, 2}};
  for (const auto& c : cases) {
    PositionBuilder b(2);
    b.Path("F3 O2 H5 R1 S2 A4").Hand(0, "H").Deck("CCCCCC");
    for (int f = 1; f <= c.home_before; ++f) b.Figure(0, f + 1, kMainland);
    auto s = b.Build();
    ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "H")), "");
    EXPECT_EQ(s->board().players[0].card_count, c.drawn) << c.home_before << " figures home before";
  }
  // Two figures home and the third moves on the path: draw 3.
  auto s = PositionBuilder(2)
               .Path("F3 O2 H5 R1 S2 A4")
               .Figure(0, 2, kMainland)
               .Figure(0, 3, kMainland)
               .Hand(0, "H")
               .Deck("CCCCCC")
               .Build();
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "H")), "");
  EXPECT_EQ(s->board().players[0].card_count, 3);
  EXPECT_FALSE(s->IsTerminal());
}

TEST(AtlantisMovement, TheThirdFigureHomeDrawsFourAndEndsTheGame) {
  auto s = PositionBuilder(2)
               .Path("F3 O2 H5 R1")
               .Figure(0, 2, kMainland)
               .Figure(0, 3, kMainland)
               .Hand(0, "C")
               .Deck("FOHARS")
               .Build();
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "C")), "");
  EXPECT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->board().players[0].card_count, 4);
  EXPECT_EQ(s->board().finisher, 0);
  EXPECT_TRUE(s->SeatsToAct().empty());
  EXPECT_EQ(ApplyRule(*s, 1, PassAction()), kRuleGameOver);
}

// Example 1 of the rulebook (Czech numbers; the Italian text has the same
// moves): Pavel (seat 0), Stepanka (seat 1) and Ivana (seat 2).
// Rulebooks: 001_412b213e84fff6ab.txt, "Příklad 1"; 003_4cb24d7ca1c7eb6e.txt,
// "Esempio 1" (Angelica, Stefano, Pino: "Anche se ha giocato più carte,
// prende solo una tessera").
TEST(AtlantisMovement, RulebookExampleOne) {
  auto s = PositionBuilder(3)
               .Path("S3 O4 F1 C5 F4 A6 H2 O3 R7 H5 S2")
               .Figure(0, 1, 7)   // Pavel's A on the HELMET 2
               .Figure(1, 1, 4)   // Stepanka's A
               .Figure(2, 2, 6)   // Ivana's B on the AMPHORA 6
               .Figure(2, 1, 6)   // Ivana's A
               .Hand(0, "F")
               .Hand(1, "O")
               .Hand(2, "HH")
               .Deck("CCCCCC")
               .Build();
  // Pavel plays a pink flag: his B goes to the FLAG 1 and takes the OLIVE 4.
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(2, "F")), "");
  EXPECT_EQ(s->board().figure(0, 1), 3);
  EXPECT_EQ(Tiles(*s, 0, "O4"), 1);
  // Stepanka plays an olive: her A goes to the OLIVE 3; the HELMET 2 and the
  // AMPHORA 6 are occupied, so she takes the FLAG 4.
  ASSERT_EQ(ApplyRule(*s, 1, MoveAction(1, "O")), "");
  EXPECT_EQ(s->board().figure(1, 0), 8);
  EXPECT_EQ(Tiles(*s, 1, "F4"), 1);
  // Ivana has only helmets: the first brings her A onto Pavel's A, the second
  // to the free HELMET 5; she takes the RING 7, one tile for two cards.
  EXPECT_EQ(ApplyRule(*s, 2, MoveAction(1, "H")), "must_keep_moving");
  ASSERT_EQ(ApplyRule(*s, 2, MoveAction(1, "HH")), "");
  EXPECT_EQ(s->board().figure(2, 0), 10);
  EXPECT_EQ(Tiles(*s, 2, "R7"), 1);
  EXPECT_EQ(s->board().players[2].tile_count, 1);
}

// The order of the checks (docs/atlantis.md, "The order of the checks"): the
// cards of a move are checked one by one, each in full before the next, so
// which rule a move breaking two reports depends on which card breaks first.
TEST(AtlantisCheckOrder, AFreeTileBeforeACardNotInTheHandIsAnExtraCard) {
  auto s = PositionBuilder(2).Path("F3 O2 H5 A1 R4 S6 C7").Hand(0, "O").Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "OR")), "extra_card");
}

TEST(AtlantisCheckOrder, AFirstCardNotInTheHandIsReportedBeforeTheFreeTileItWouldReach) {
  auto s = PositionBuilder(2).Path("F3 O2 H5 A1 R4 S6 C7").Hand(0, "R").Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "OR")), "card_not_in_hand");
}

}  // namespace
}  // namespace arbiter::engine::atlantis::testing
