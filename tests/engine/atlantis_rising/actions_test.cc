// Atlantis Rising actions: gathering rolls and mystic energy, cities, libraries
// and the hand limit, forges, the centre and library cards.
#include <gtest/gtest.h>

#include <functional>

#include "engine/core/rng.h"
#include "tests/engine/atlantis_rising/position_builder.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using namespace testing;  // NOLINT: story verbs
using v1::AtlantisRising;

constexpr Peninsula kHills = AtlantisRising::HILLS;
constexpr Peninsula kCities = AtlantisRising::CITIES;
constexpr Peninsula kLibraries = AtlantisRising::LIBRARIES;
constexpr Peninsula kForges = AtlantisRising::FORGES;
constexpr Resource kGold = AtlantisRising::GOLD;

// A seed whose first two six-sided rolls satisfy `wanted(first + second)`.
uint64_t SeedRollingTwo(const std::function<bool(int)>& wanted) {
  for (uint64_t seed = 1;; ++seed) {
    Rng rng(seed);
    const int a = rng.Roll(6);
    if (wanted(a + rng.Roll(6))) return seed;
  }
}

int TileValue(Table& table, Peninsula p, int position) {
  return table.state().tables().peninsula(PeninsulaIndex(p)).tiles(position - 1).value();
}

TEST(AtlantisRisingGathering, ASuccessfulRollGathersOneResource) {
  Table table(4);
  table.ActionsWith({{1, Tile(kHills, 1)}}).DiceSeed(SeedRollingFirst(6));
  table.Must(1, ActOn(Tile(kHills, 1)));
  EXPECT_EQ(table.Resource(1, kGold), 1);
  EXPECT_EQ(table.pos().pending.kind, Decision::kNone);
}

TEST(AtlantisRisingGathering, ARollBoostedWithMysticEnergySucceeds) {
  Table table(4);
  const int target = TileValue(table, kHills, 1);
  table.ActionsWith({{1, Tile(kHills, 1)}, {2, Tile(kHills, 1)}}).Energy(1, 4).DiceSeed(SeedRollingFirst(1));
  table.Must(1, ActOn(Tile(kHills, 1)));
  ASSERT_EQ(table.pos().pending.kind, Decision::kRoll);
  EXPECT_EQ(table.pos().pending.total, 1);
  EXPECT_EQ(table.RuleOf(2, Boost(1)), "not_the_roller");  // only the roller may spend
  EXPECT_EQ(table.RuleOf(1, Boost(5)), "not_enough_energy");
  EXPECT_EQ(table.RuleOf(2, ActOn(Tile(kHills, 1))), "decision_pending");
  table.Must(1, Boost(1));
  EXPECT_EQ(table.pos().pending.kind, Decision::kRoll);  // 2 is still short
  table.Must(1, Boost(target - 2));
  EXPECT_EQ(table.Resource(1, kGold), 1);
  EXPECT_EQ(table.player(1).energy, 4 - (target - 1));
  EXPECT_EQ(table.pos().pending.kind, Decision::kNone);
}

TEST(AtlantisRisingGathering, AcceptingAFailedRollGathersNothing) {
  Table table(4);
  table.ActionsWith({{1, Tile(kHills, 6)}}).Energy(1, 2).DiceSeed(SeedRollingFirst(1));
  table.Must(1, ActOn(Tile(kHills, 6)));
  table.Must(1, Boost(0));
  EXPECT_EQ(table.Resource(1, kGold), 0);
  EXPECT_EQ(table.player(1).energy, 2);
}

TEST(AtlantisRisingGathering, AFailedRollWithoutEnergyEndsAtOnce) {
  Table table(4);
  table.ActionsWith({{1, Tile(kHills, 6)}}).Energy(1, 0).DiceSeed(SeedRollingFirst(1));
  table.Must(1, ActOn(Tile(kHills, 6)));
  EXPECT_EQ(table.pos().pending.kind, Decision::kNone);
  EXPECT_EQ(table.Resource(1, kGold), 0);
}

TEST(AtlantisRisingGathering, OnlyTheOwnerActsAndOnlyOnce) {
  Table table(4);
  table.ActionsWith({{1, Tile(kHills, 1)}, {1, Centre()}}).DiceSeed(SeedRollingFirst(6));
  EXPECT_EQ(table.RuleOf(2, ActOn(Tile(kHills, 1))), "no_atlantean_there");
  table.Must(1, ActOn(Tile(kHills, 1)));
  EXPECT_EQ(table.RuleOf(1, ActOn(Tile(kHills, 1))), "no_atlantean_there");
  EXPECT_EQ(table.RuleOf(1, ActOn(Tile(kHills, 9))), "unknown_tile");
}

TEST(AtlantisRisingCities, APairRecruitsAFollowerForTheActingPlayer) {
  Table table(4);
  const int target = TileValue(table, kCities, 1);
  table.ActionsWith({{1, Tile(kCities, 1)}, {2, Tile(kCities, 1)}, {3, Centre()}})
      .DiceSeed(SeedRollingTwo([&](int sum) { return sum >= target; }));
  table.Must(2, ActOn(Tile(kCities, 1)));
  EXPECT_EQ(table.player(2).atlanteans, 4);
  EXPECT_EQ(table.player(2).reserve, 2);
  EXPECT_EQ(table.player(1).atlanteans, 3);
  EXPECT_EQ(table.RuleOf(1, ActOn(Tile(kCities, 1))), "no_atlantean_there");  // the pair acted together
}

TEST(AtlantisRisingCities, TheFollowerGoesToThePartnerWhenTheActorsReserveIsEmpty) {
  Table table(4);
  const int target = TileValue(table, kCities, 1);
  table.ActionsWith({{1, Tile(kCities, 1)}, {2, Tile(kCities, 1)}})
      .DiceSeed(SeedRollingTwo([&](int sum) { return sum >= target; }));
  table.edit_player(2).reserve = 0;
  table.Must(2, ActOn(Tile(kCities, 1)));
  EXPECT_EQ(table.player(1).atlanteans, 4);
  EXPECT_EQ(table.player(2).atlanteans, 3);
}

TEST(AtlantisRisingCities, TheWrathValueIsAddedToTheRoll) {
  Table table(4);
  const int target = TileValue(table, kCities, 1);
  const int top = table.state().tables().max_wrath_level();
  const int wrath = table.state().tables().WrathValue(top);
  ASSERT_GT(wrath, 0);
  table.edit().wrath_level = top;
  table.ActionsWith({{1, Tile(kCities, 1)}, {1, Tile(kCities, 1)}})
      .Energy(1, 0)
      .DiceSeed(SeedRollingTwo([&](int sum) { return sum < target && sum + wrath >= target; }));
  table.Must(1, ActOn(Tile(kCities, 1)));
  EXPECT_EQ(table.player(1).atlanteans, 4);
}

TEST(AtlantisRisingCities, EitherPlayerOfThePairMayBoost) {
  Table table(4);
  const int target = TileValue(table, kCities, 1);
  table.ActionsWith({{1, Tile(kCities, 1)}, {2, Tile(kCities, 1)}, {3, Centre()}})
      .Energy(1, 0)
      .Energy(2, 10)
      .DiceSeed(SeedRollingTwo([&](int sum) { return sum < target; }));
  table.Must(1, ActOn(Tile(kCities, 1)));
  ASSERT_EQ(table.pos().pending.kind, Decision::kRoll);
  EXPECT_EQ(table.RuleOf(3, Boost(1)), "not_the_roller");
  const int needed = target - table.pos().pending.total;
  table.Must(2, Boost(needed));
  EXPECT_EQ(table.player(1).atlanteans, 4);  // seat 1 acted, so seat 1 recruits
  EXPECT_EQ(table.player(2).energy, 10 - needed);
}

TEST(AtlantisRisingCities, ALoneAtlanteanCannotActivateACity) {
  Table table(4);
  table.ActionsWith({{1, Tile(kCities, 1)}, {2, Centre()}}).DiceSeed(SeedRollingTwo([](int) { return true; }));
  table.Must(1, ActOn(Tile(kCities, 1)));
  EXPECT_EQ(table.player(1).atlanteans, 3);
  EXPECT_EQ(table.pos().pending.kind, Decision::kNone);
}

TEST(AtlantisRisingLibraries, TheReaderKeepsUpToTheTilesNumber) {
  Table table(4);
  const int keep = TileValue(table, kLibraries, 6);
  ASSERT_EQ(keep, 1);
  table.ActionsWith({{1, Tile(kLibraries, 6)}, {2, Centre()}})
      .LibraryDeck({"sea-wall", "mystic-insight", "hidden-cache"})
      .Energy(1, 0);
  table.Must(1, ActOn(Tile(kLibraries, 6)));
  ASSERT_EQ(table.pos().pending.kind, Decision::kKeep);
  EXPECT_EQ(table.RuleOf(2, Keep({"sea-wall"})), "not_the_reader");
  EXPECT_EQ(table.RuleOf(1, Keep({"hidden-cache"})), "card_not_drawn");
  EXPECT_EQ(table.RuleOf(1, Keep({"sea-wall", "mystic-insight"})), "not_enough_energy");
  table.Must(1, Keep({"sea-wall"}));
  ASSERT_EQ(table.player(1).hand.size(), 1u);
  EXPECT_EQ(table.pos().library_deck.size(), 1u);
  EXPECT_EQ(table.pos().library_discard.size(), 1u);
}

TEST(AtlantisRisingLibraries, ExtraCardsCostOneEnergyEach) {
  Table table(4);
  table.ActionsWith({{1, Tile(kLibraries, 6)}}).LibraryDeck({"sea-wall", "mystic-insight"}).Energy(1, 1);
  table.Must(1, ActOn(Tile(kLibraries, 6)));
  table.Must(1, Keep({"mystic-insight", "sea-wall"}));
  EXPECT_EQ(table.player(1).hand.size(), 2u);
  EXPECT_EQ(table.player(1).energy, 0);
}

TEST(AtlantisRisingLibraries, AboveTheHandLimitThePlayerMustPlayOrDiscardAtOnce) {
  Table table(4);
  table.ActionsWith({{1, Tile(kLibraries, 1)}, {2, Centre()}})
      .Hand(1, {"sea-wall", "sea-wall", "mystic-insight", "raise-the-land"})
      .LibraryDeck({"hidden-cache", "mystic-insight"});
  table.Must(1, ActOn(Tile(kLibraries, 1)));
  table.Must(1, Keep({"hidden-cache"}));
  EXPECT_EQ(table.player(1).hand.size(), 5u);
  EXPECT_EQ(table.RuleOf(2, ActOn(Centre())), "hand_over_limit");
  EXPECT_EQ(table.RuleOf(1, Discard("artifact-1")), "card_not_in_hand");
  table.Must(1, Discard("sea-wall"));
  EXPECT_EQ(table.player(1).hand.size(), 4u);
  table.Must(2, ActOn(Centre()));
}

TEST(AtlantisRisingLibraries, TheDeckIsNeverReshuffled) {
  Table table(4);
  table.ActionsWith({{1, Tile(kLibraries, 1)}, {2, Tile(kLibraries, 2)}}).LibraryDeck({"sea-wall"});
  table.edit().library_discard = {table.state().tables().CardIndex("mystic-insight")};
  table.Must(1, ActOn(Tile(kLibraries, 1)));
  table.Must(1, Keep({"sea-wall"}));
  table.Must(2, ActOn(Tile(kLibraries, 2)));  // the deck is spent: nothing to draw
  EXPECT_EQ(table.pos().pending.kind, Decision::kNone);
  EXPECT_TRUE(table.player(2).hand.empty());
}

TEST(AtlantisRisingForges, OneOreBecomesTheTilesAtlantium) {
  Table table(4);
  const int rate = TileValue(table, kForges, 1);
  table.ActionsWith({{1, Tile(kForges, 1)}, {2, Tile(kForges, 2)}}).Give(1, AtlantisRising::ORE, 2);
  table.Must(1, ActOn(Tile(kForges, 1)));
  EXPECT_EQ(table.Resource(1, AtlantisRising::ORE), 1);
  EXPECT_EQ(table.Resource(1, AtlantisRising::ATLANTIUM), rate);
  table.Must(2, ActOn(Tile(kForges, 2)));  // no ore: nothing happens
  EXPECT_EQ(table.Resource(2, AtlantisRising::ATLANTIUM), 0);
}

TEST(AtlantisRisingCentre, EachAtlanteanThereGivesMysticEnergy) {
  Table table(4);
  table.ActionsWith({{1, Centre()}, {1, Centre()}}).Energy(1, 0);
  table.Must(1, ActOn(Centre()));
  table.Must(1, ActOn(Centre()));
  EXPECT_EQ(table.player(1).energy, 2);
}

TEST(AtlantisRisingCards, CardsTakeEffectWhenPlayed) {
  Table table(4);
  table.Hand(1, {"mystic-insight", "hidden-cache", "raise-the-land", "sea-wall"}).Energy(1, 0).Flooded(kHills, 2);
  table.Must(1, Play("mystic-insight"));
  EXPECT_EQ(table.player(1).energy, 1);
  EXPECT_EQ(table.RuleOf(1, Play("hidden-cache")), "card_choice_missing");
  table.Must(1, Play("hidden-cache", AtlantisRising::CRYSTAL));
  EXPECT_EQ(table.Resource(1, AtlantisRising::CRYSTAL), 1);
  EXPECT_EQ(table.RuleOf(1, Play("raise-the-land", AtlantisRising::RESOURCE_UNSPECIFIED, kCities)),
            "nothing_to_dry");
  table.Must(1, Play("raise-the-land", AtlantisRising::RESOURCE_UNSPECIFIED, kHills));
  EXPECT_EQ(table.pos().flooded[PeninsulaIndex(kHills)], 1);
  EXPECT_EQ(table.RuleOf(2, Play("sea-wall")), "card_not_in_hand");
  table.Must(1, Play("sea-wall"));
  EXPECT_EQ(table.pos().flood_shield, 1);
  EXPECT_EQ(table.pos().library_discard.size(), 4u);
}

// GAIN_RESOURCE gives the printed resource; a resource named in the action
// is a choice only GAIN_RESOURCE_CHOICE asks for, and is ignored here
// (documented choice: the card's print decides).
TEST(AtlantisRisingCards, AGainResourceCardGivesItsPrintedResource) {
  Table table(4);
  table.Hand(1, {"artifact-4", "artifact-10"});
  const int gold = table.Resource(1, kGold);
  const int ore = table.Resource(1, AtlantisRising::ORE);
  const int crystal = table.Resource(1, AtlantisRising::CRYSTAL);
  table.Must(1, Play("artifact-4"));
  EXPECT_EQ(table.Resource(1, kGold), gold + 2);
  table.Must(1, Play("artifact-10", AtlantisRising::CRYSTAL));
  EXPECT_EQ(table.Resource(1, AtlantisRising::ORE), ore + 3);
  EXPECT_EQ(table.Resource(1, AtlantisRising::CRYSTAL), crystal);
  EXPECT_EQ(table.pos().library_discard.size(), 2u);
}

TEST(AtlantisRisingCards, ACancelledFloodLeavesTheTileDry) {
  Table table(4);
  table.Hand(1, {"sea-wall"});
  table.Must(1, Play("sea-wall"));
  for (int seat = 1; seat <= 4; ++seat) {
    while (table.player(seat).pool > 0) table.Must(seat, PlaceOn(Centre()));
  }
  table.MisfortuneDeck({{AtlantisRising::FLOOD, kHills}, {AtlantisRising::FLOOD, kHills},
                        {AtlantisRising::CALM_SEAS, AtlantisRising::PENINSULA_UNSPECIFIED},
                        {AtlantisRising::CALM_SEAS, AtlantisRising::PENINSULA_UNSPECIFIED}});
  table.Must(1, FinishPlacement());
  EXPECT_EQ(table.pos().flooded[PeninsulaIndex(kHills)], 1);
  EXPECT_EQ(table.pos().flood_shield, 0);
}

}  // namespace
}  // namespace arbiter::engine::atlantis_rising
