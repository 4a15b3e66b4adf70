// Atlantica: a turn in words (docs/atlantica.md, "Actions in words"), and what
// a seat and a spectator are shown of the hands ("What is hidden from whom").
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/engine/atlantica/position_builder.h"

namespace arbiter::engine::atlantica::testing {
namespace {

void NameAnnAndBob(State& state) {
  state.set_players(std::make_shared<const Players>(std::vector<PlayerName>{{"ann", "Ann"}, {"bob", "Bob"}}));
}

TEST(AtlanticaLabels, ATurnNamesEachPlaceTheDiversLaidAndTheCardsTaken) {
  auto game = Position(2)
                  .Treasures({"gold", "amphorae", "ceramics", "", "", ""})
                  .Research({"R1", "R2", "", ""})
                  .Ships(0, {3, 2})
                  .Hand(0, {G, P, W, B, R, R})
                  .Build();
  NameAnnAndBob(*game);
  EXPECT_EQ(game->Label(0, TurnOf({Dive(2, {G, P}, {1, 3}), Charter(1, {W})})),
            "Ann (ann): diving boat tier 2 with green, purple, takes gold (area 1), ceramics (area 3); "
            "harbour tier 1 with white, takes the top ship of A cargo boat (2 crates)");
  EXPECT_EQ(game->Label(0, TurnOf({Hire(1, {B})})), "Ann (ann): pub tier 1 with blue, draws 3 divers");
  EXPECT_EQ(game->Label(0, TurnOf({WithJoker(Study(1, {}, {2}), R)})),
            "Ann (ann): research station tier 1 with red, red as a joker, takes R2 (area 2)");
  EXPECT_EQ(game->Label(0, DrawBreath()), "Ann (ann) draws breath: 5 divers straight into the hand");
}

TEST(AtlanticaLabels, TheListIsGroupedByThePlacesOfTheTurnAndEmptyForTheOtherSeat) {
  auto game = Position(2).Treasures({"gold", "", "", "", "", ""}).Hand(0, {G}).Build();
  NameAnnAndBob(*game);
  const std::vector<LabelledMove> listed = game->LegalActionsFor(0);
  std::vector<std::string> groups;
  for (const LabelledMove& move : listed) {
    if (groups.empty() || groups.back() != move.group) groups.push_back(move.group);
  }
  EXPECT_EQ(groups, (std::vector<std::string>{"draw breath", "diving boat"}));
  EXPECT_TRUE(game->LegalActionsFor(1).empty());
}

TEST(AtlanticaVisibility, ASeatSeesItsOwnDiversAndOnlyTheNumberOfAnothers) {
  auto game = Position(2).Hand(0, {G, P}).Hand(1, {W, W, B}).Build();
  const v1::PositionView view = game->ViewFor(Viewer::ForSeat(1));
  EXPECT_EQ(view.players(0).items(0).name(), "divers in hand");
  EXPECT_EQ(view.players(0).items(0).count(), 2);
  EXPECT_EQ(view.players(0).items(0).detail(), "");
  EXPECT_EQ(view.players(1).items(0).detail(), "2 white, 1 blue");
  const std::string text = game->DescribeFor(Viewer::Spectator());
  EXPECT_NE(text.find("Seat 1: hand 2 divers (hidden)"), std::string::npos) << text;
  EXPECT_NE(text.find("Seat 2: hand 3 divers (hidden)"), std::string::npos) << text;
}

}  // namespace
}  // namespace arbiter::engine::atlantica::testing
