// Atlantis: the legal moves of a seat in words (docs/atlantis.md, "Actions in
// words"), that no label tells a hidden card, and what a seat and a spectator
// are shown of the hands ("What is hidden from whom").
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/atlantis/rules.h"
#include "tests/engine/atlantis/position_builder.h"

namespace arbiter::engine::atlantis {
namespace {

using testing::BridgeAction;
using testing::BuyAction;
using testing::MoveAction;
using testing::PassAction;
using testing::PositionBuilder;

void NameAnnAndBob(State& state) {
  state.set_players(std::make_shared<const Players>(std::vector<PlayerName>{{"ann", "Ann"}, {"bob", "Bob"}}));
}

std::vector<std::string> Listed(const State& state, Seat seat) {
  std::vector<std::string> lines;
  for (const LabelledMove& move : state.LegalActionsFor(seat)) lines.push_back("[" + move.group + "] " + move.label);
  return lines;
}

TEST(AtlantisLabels, EachActionOfATurnIsNamedWithThePlayerAndThePosition) {
  auto s = PositionBuilder(2).Path("F3 . O2 R4").Hand(0, "OF").Tiles(0, "C7").Build();
  NameAnnAndBob(*s);
  EXPECT_EQ(s->Label(0, BuyAction("C7")), "Ann (ann) buys cards with the CROWN 7 tile");
  EXPECT_EQ(s->Label(0, BridgeAction(2)), "Ann (ann) lays the bridge at 2");
  EXPECT_EQ(s->Label(0, MoveAction(1, "O", "C7")),
            "Ann (ann) moves figure 1 from Atlantis to 3 with OLIVE, paying the CROWN 7 tile");
  EXPECT_EQ(s->Label(0, PassAction()), "Ann (ann) cannot move, shows the hand and draws");
}

TEST(AtlantisLabels, AMoveThatIsNotLegalIsNamedWithoutItsRoute) {
  auto s = PositionBuilder(2).Path("F3 . O2 R4").Hand(0, "OF").Build();
  NameAnnAndBob(*s);
  // The gap costs 2; one card does not cover it.
  EXPECT_EQ(s->Label(0, MoveAction(1, "O", "", "F")),
            "Ann (ann) moves figure 1 with OLIVE, paying 1 card (FLAG)");
}

TEST(AtlantisLabels, AnActionOfASeatNotToActIsNamedWithoutItsRoute) {
  auto s = PositionBuilder(2).Path("F3 . O2").Hand(1, "O").Build();
  NameAnnAndBob(*s);
  EXPECT_EQ(s->Label(1, MoveAction(1, "O")), "Bob (bob) moves figure 1 with OLIVE");
  EXPECT_TRUE(s->LegalActionsFor(1).empty());
}

TEST(AtlantisLabels, TheListIsGroupedBuyBridgeThenEachFigure) {
  auto s = PositionBuilder(2).Path("F3 . O2 R4").Figure(0, 2, 1).Hand(0, "OF").Tiles(0, "C7").Build();
  NameAnnAndBob(*s);
  const std::vector<std::string> listed = Listed(*s, 0);
  ASSERT_GE(listed.size(), 7u);
  EXPECT_EQ(listed[0], "[buy] Ann (ann) buys cards with the CROWN 7 tile");
  EXPECT_EQ(listed[1], "[bridge] Ann (ann) lays the bridge at 2");
  EXPECT_EQ(listed[2],
            "[move figure 1] Ann (ann) moves figure 1 from Atlantis to 3 with FLAG, OLIVE, paying the CROWN 7 tile");
  EXPECT_EQ(listed[3], "[move figure 1] Ann (ann) moves figure 1 from Atlantis to 3 with FLAG, OLIVE, paying the "
                       "CROWN 7 tile, then lays the bridge at 2");
  EXPECT_EQ(listed[6],
            "[move figure 2] Ann (ann) moves figure 2 from 1 to the Mainland with FLAG, paying the CROWN 7 tile");
  for (std::size_t i = 6; i < listed.size(); ++i) EXPECT_EQ(listed[i].rfind("[move figure 2] ", 0), 0u) << listed[i];
}

// How many times each item's name appears in `text`.
std::map<std::string, int> ItemWords(const std::string& text) {
  std::map<std::string, int> words;
  for (int item = 0; item < kItems; ++item) {
    const std::string name = ItemName(item);
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + name.size())) {
      ++words[name];
    }
  }
  return words;
}

// The items an action lays on the table: its cards, the cards and tiles it
// pays, the tile it buys with.
std::map<std::string, int> ItemsShown(const v1::Action& action) {
  std::map<std::string, int> items;
  const v1::AtlantisAction& a = action.atlantis();
  for (int card : a.move().cards()) ++items[ItemName(ItemIndex(card))];
  for (int card : a.move().toll().cards()) ++items[ItemName(ItemIndex(card))];
  for (const v1::AtlantisTile& tile : a.move().toll().tiles()) ++items[ItemName(ItemIndex(tile.item()))];
  if (a.has_buy()) ++items[ItemName(ItemIndex(a.buy().tile().item()))];
  return items;
}

// Labels go to every seat and to spectators (ListEvents, WatchGame), so a
// label names no card but those the action lays on the table, and it is the
// same in a position that differs only in what nobody but a hand's holder
// has seen: the other seat's hand and the deck (the cards a Buy or a Pass
// draws).
TEST(AtlantisLabels, NoLabelTellsAHandOrTheCardsDrawn) {
  auto seen = PositionBuilder(2).Path("F3 . O2 R4 A5").Figure(0, 2, 1).Hand(0, "OFA").Tiles(0, "C7")
                  .Hand(1, "RRS").Deck("HHCCRS").Build();
  auto other = PositionBuilder(2).Path("F3 . O2 R4 A5").Figure(0, 2, 1).Hand(0, "OFA").Tiles(0, "C7")
                   .Hand(1, "CCH").Deck("SSAOFF").Build();
  NameAnnAndBob(*seen);
  NameAnnAndBob(*other);
  std::vector<v1::Action> actions = {PassAction()};
  for (const LabelledMove& move : seen->LegalActionsFor(0)) actions.push_back(move.action);
  ASSERT_GE(actions.size(), 8u);
  for (const v1::Action& action : actions) {
    const std::string label = seen->Label(0, action);
    EXPECT_EQ(label, other->Label(0, action)) << action.ShortDebugString();
    const std::map<std::string, int> shown = ItemsShown(action);
    for (const auto& [item, count] : ItemWords(label)) {
      const auto carried = shown.find(item);
      EXPECT_LE(count, carried == shown.end() ? 0 : carried->second)
          << "\"" << label << "\" names " << item << " more often than " << action.ShortDebugString() << " shows it";
    }
  }
}

TEST(AtlantisVisibility, ASeatSeesItsOwnCardsAndOnlyTheNumberOfAnothers) {
  auto s = PositionBuilder(2).Path("F3 . O2").Hand(0, "OF").Hand(1, "RRS").Build();
  const v1::PositionView view = s->ViewFor(Viewer::ForSeat(0));
  EXPECT_EQ(view.players(0).items(0).detail(), "FLAG x1, OLIVE x1");
  EXPECT_EQ(view.players(1).items(0).name(), "cards");
  EXPECT_EQ(view.players(1).items(0).count(), 3);
  EXPECT_EQ(view.players(1).items(0).detail(), "");
  const std::string text = s->DescribeFor(Viewer::Spectator());
  EXPECT_NE(text.find("Seat 2: cards hidden (3)"), std::string::npos) << text;
  EXPECT_EQ(text.find("RING x2"), std::string::npos) << text;
  EXPECT_EQ(s->DescribeFor(Viewer::Everyone()), s->ToString());
}

}  // namespace
}  // namespace arbiter::engine::atlantis
