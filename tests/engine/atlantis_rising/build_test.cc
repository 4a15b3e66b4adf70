// Atlantis Rising building: pledges from the players on a build site, exact
// payment, failed builds, winning on the last component and the standings.
#include <gtest/gtest.h>

#include "tests/engine/atlantis_rising/position_builder.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using namespace testing;  // NOLINT: story verbs
using v1::AtlantisRising;

constexpr Resource kGold = AtlantisRising::GOLD;
constexpr Resource kCrystal = AtlantisRising::CRYSTAL;
constexpr Resource kAtlantium = AtlantisRising::ATLANTIUM;

const Resources& CostOf(Table& table, const std::string& id) {
  return table.state().tables().cost(table.state().tables().ComponentIndex(id));
}

int Amount(const Resources& r, Resource which) { return r[static_cast<std::size_t>(ResourceIndex(which))]; }

// Seats 1 and 2 on build site 1, seat 3 on the centre, each with `each` of
// every building resource.
Table TwoBuilders(int each) {
  Table table(4);
  table.ActionsWith({{1, Site(1)}, {2, Site(1)}, {3, Centre()}});
  for (int seat : {1, 2}) {
    for (Resource r : {kGold, kCrystal, kAtlantium}) table.Give(seat, r, each);
  }
  return table;
}

// Pledges the cost of `id` on site 1: seat 1 gives the gold and crystal, seat 2
// the Atlantium.
void PledgeCost(Table& table, const std::string& id) {
  const Resources cost = CostOf(table, id);
  for (int i = 0; i < Amount(cost, kGold); ++i) table.Must(1, Pledge(1, kGold));
  for (int i = 0; i < Amount(cost, kCrystal); ++i) table.Must(1, Pledge(1, kCrystal));
  for (int i = 0; i < Amount(cost, kAtlantium); ++i) table.Must(2, Pledge(1, kAtlantium));
}

TEST(AtlantisRisingBuilding, PlayersOnASitePoolTheirResources) {
  Table table = TwoBuilders(5);
  const Resources cost = CostOf(table, "a1");
  PledgeCost(table, "a1");
  table.Must(2, Build(1, "a1"));
  EXPECT_TRUE(table.pos().built[static_cast<std::size_t>(table.state().BlueprintIndex("a1"))]);
  EXPECT_EQ(table.Resource(1, kGold), 5 - Amount(cost, kGold));
  EXPECT_EQ(table.Resource(2, kAtlantium), 5 - Amount(cost, kAtlantium));
  EXPECT_EQ(Amount(table.player(1).given, kGold) + Amount(table.player(1).given, kCrystal),
            Amount(cost, kGold) + Amount(cost, kCrystal));
  EXPECT_EQ(Amount(table.player(2).given, kAtlantium), Amount(cost, kAtlantium));
  EXPECT_EQ(table.RuleOf(1, Pledge(1, kGold)), "build_site_resolved");
}

TEST(AtlantisRisingBuilding, PledgingWithoutTheResourceIsRefused) {
  Table table = TwoBuilders(0);
  EXPECT_EQ(table.RuleOf(1, Pledge(1, kGold)), "not_enough_resources");
}

TEST(AtlantisRisingBuilding, BuildingWithoutTheFullCostIsRefusedAndChangesNothing) {
  Table table = TwoBuilders(5);
  table.Must(1, Pledge(1, kGold));
  const std::string before = table.state().ToString();
  EXPECT_EQ(table.RuleOf(1, Build(1, "a1")), "build_not_paid");
  EXPECT_EQ(table.state().ToString(), before);
  EXPECT_EQ(table.Resource(1, kGold), 4);
}

TEST(AtlantisRisingBuilding, AnAbandonedSiteReturnsThePledgesUntouched) {
  Table table = TwoBuilders(2);
  table.Must(1, Pledge(1, kGold));
  table.Must(2, Pledge(1, kCrystal));
  table.Must(2, Abandon(1));
  for (int seat : {1, 2}) {
    for (Resource r : {kGold, kCrystal, kAtlantium}) EXPECT_EQ(table.Resource(seat, r), 2);
  }
  EXPECT_EQ(table.RuleOf(1, Abandon(1)), "build_site_resolved");
  EXPECT_EQ(table.player(1).given, Resources{});
}

TEST(AtlantisRisingBuilding, APledgeBeyondEveryCostIsRefused) {
  Table table = TwoBuilders(40);
  int most_gold = 0;
  for (std::size_t b = 0; b < table.pos().blueprint.size(); ++b) {
    most_gold = std::max(most_gold, Amount(table.state().tables().cost(table.pos().blueprint[b]), kGold));
  }
  for (int i = 0; i < most_gold; ++i) table.Must(1, Pledge(1, kGold));
  EXPECT_EQ(table.RuleOf(1, Pledge(1, kGold)), "pledge_exceeds_cost");
  EXPECT_EQ(table.RuleOf(1, Pledge(1, AtlantisRising::ORE)), "not_enough_resources");
}

TEST(AtlantisRisingBuilding, OnlyPlayersOnTheSiteTakePart) {
  Table table = TwoBuilders(5);
  table.Give(3, kGold, 3);
  EXPECT_EQ(table.RuleOf(3, Pledge(1, kGold)), "not_on_build_site");
  EXPECT_EQ(table.RuleOf(3, Abandon(1)), "not_on_build_site");
  EXPECT_EQ(table.RuleOf(1, ActOn(Site(1))), "build_site_needs_build");
  EXPECT_EQ(table.RuleOf(1, Build(1, "b3")), "unknown_component");
}

TEST(AtlantisRisingBuilding, ABuiltComponentCannotBeBuiltAgain) {
  Table table = TwoBuilders(5);
  table.Built("a1");
  PledgeCost(table, "a2");
  EXPECT_EQ(table.RuleOf(1, Build(1, "a1")), "component_already_built");
}

TEST(AtlantisRisingBuilding, BuildingTheLastComponentWinsTheGame) {
  Table table = TwoBuilders(10);
  for (int c : table.pos().blueprint) {
    const std::string& id = table.state().tables().component(c).id();
    if (id != "power-core") table.Built(id);
  }
  PledgeCost(table, "power-core");
  table.Must(1, Build(1, "power-core"));
  ASSERT_TRUE(table.state().IsTerminal());
  auto standings = table.state().Final();
  ASSERT_TRUE(standings.has_value());
  EXPECT_TRUE(standings->cooperative());
  EXPECT_EQ(standings->team_outcome(), v1::TEAM_OUTCOME_WON);
  ASSERT_EQ(standings->team_breakdown_size(), 3);
  EXPECT_EQ(standings->team_breakdown(0).label(), "round reached");
  EXPECT_EQ(standings->team_breakdown(0).points(), 1);
  EXPECT_EQ(standings->team_breakdown(1).label(), "components built");
  EXPECT_EQ(standings->team_breakdown(1).points(), 10);
  EXPECT_EQ(standings->team_breakdown(2).label(), "dry tiles left");
  EXPECT_EQ(standings->team_breakdown(2).points(), 36);
  const Resources cost = CostOf(table, "power-core");
  ASSERT_EQ(standings->players_size(), 4);
  EXPECT_EQ(standings->players(0).score(), Amount(cost, kGold) + Amount(cost, kCrystal));
  EXPECT_EQ(standings->players(1).score(), Amount(cost, kAtlantium));
  EXPECT_EQ(standings->players(2).score(), 0);
  for (const auto& line : standings->players()) {
    EXPECT_EQ(line.place(), 1);
    EXPECT_EQ(line.breakdown_size(), 3);
  }
  EXPECT_EQ(table.state().LegalActions().size(), 0u);
}

TEST(AtlantisRisingBuilding, LegalActionsOfferTheBuildOnceThePledgesMatch) {
  Table table = TwoBuilders(5);
  PledgeCost(table, "a1");
  bool offered = false;
  for (const Move& move : table.state().LegalActions()) {
    const auto& a = move.action.atlantis_rising();
    offered = offered || (a.has_build() && a.build().component() == "a1");
  }
  EXPECT_TRUE(offered);
}

}  // namespace
}  // namespace arbiter::engine::atlantis_rising
