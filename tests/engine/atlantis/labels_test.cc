// Atlantis: the legal moves of a seat in words (docs/atlantis.md, "Actions in
// words"), and what a seat and a spectator are shown of the hands ("What is
// hidden from whom").
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

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
