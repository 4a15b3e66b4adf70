// Atlantica: a turn in words (docs/atlantica.md, "Actions in words"), that no
// label tells a hidden diver, and what a seat and a spectator are shown of the
// hands ("What is hidden from whom").
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "engine/atlantica/rules.h"
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

// How many times each diver colour is named in `text`, as a word.
std::map<std::string, int> ColourWords(const std::string& text) {
  std::set<std::string> colours;
  for (int colour = 0; colour < kColours; ++colour) colours.insert(ColourName(colour));
  std::map<std::string, int> words;
  for (absl::string_view word : absl::StrSplit(text, absl::ByAnyChar(" ,;:()"), absl::SkipEmpty())) {
    if (colours.count(std::string(word)) > 0) ++words[std::string(word)];
  }
  return words;
}

// The divers a turn lays face up, jokers included, by colour name.
std::map<std::string, int> DiversLaid(const v1::Action& action) {
  std::map<std::string, int> laid;
  for (const PlaceAction& place : action.atlantica().turn().actions()) {
    for (int colour : place.divers()) ++laid[ColourName(ColourIndex(static_cast<Colour>(colour)))];
    for (int colour : place.joker()) ++laid[ColourName(ColourIndex(static_cast<Colour>(colour)))];
  }
  return laid;
}

// Labels go to every seat and to spectators (ListEvents, WatchGame), so a
// label names no diver but those the turn lays face up, and it is the same
// in a position that differs only in what no other seat has seen: the other
// hand, the diver draw pile (what a pub action or a breath draws) and the
// face-down treasure and research decks.
TEST(AtlanticaLabels, NoLabelTellsAHandOrTheDiversDrawn) {
  auto seen = Position(2)
                  .Treasures({"gold", "amphorae", "ceramics", "", "", ""})
                  .Research({"R1", "R2", "", ""})
                  .Ships(0, {3, 2})
                  .Hand(0, {G, P, W, B, R, R})
                  .Hand(1, {Y, Y, B})
                  .DrawPile({W, W, G, P, Y})
                  .TreasureStack({"gold", "gold"})
                  .ResearchDeck({"R6", "R6"})
                  .Build();
  auto other = Position(2)
                   .Treasures({"gold", "amphorae", "ceramics", "", "", ""})
                   .Research({"R1", "R2", "", ""})
                   .Ships(0, {3, 2})
                   .Hand(0, {G, P, W, B, R, R})
                   .Hand(1, {R, P, G})
                   .DrawPile({Y, B, R, R, W})
                   .TreasureStack({"ceramics", "amphorae"})
                   .ResearchDeck({"R1", "R2"})
                   .Build();
  NameAnnAndBob(*seen);
  NameAnnAndBob(*other);
  std::vector<v1::Action> actions = {DrawBreath()};
  for (const LabelledMove& move : seen->LegalActionsFor(0)) actions.push_back(move.action);
  ASSERT_GE(actions.size(), 20u);
  for (const v1::Action& action : actions) {
    const std::string label = seen->Label(0, action);
    EXPECT_EQ(label, other->Label(0, action)) << action.ShortDebugString();
    const std::map<std::string, int> laid = DiversLaid(action);
    for (const auto& [colour, count] : ColourWords(label)) {
      const auto carried = laid.find(colour);
      EXPECT_LE(count, carried == laid.end() ? 0 : carried->second)
          << "\"" << label << "\" names " << colour << " more often than " << action.ShortDebugString() << " lays it";
    }
  }
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
