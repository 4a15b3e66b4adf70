// Atlantica as printed: the hurricane card in the tie-break (issue 15), the
// rulebook's scoring-row examples, and players' names in the sentences.
// Rulebook: 002_e8451cea96dac620.txt (English; docs/rules/README.md).
#include <gtest/gtest.h>

#include "engine/atlantica/game.h"
#include "engine/atlantica/scoring.h"
#include "tests/engine/atlantica/position_builder.h"

namespace arbiter::engine::atlantica::testing {
namespace {

// Both players have one gold on a one-crate ship (1 VP); seat 1 may have an
// orange more (0 VP, kept on a second crate). Seat 1 ends the game.
v1::Standings FinalWith(bool seat1_orange) {
  Position position(2);
  position.HoldsTreasures(0, {{"gold", 1}}).HoldsShips(0, {1}).HoldsHurricane(0);
  position.HoldsTreasures(1, {{"gold", 1}}).HoldsShips(1, {2});
  if (seat1_orange) position.HoldsTreasures(1, {{"inscriptions", 1}});
  auto state = position.ToMove(1).FinalTurnsLeft(1).Build();
  EXPECT_EQ(state->Apply(1, DrawBreath()), std::nullopt);
  EXPECT_TRUE(state->IsTerminal());
  return *state->Final();
}

// "The hurricane card counts as a treasure card" (section "1 Hurricane
// card"); "If there is a tie, the person with the most treasure cards wins"
// (section on the end of the game).
TEST(AtlanticaPrintedRules, TheHurricaneCardCountsAsATreasureCardInTheTieBreak) {
  const v1::Standings standings = FinalWith(/*seat1_orange=*/false);
  ASSERT_EQ(standings.players(0).score(), standings.players(1).score());
  EXPECT_EQ(standings.players(0).tie_break(0), 2) << "one gold and the hurricane card";
  EXPECT_EQ(standings.players(1).tie_break(0), 1);
  EXPECT_EQ(standings.players(0).place(), 1);
  EXPECT_EQ(standings.players(1).place(), 2);
}

TEST(AtlanticaPrintedRules, TheHurricaneCardCanMakeATieThatStays) {
  const v1::Standings standings = FinalWith(/*seat1_orange=*/true);
  EXPECT_EQ(standings.players(0).tie_break(0), standings.players(1).tie_break(0));
  EXPECT_EQ(standings.players(0).place(), 1);
  EXPECT_EQ(standings.players(1).place(), 1) << "still tied: a shared place";
}

TEST(AtlanticaPrintedRules, TheHurricaneCardNeedsNoCrateAndScoresNothing) {
  const v1::Standings standings = FinalWith(/*seat1_orange=*/false);
  EXPECT_EQ(standings.players(0).score(), 1);
}

// "Overview of the treasure and research cards", Examples 1-3.
TEST(AtlanticaRulebookExamples, ScoringRowsStartAgainAfterTheLastCell) {
  const auto score = [](const std::string& kind, int n) {
    Holding h;
    h.treasures[KindOf(kind)] = n;
    h.ships = 1;
    h.crates = n;
    return ScoreHolding(*DefaultRules(), h).total;
  };
  // Example 1: pink 1, 2, 3, 4 score 2, 5, 10, 16; a 5th pink adds 2.
  EXPECT_EQ(score("amphorae", 1), 2);
  EXPECT_EQ(score("amphorae", 2), 5);
  EXPECT_EQ(score("amphorae", 3), 10);
  EXPECT_EQ(score("amphorae", 4), 16);
  EXPECT_EQ(score("amphorae", 5), 18);
  // Example 2: one orange scores 0, two score 6.
  EXPECT_EQ(score("inscriptions", 1), 0);
  EXPECT_EQ(score("inscriptions", 2), 6);
  // Example 3: four green score 15 for three and 3 again for the fourth.
  EXPECT_EQ(score("statues", 4), 18);
}

TEST(AtlanticaNames, ViolationsNamePlayersByNameAndId) {
  GameSetup setup;
  setup.ruleset = &DefaultRuleset();
  setup.num_players = 3;
  setup.players = {{"ann", "Ann"}, {"bob", "Bob"}, {"cy", ""}};
  auto state = *AtlanticaGame().NewInitialState(setup);
  const std::optional<Violation> v = state->Check(1, DrawBreath());
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->rule, kRuleNotYourTurn);
  EXPECT_EQ(v->detail, "it is Ann's (ann) turn, not Bob's (bob)");
  EXPECT_EQ(state->Check(2, DrawBreath())->detail, "it is Ann's (ann) turn, not cy's");
}

}  // namespace
}  // namespace arbiter::engine::atlantica::testing

namespace arbiter::engine::atlantica::testing {
namespace {

// One card of a research type with the given holding; its points.
int ResearchPoints(const std::string& type, std::initializer_list<std::pair<std::string, int>> treasures,
                   std::initializer_list<int> ships, int extra_research = 0) {
  Holding h;
  for (const auto& [kind, n] : treasures) h.treasures[KindOf(kind)] += n;
  for (int crates : ships) {
    ++h.ships;
    h.crates += crates;
  }
  h.research[ResearchOf(type)] = 1;
  h.research[ResearchOf("R1")] += extra_research;
  const Score s = ScoreHolding(*DefaultRules(), h);
  return s.research_card_points[ResearchOf(type)];
}

// "The research cards" (002_e8451cea96dac620.txt), card by card, in the
// rulebook's order; R11, the joker, is in AtlanticaScoring.Joker* tests.
TEST(AtlanticaRulebookExamples, EachResearchCardScoresAsItsPassageSays) {
  EXPECT_EQ(ResearchPoints("R1", {}, {}), 2);  // "worth 2 VPs"
  EXPECT_EQ(ResearchPoints("R2", {}, {}), 3);  // "worth 3 VPs"
  EXPECT_EQ(ResearchPoints("R3", {}, {}), 4);  // "worth 4 VPs"
  // "5 VPs if its holder has collected treasure in at least 3 different
  // colours and if they also have a wooden crate available for them".
  EXPECT_EQ(ResearchPoints("R4", {{"gold", 1}, {"statues", 1}, {"weapons", 1}}, {3}), 5);
  EXPECT_EQ(ResearchPoints("R4", {{"gold", 1}, {"statues", 1}, {"weapons", 1}}, {2}), 0);
  // "7 VPs ... at least 4 different colours".
  EXPECT_EQ(ResearchPoints("R5", {{"gold", 1}, {"statues", 1}, {"weapons", 1}, {"amphorae", 1}}, {4}), 7);
  EXPECT_EQ(ResearchPoints("R5", {{"gold", 1}, {"statues", 1}, {"weapons", 1}}, {4}), 0);
  // "1 VP for any collected treasure cards of one kind. They can choose the
  // kind ... stored in wooden crates".
  EXPECT_EQ(ResearchPoints("R6", {{"gold", 3}, {"weapons", 1}}, {4}), 3);
  // "1 VP for every blue architecture treasure card collected if there is a
  // wooden crate available".
  EXPECT_EQ(ResearchPoints("R7", {{"architecture", 3}}, {2}), 2);
  // "1 VP for all the research cards collected during the game and for this
  // card too".
  EXPECT_EQ(ResearchPoints("R8", {}, {}, /*extra_research=*/2), 3);
  // "1 VP for every ship card collected".
  EXPECT_EQ(ResearchPoints("R9", {}, {1, 2, 3}), 3);
  // "6 VPs if they have chartered ships with 12 or more wooden crates".
  EXPECT_EQ(ResearchPoints("R10", {}, {5, 4, 3}), 6);
  EXPECT_EQ(ResearchPoints("R10", {}, {5, 4, 2}), 0);
}

}  // namespace
}  // namespace arbiter::engine::atlantica::testing
