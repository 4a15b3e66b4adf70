// Atlantis Rising: the actions in words (docs/atlantis-rising.md, "Actions in
// words"), a Keep's label naming no card.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/engine/atlantis_rising/position_builder.h"

namespace arbiter::engine::atlantis_rising::testing {
namespace {

std::string LabelOf(Table& table, const v1::Action& action) {
  table.state().set_players(
      std::make_shared<const Players>(std::vector<PlayerName>{{"ann", "Ann"}, {"bob", "Bob"}}));
  return table.state().Label(0, action);
}

TEST(AtlantisRisingLabels, EveryKindOfActionIsASentenceWithThePlayersName) {
  Table table(2);
  EXPECT_EQ(LabelOf(table, PlaceOn(Tile(AtlantisRising::HILLS, 2))), "Ann (ann) places an Atlantean on hills tile 2");
  EXPECT_EQ(LabelOf(table, PlaceOn(Centre())), "Ann (ann) places an Atlantean on the centre");
  EXPECT_EQ(LabelOf(table, PlaceOn(Site(1))), "Ann (ann) places an Atlantean on build site 1");
  EXPECT_EQ(LabelOf(table, PlaceOn(OnComponent("power-core"))), "Ann (ann) places an Atlantean on the Power Core");
  EXPECT_EQ(LabelOf(table, FinishPlacement()), "Ann (ann) places no more Atlanteans this round");
  EXPECT_EQ(LabelOf(table, FloodAction(AtlantisRising::HILLS)), "Ann (ann) floods the hills");
  EXPECT_EQ(LabelOf(table, ActOn(Tile(AtlantisRising::FORESTS, 3))), "Ann (ann) acts on forests tile 3");
  EXPECT_EQ(LabelOf(table, ActOn(Centre(), AtlantisRising::GOLD)), "Ann (ann) acts on the centre for GOLD");
  EXPECT_EQ(LabelOf(table, Boost(0)), "Ann (ann) accepts the roll");
  EXPECT_EQ(LabelOf(table, Boost(2)), "Ann (ann) spends 2 mystic energy on the roll");
  EXPECT_EQ(LabelOf(table, Pledge(1, AtlantisRising::GOLD)), "Ann (ann) pledges GOLD to build site 1");
  EXPECT_EQ(LabelOf(table, Build(1, "power-core")), "Ann (ann) builds the Power Core at build site 1");
  EXPECT_EQ(LabelOf(table, Abandon(1)), "Ann (ann) abandons build site 1");
  EXPECT_EQ(LabelOf(table, Play("hidden-cache", AtlantisRising::GOLD)), "Ann (ann) plays hidden-cache for GOLD");
  EXPECT_EQ(LabelOf(table, Discard("sea-wall")), "Ann (ann) discards sea-wall");
}

TEST(AtlantisRisingLabels, AKeepSaysHowManyCardsAreKeptNeverWhich) {
  Table table(2);
  const std::string label = LabelOf(table, Keep({"mystic-insight", "sea-wall"}));
  EXPECT_EQ(label, "Ann (ann) keeps 2 of the library cards drawn");
  EXPECT_EQ(label.find("sea-wall"), std::string::npos);
}

}  // namespace
}  // namespace arbiter::engine::atlantis_rising::testing
