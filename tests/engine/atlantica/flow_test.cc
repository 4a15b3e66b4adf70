// The flow of the game: refills, the hurricane, the final round, reshuffling
// the divers, the end and the standings.
#include <gtest/gtest.h>

#include "tests/engine/atlantica/position_builder.h"

namespace arbiter::engine::atlantica::testing {
namespace {

using v1::Atlantica;

TEST(AtlanticaRefill, NormalStackFirstThenHurricaneStack) {
  // The normal stack has one card left; the hurricane stack (top last) is
  // statues, then the hurricane, then gold.
  auto game = Position(2)
                  .Treasures({"gold", "amphorae", "statues", "weapons", "ceramics", "architecture"})
                  .TreasureStack({"weapons"})
                  .HurricaneStack({"gold", "hurricane", "statues"})
                  .Hand(0, {G, P, W})
                  .Build();
  ASSERT_EQ(game->Apply(0, TurnOf({Dive(3, {G, P, W}, {1, 2, 3})})), std::nullopt);
  const Board& b = game->board();
  EXPECT_EQ(b.treasure_areas[0], KindOf("weapons"));       // slid from area 4
  EXPECT_EQ(b.treasure_areas[3], KindOf("weapons"));       // the normal stack's last card
  EXPECT_EQ(b.treasure_areas[4], KindOf("statues"));       // then the hurricane stack
  EXPECT_EQ(b.treasure_areas[5], KindOf("gold"));          // the hurricane was taken out
  EXPECT_TRUE(b.players[0].hurricane);
  EXPECT_EQ(b.final_turns_left, 2);
  EXPECT_TRUE(b.hurricane_stack.empty());
}

TEST(AtlanticaRefill, AreasStayEmptyWhenEveryStackIsOut) {
  auto game = Position(2).Treasures({"gold", "amphorae", "", "", "", ""}).Research({"R1", "", "", ""})
                  .Hand(0, {G, R}).FinalTurnsLeft(2).Build();
  ASSERT_EQ(game->Apply(0, TurnOf({Dive(1, {G}, {1}), Study(1, {R}, {1})})), std::nullopt);
  EXPECT_EQ(game->board().treasure_areas[0], KindOf("amphorae"));
  EXPECT_EQ(game->board().treasure_areas[1], kEmpty);
  EXPECT_EQ(game->board().research_areas[0], kEmpty);
}

TEST(AtlanticaFinalRound, EveryPlayerHasOneMoreTurnStartingAfterTheHurricaneHolder) {
  // Three players; seat 2 (index 1) reveals the hurricane. Then seats 3, 1
  // and 2 play once more, and the game ends.
  auto game = Position(3)
                  .Treasures({"gold", "amphorae", "statues", "weapons", "ceramics", "architecture"})
                  .HurricaneStack({"gold", "gold", "hurricane"})
                  .ToMove(1)
                  .Hand(1, {G})
                  .DrawPile({B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B})
                  .Build();
  ASSERT_EQ(game->Apply(1, TurnOf({Dive(1, {G}, {1})})), std::nullopt);
  EXPECT_TRUE(game->board().players[1].hurricane);
  std::vector<int> order;
  while (!game->IsTerminal()) {
    const int seat = game->SeatsToAct().at(0);
    order.push_back(seat);
    ASSERT_EQ(game->Apply(seat, DrawBreath()), std::nullopt);
    ASSERT_LE(order.size(), 3u);
  }
  EXPECT_EQ(order, (std::vector<int>{2, 0, 1}));
  EXPECT_TRUE(game->SeatsToAct().empty());
  EXPECT_EQ(RuleOf(*game, 0, DrawBreath()), "game_over");
  EXPECT_TRUE(game->Final().has_value());
}

TEST(AtlanticaDivers, TheDiscardPileIsReshuffledWhenTheDrawPileRunsOut) {
  // One card left to draw; the discard pile holds two whites, and the pub's
  // blue and white join it before the six divers are drawn at the end of the
  // turn: five divers exist, all five are drawn.
  auto game = Position(2).DrawPile({G}).Discard({W, W}).Hand(0, {B, W}).Build();
  ASSERT_EQ(game->Apply(0, TurnOf({Hire(2, {B, W})})), std::nullopt);
  EXPECT_EQ(Held(*game, 0, G), 1);
  EXPECT_EQ(Held(*game, 0, W), 3);
  EXPECT_EQ(Held(*game, 0, B), 1);
  EXPECT_TRUE(game->board().draw_pile.empty());
  EXPECT_EQ(game->board().discard, ColourCounts{});
}

TEST(AtlanticaDivers, DrawBreathWithNoDiversLeftDrawsNothing) {
  auto game = Position(2).Build();
  EXPECT_EQ(game->Apply(0, DrawBreath()), std::nullopt);
  EXPECT_EQ(game->board().players[0].hand, ColourCounts{});
}

TEST(AtlanticaDivers, ReshuffleOrderDependsOnlyOnTheSeedAndTheDiscardCounts) {
  auto a = Position(2).Discard({R, G, B, W, Y, P, P}).Build(7);
  auto b = Position(2).Discard({P, P, Y, W, B, G, R}).Build(7);
  ASSERT_EQ(a->Apply(0, DrawBreath()), std::nullopt);
  ASSERT_EQ(b->Apply(0, DrawBreath()), std::nullopt);
  EXPECT_EQ(a->board().players[0].hand, b->board().players[0].hand);
  EXPECT_EQ(a->board().draw_pile, b->board().draw_pile);
}

// Ends a two-player game at once: seat 1 plays the last turn of the round.
std::unique_ptr<AtlanticaState> Finished(Position p) {
  auto game = p.ToMove(1).FinalTurnsLeft(1).Build();
  EXPECT_EQ(game->Apply(1, DrawBreath()), std::nullopt);
  EXPECT_TRUE(game->IsTerminal());
  return game;
}

TEST(AtlanticaStandings, HigherTotalWins) {
  auto game = Finished(Position(2).HoldsTreasures(0, {{"weapons", 1}}).HoldsShips(0, {1}).HoldsResearch(1, {{"R1", 1}}));
  const auto standings = game->Final();
  ASSERT_TRUE(standings.has_value());
  EXPECT_EQ(standings->players(0).score(), 4);
  EXPECT_EQ(standings->players(0).place(), 1);
  EXPECT_EQ(standings->players(1).score(), 2);
  EXPECT_EQ(standings->players(1).place(), 2);
}

TEST(AtlanticaStandings, TiesGoToTheMoreKeptTreasures) {
  // Both score 4: seat 1 with one weapon, seat 2 with a weapon and a lone
  // (worthless) inscription, so seat 2 wins the tie-break.
  auto game = Finished(Position(2)
                           .HoldsTreasures(0, {{"weapons", 1}}).HoldsShips(0, {3})
                           .HoldsTreasures(1, {{"weapons", 1}, {"inscriptions", 1}}).HoldsShips(1, {2}));
  const auto standings = game->Final();
  ASSERT_TRUE(standings.has_value());
  EXPECT_EQ(standings->players(0).score(), standings->players(1).score());
  EXPECT_EQ(standings->players(0).tie_break(0), 1);
  EXPECT_EQ(standings->players(1).tie_break(0), 2);
  EXPECT_EQ(standings->players(1).place(), 1);
  EXPECT_EQ(standings->players(0).place(), 2);
}

TEST(AtlanticaStandings, JokersDoNotCountForTheTieBreak) {
  auto game = Finished(Position(2)
                           .HoldsTreasures(0, {{"weapons", 1}}).HoldsShips(0, {1}).HoldsResearch(0, {{"R11", 1}})
                           .HoldsTreasures(1, {{"weapons", 2}}).HoldsShips(1, {2}));
  const auto standings = game->Final();
  EXPECT_EQ(standings->players(0).score(), 9);
  EXPECT_EQ(standings->players(1).score(), 9);
  EXPECT_EQ(standings->players(1).place(), 1);
  EXPECT_EQ(standings->players(0).place(), 2);
}

TEST(AtlanticaStandings, FullTiesSharePlaces) {
  auto game = Finished(Position(2).HoldsTreasures(0, {{"gold", 1}}).HoldsShips(0, {1})
                           .HoldsTreasures(1, {{"gold", 1}}).HoldsShips(1, {1}));
  const auto standings = game->Final();
  EXPECT_EQ(standings->players(0).place(), 1);
  EXPECT_EQ(standings->players(1).place(), 1);
}

TEST(AtlanticaStandings, BreakdownReportsTheDiscardAndEachResearchCard) {
  auto game = Finished(Position(2)
                           .HoldsTreasures(0, {{"amphorae", 3}, {"gold", 4}, {"inscriptions", 1}, {"architecture", 1}})
                           .HoldsShips(0, {3, 4})
                           .HoldsResearch(0, {{"R1", 1}, {"R2", 1}, {"R3", 1}, {"R9", 1}, {"R6", 1}}));
  const auto standings = game->Final();
  const auto& maja = standings->players(0);
  EXPECT_EQ(maja.score(), 40);
  std::map<std::string, std::pair<int64_t, std::string>> items;
  for (const auto& item : maja.breakdown()) items[item.label()] = {item.points(), item.detail()};
  EXPECT_EQ(items["treasure: gold (yellow)"].first, 15);
  EXPECT_EQ(items["treasure: amphorae (pink)"].first, 10);
  EXPECT_EQ(items["treasure: inscriptions (orange)"].first, 0);
  EXPECT_EQ(items["discarded treasures"].second, "1 architecture, 1 inscriptions (7 crates on 2 ships for 9 treasures)");
  EXPECT_EQ(items["research: R6"].first, 4);
  EXPECT_NE(items["research: R6"].second.find("kind chosen: gold"), std::string::npos);
  EXPECT_EQ(items["research: R9"].first, 2);
  EXPECT_EQ(maja.tie_break(0), 7);
}

}  // namespace
}  // namespace arbiter::engine::atlantica::testing
