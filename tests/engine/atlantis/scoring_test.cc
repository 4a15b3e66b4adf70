// The end phase and the final standings, and the rulebook's Example 3.
#include <gtest/gtest.h>

#include "engine/atlantis/scoring.h"
#include "tests/engine/atlantis/atlantis_test_util.h"

namespace arbiter::engine::atlantis::testing {
namespace {

const v1::ScoreItem* Item(const v1::PlayerStanding& p, const std::string& label) {
  for (const v1::ScoreItem& item : p.breakdown()) {
    if (item.label() == label) return &item;
  }
  return nullptr;
}

// Example 3 of the rulebook: Angelica (seat 0) brings her third figure home;
// Stefano (seat 1) owes 1 + 4 + 1 = 6 for figure A and 1 for figure B and
// gives up a 7; Pino (seat 2) pays his toll of 1 with a card.
// Rulebooks: 003_4cb24d7ca1c7eb6e.txt, "Esempio 3" ("Il valore totale dei
// pedaggi è 7; Stefano scarta una tessera Percorso di valore 7"); the same in
// 001_412b213e84fff6ab.txt, "Príklad 3" (Pavel, Štěpánka, Ivana).
TEST(AtlantisScoring, RulebookExampleThree) {
  auto s = PositionBuilder(3)
               .Path("H2 . F1 A6 . O4 . S1 R5")
               .Figure(0, 1, 8)
               .Figure(0, 2, kMainland)
               .Figure(0, 3, kMainland)
               .Figure(1, 1, 1)
               .Figure(1, 2, 6)
               .Figure(1, 3, kMainland)
               .Figure(2, 1, 6)
               .Figure(2, 2, kMainland)
               .Figure(2, 3, kMainland)
               .Hand(0, "C")
               .Tiles(0, "O3")
               .Hand(1, "FF")
               .Tiles(1, "C7 A5 F2")
               .Hand(2, "OO")
               .Tiles(2, "H3")
               .Deck("RRRRRR")
               .Build();
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "C")), "");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->board().players[0].TileCount(TileCode(ItemOfLetter('R'), 5)), 1) << "she takes the 5";
  EXPECT_EQ(s->board().path.last(), 8) << "the Mainland moves up to the 1";

  const EndPhase stefano = ScoreEndPhase(s->board(), 1);
  EXPECT_EQ(stefano.toll, 7);
  EXPECT_EQ(stefano.paid, 7);
  EXPECT_EQ(stefano.paid_tiles, std::vector<uint8_t>{TileCode(ItemOfLetter('C'), 7)});
  EXPECT_EQ(stefano.paid_cards, 0);
  const EndPhase pino = ScoreEndPhase(s->board(), 2);
  EXPECT_EQ(pino.toll, 1);
  EXPECT_EQ(pino.paid_cards, 1);
  EXPECT_TRUE(pino.paid_tiles.empty());

  const v1::Standings standings = *s->Final();
  ASSERT_EQ(standings.players_size(), 3);
  // Angelica: 3 + 5 in tiles, 4 cards drawn. Stefano: 14 + 2 - 7. Pino: 3 + 2 - 1.
  EXPECT_EQ(standings.players(0).score(), 12);
  EXPECT_EQ(standings.players(1).score(), 9);
  EXPECT_EQ(standings.players(2).score(), 4);
  EXPECT_EQ(standings.players(0).place(), 1);
  EXPECT_EQ(standings.players(1).place(), 2);
  EXPECT_EQ(standings.players(2).place(), 3);
  ASSERT_NE(Item(standings.players(1), "end-phase tolls paid"), nullptr);
  EXPECT_EQ(Item(standings.players(1), "end-phase tolls paid")->points(), -7);
  EXPECT_EQ(Item(standings.players(0), "end-phase tolls paid"), nullptr);
}

Board Finished(std::string_view path, std::string_view hand, std::string_view tiles, int position) {
  auto s = PositionBuilder(2)
               .Path(path)
               .Figure(0, 1, kMainland)
               .Figure(0, 2, kMainland)
               .Figure(0, 3, kMainland)
               .Figure(1, 1, position)
               .Figure(1, 2, kMainland)
               .Figure(1, 3, kMainland)
               .Hand(1, hand)
               .Tiles(1, tiles)
               .Build();
  Board b = s->board();
  b.over = true;
  b.finisher = 0;
  return b;
}

TEST(AtlantisScoring, TheCheapestPaymentIsChosen) {
  // Toll 6 (min(6, 7)); tiles 5, 4, 3 and two cards: 5 + 1 card = 6.
  const EndPhase e = ScoreEndPhase(Finished("S6 . C7", "FF", "A5 O4 H3", 1), 1);
  EXPECT_EQ(e.toll, 6);
  EXPECT_EQ(e.paid, 6);
  EXPECT_EQ(e.unpaid, 0);
  EXPECT_EQ(e.score, 12 + 2 - 6);
}

TEST(AtlantisScoring, ThePaymentWithTheFewestCardsAmongTheCheapest) {
  // Toll 5: A5 alone, or O4 + 1 card, cost the same; the tile is given.
  const EndPhase e = ScoreEndPhase(Finished("S5 . C7", "F", "A5 O4", 1), 1);
  EXPECT_EQ(e.paid, 5);
  EXPECT_EQ(e.paid_cards, 0);
  EXPECT_EQ(e.paid_tiles, std::vector<uint8_t>{TileCode(ItemOfLetter('A'), 5)});
}

TEST(AtlantisScoring, WhenNoExactPaymentExistsTheSmallestOverpayment) {
  // Toll 4 with tiles 7 and 5 and no cards: the 5 is given.
  const EndPhase e = ScoreEndPhase(Finished("S4 . C7", "", "A7 O5", 1), 1);
  EXPECT_EQ(e.paid, 5);
  EXPECT_EQ(e.score, 7);
}

TEST(AtlantisScoring, WhatCannotBePaidIsSubtracted) {
  // Tolls 6 + 7 = 13 from position 1; the player holds 3 + 1 card.
  const EndPhase e = ScoreEndPhase(Finished("S6 . C7 . A7 O7", "F", "H3", 1), 1);
  EXPECT_EQ(e.toll, 13);
  EXPECT_EQ(e.paid, 4);
  EXPECT_EQ(e.unpaid, 9);
  EXPECT_EQ(e.score, -9);
  Board b = Finished("S6 . C7 . A7 O7", "F", "H3", 1);
  const v1::Standings standings = FinalStandings(b);
  EXPECT_EQ(standings.players(1).score(), -9);
  ASSERT_NE(Item(standings.players(1), "unpaid toll"), nullptr);
  EXPECT_EQ(Item(standings.players(1), "unpaid toll")->points(), -9);
}

TEST(AtlantisScoring, TheVariantPaysWithTilesOnlyOrCardsOnly) {
  Board b = Finished("S4 . C7", "FFFF", "A3 O2", 1);
  b.toll_payment = TollPayment::kTilesOrCards;
  // Toll 4: tiles 3 + 2 = 5 or 4 cards: the cards cost less.
  EndPhase e = ScoreEndPhase(b, 1);
  EXPECT_EQ(e.paid, 4);
  EXPECT_EQ(e.paid_cards, 4);
  b.toll_payment = TollPayment::kTilesAndCards;
  e = ScoreEndPhase(b, 1);
  EXPECT_EQ(e.paid, 4);
  EXPECT_LT(e.paid_cards, 4) << "mixing allows 3 + 1 card or 2 + 2 cards";
}

TEST(AtlantisScoring, ExistingBridgesAreFreeInTheEndPhase) {
  const EndPhase e = ScoreEndPhase(Finished("S6 ~ C7", "F", "H3", 1), 1);
  EXPECT_EQ(e.toll, 0);
  EXPECT_EQ(e.score, 4);
}

TEST(AtlantisScoring, EqualScoresShareAPlace) {
  auto s = PositionBuilder(3)
               .Path("F3 O2")
               .Figure(0, 1, kMainland)
               .Figure(0, 2, kMainland)
               .Figure(0, 3, kMainland)
               .Tiles(0, "C7")
               .Hand(1, "FF")
               .Tiles(1, "A5")
               .Tiles(2, "O3")
               .Build();
  Board b = s->board();
  b.over = true;
  b.finisher = 0;
  const v1::Standings standings = FinalStandings(b);
  EXPECT_EQ(standings.players(0).score(), 7);
  EXPECT_EQ(standings.players(1).score(), 7);
  EXPECT_EQ(standings.players(0).place(), 1);
  EXPECT_EQ(standings.players(1).place(), 1);
  EXPECT_EQ(standings.players(2).place(), 3);
}

}  // namespace
}  // namespace arbiter::engine::atlantis::testing
