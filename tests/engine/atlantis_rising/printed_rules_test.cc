// Atlantis Rising as printed: the limited supplies of the component list
// (issue 15), which data values the seed rulebook states, the options, and
// players' names in the sentences. Rulebook:
// 004_4e451f5a2e57c831.txt (Spanish; docs/rules/README.md), "Componentes".
#include <gtest/gtest.h>

#include <sstream>

#include "engine/atlantis_rising/game.h"
#include "tests/engine/atlantis_rising/position_builder.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using namespace testing;  // NOLINT: story verbs
using v1::AtlantisRising;

constexpr Peninsula kHills = AtlantisRising::HILLS;
constexpr Peninsula kForges = AtlantisRising::FORGES;

// "24 energía mística", "12 Cristal, mineral de hierro meteórico y oro",
// "16 Atlantium Metal".
TEST(AtlantisRisingPrintedRules, TheSuppliesAreTheComponentLists) {
  Table table(4);
  const Tables& t = table.state().tables();
  EXPECT_EQ(t.supply(ResourceIndex(AtlantisRising::ORE)), 12);
  EXPECT_EQ(t.supply(ResourceIndex(AtlantisRising::GOLD)), 12);
  EXPECT_EQ(t.supply(ResourceIndex(AtlantisRising::CRYSTAL)), 12);
  EXPECT_EQ(t.supply(ResourceIndex(AtlantisRising::ATLANTIUM)), 16);
  EXPECT_EQ(t.energy_supply(), 24);
}

TEST(AtlantisRisingPrintedRules, AGatheringRollGainsNothingFromAnEmptySupply) {
  Table table(4);
  table.ActionsWith({{1, Tile(kHills, 1)}}).Give(2, AtlantisRising::GOLD, 12).DiceSeed(SeedRollingFirst(6));
  table.Must(1, ActOn(Tile(kHills, 1)));
  EXPECT_EQ(table.Resource(1, AtlantisRising::GOLD), 0) << "all 12 gold are in seat 2's hands";
}

TEST(AtlantisRisingPrintedRules, PledgedResourcesStillCountAgainstTheSupply) {
  Table table(4);
  table.ActionsWith({{1, Tile(kHills, 1)}, {2, Site(1)}}).Give(2, AtlantisRising::GOLD, 12);
  table.Must(2, Pledge(1, AtlantisRising::GOLD));
  table.DiceSeed(SeedRollingFirst(6));
  table.Must(1, ActOn(Tile(kHills, 1)));
  EXPECT_EQ(table.Resource(1, AtlantisRising::GOLD), 0);
}

TEST(AtlantisRisingPrintedRules, TheForgeGainsOnlyWhatIsLeftOfTheAtlantium) {
  Table table(4);
  const int rate = table.state().tables().peninsula(PeninsulaIndex(kForges)).tiles(0).value();
  ASSERT_GE(rate, 2);
  table.ActionsWith({{1, Tile(kForges, 1)}}).Give(1, AtlantisRising::ORE, 1).Give(2, AtlantisRising::ATLANTIUM, 15);
  table.Must(1, ActOn(Tile(kForges, 1)));
  EXPECT_EQ(table.Resource(1, AtlantisRising::ORE), 0) << "the ore goes back to the supply";
  EXPECT_EQ(table.Resource(1, AtlantisRising::ATLANTIUM), 1) << "16 in the box, 15 already held";
}

TEST(AtlantisRisingPrintedRules, MysticEnergyRunsOutAtTwentyFour) {
  Table table(4);
  table.ActionsWith({{1, Centre()}, {1, Centre()}}).Energy(1, 0).Energy(2, 23).Energy(3, 0).Energy(4, 0);
  table.Must(1, ActOn(Centre()));
  EXPECT_EQ(table.player(1).energy, 1);
  table.Must(1, ActOn(Centre()));
  EXPECT_EQ(table.player(1).energy, 1) << "the supply is empty";
}

TEST(AtlantisRisingPrintedRules, ARulesetWithoutSuppliesKeepsThemUnlimited) {
  v1::Ruleset ruleset = DefaultRuleset();
  ruleset.mutable_atlantis_rising()->clear_supplies();
  Table table(4, 1, {}, &ruleset);
  table.ActionsWith({{1, Tile(kHills, 1)}}).Give(2, AtlantisRising::GOLD, 12).DiceSeed(SeedRollingFirst(6));
  table.Must(1, ActOn(Tile(kHills, 1)));
  EXPECT_EQ(table.Resource(1, AtlantisRising::GOLD), 1);
}

// The seed rulebook's introductory mode is for 4-7 players; the 1-3 player
// rows, the solo energy and the floods on a flooded peninsula come from
// public summaries and are tagged `source`, not `rule`.
TEST(AtlantisRisingPrintedRules, ValuesTheSeedRulebookDoesNotStateAreTaggedSource) {
  std::istringstream text{std::string(DefaultRulesetText())};
  int source_rows = 0;
  for (std::string line; std::getline(text, line);) {
    if (line.find("player_counts { players: ") != std::string::npos) {
      const bool small = line.find("players: 1 ") != std::string::npos || line.find("players: 2 ") != std::string::npos ||
                         line.find("players: 3 ") != std::string::npos;
      EXPECT_EQ(line.find("# source") != std::string::npos, small) << line;
      source_rows += small;
    }
    if (line.find("flooded_peninsula_floods:") != std::string::npos) {
      EXPECT_NE(line.find("# source"), std::string::npos) << line;
    }
  }
  EXPECT_EQ(source_rows, 3);
}

TEST(AtlantisRisingOptions, DifficultyAndBlueprintAreListedFromTheRuleset) {
  const std::vector<OptionSpec> options = AtlantisRisingGame().Options(DefaultRuleset());
  ASSERT_EQ(options.size(), 2u);
  EXPECT_EQ(options[0].key, "difficulty");
  EXPECT_EQ(options[0].values.front().value, "introductory");
  EXPECT_EQ(options[0].values.front().meaning, "9 Calm Seas, 3 Controlled Floods");
  EXPECT_EQ(options[1].key, "blueprint");
  EXPECT_EQ(options[1].values.front().value, "introductory");
}

TEST(AtlantisRisingNames, ViolationsNamePlayersByNameAndId) {
  GameSetup setup;
  setup.ruleset = &DefaultRuleset();
  setup.num_players = 4;
  setup.players = {{"ann", "Ann"}, {"bob", "Bob"}, {"cy", ""}, {"di", "Di"}};
  auto state = *AtlantisRisingGame().NewInitialState(setup);
  ASSERT_EQ(state->Apply(0, PlaceOn(Site(1))), std::nullopt);
  const std::optional<Violation> v = state->Check(0, PlaceOn(Site(1)));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->detail.rfind("Ann (ann) already has an Atlantean on ", 0), 0u) << v->detail;
}

}  // namespace
}  // namespace arbiter::engine::atlantis_rising
