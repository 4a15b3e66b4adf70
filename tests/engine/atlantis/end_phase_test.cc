// The end phase's choice of payment where docs/atlantis.md names a rule for
// it: the tie-break among payments of equal cost, and the tiles_or_cards
// fallback when neither an all-tile nor an all-card payment covers the toll.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/atlantis/scoring.h"
#include "tests/engine/atlantis/atlantis_test_util.h"

namespace arbiter::engine::atlantis::testing {
namespace {

// Seat 1's figure 1 on `position`, every other figure home; the game over.
Board Finished(std::string_view path, std::string_view hand, std::string_view tiles,
               TollPayment payment = TollPayment::kTilesAndCards) {
  PositionBuilder builder(2);
  builder.Path(path).Hand(1, hand).Tiles(1, tiles).Payment(payment);
  for (int figure = 1; figure <= 3; ++figure) {
    builder.Figure(0, figure, kMainland).Figure(1, figure, figure == 1 ? 1 : kMainland);
  }
  Board b = builder.Build()->board();
  b.over = true;
  b.finisher = 0;
  return b;
}

std::vector<uint8_t> Sorted(std::vector<uint8_t> tiles) {
  std::sort(tiles.begin(), tiles.end());
  return tiles;
}

uint8_t Tile(char letter, int value) { return TileCode(ItemOfLetter(letter), value); }

TEST(AtlantisEndPhase, AmongEqualPaymentsTheHigherTileValuesGo) {
  // Toll 6: O4 + F2 or H3 + A3, both 6 points and no cards: the 4 goes.
  const EndPhase e = ScoreEndPhase(Finished("S6 . C7", "", "O4 F2 H3 A3"), 1);
  EXPECT_EQ(e.paid, 6);
  EXPECT_EQ(Sorted(e.paid_tiles), Sorted({Tile('O', 4), Tile('F', 2)}));
}

TEST(AtlantisEndPhase, AmongEqualTileValuesTheLowestItemGoes) {
  // Toll 5: H5 or A5; helmet comes before amphora in item order.
  const EndPhase e = ScoreEndPhase(Finished("S5 . C7", "", "A5 H5"), 1);
  EXPECT_EQ(e.paid_tiles, std::vector<uint8_t>{Tile('H', 5)});
  EXPECT_EQ(e.unpaid, 0);
}

TEST(AtlantisEndPhase, TilesOrCardsWithNeitherEnoughPaysTheMoreValuableKind) {
  // Toll 6 + 7 = 13; tiles worth 5, cards worth 2: every tile, 8 unpaid.
  EndPhase e = ScoreEndPhase(Finished("S6 . C7 . A7 O7", "FF", "A3 O2", TollPayment::kTilesOrCards), 1);
  EXPECT_EQ(Sorted(e.paid_tiles), Sorted({Tile('A', 3), Tile('O', 2)}));
  EXPECT_EQ(e.paid_cards, 0);
  EXPECT_EQ(e.unpaid, 8);
  // Cards worth more than the tiles: every card.
  e = ScoreEndPhase(Finished("S6 . C7 . A7 O7", "FFFF", "A3", TollPayment::kTilesOrCards), 1);
  EXPECT_TRUE(e.paid_tiles.empty());
  EXPECT_EQ(e.paid_cards, 4);
  EXPECT_EQ(e.unpaid, 9);
}

TEST(AtlantisEndPhase, TilesOrCardsFallbackPaysTilesWhenBothAreWorthTheSame) {
  const EndPhase e = ScoreEndPhase(Finished("S6 . C7 . A7 O7", "FF", "O2", TollPayment::kTilesOrCards), 1);
  EXPECT_EQ(e.paid_tiles, std::vector<uint8_t>{Tile('O', 2)});
  EXPECT_EQ(e.paid_cards, 0);
  EXPECT_EQ(e.unpaid, 11);
}

}  // namespace
}  // namespace arbiter::engine::atlantis::testing
