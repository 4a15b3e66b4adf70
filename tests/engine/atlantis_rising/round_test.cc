// Atlantis Rising rounds: placement, misfortunes, the Wrath of the Gods, the
// start marker, and the rule ids of misplaced or out-of-phase actions.
#include <gtest/gtest.h>

#include "tests/engine/atlantis_rising/position_builder.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using namespace testing;  // NOLINT: story verbs
using v1::AtlantisRising;

constexpr Peninsula kHills = AtlantisRising::HILLS;
constexpr Peninsula kForests = AtlantisRising::FORESTS;
constexpr Peninsula kForges = AtlantisRising::FORGES;
constexpr Peninsula kMountains = AtlantisRising::MOUNTAINS;

std::pair<AtlantisRising::Misfortune, Peninsula> Calm() {
  return {AtlantisRising::CALM_SEAS, AtlantisRising::PENINSULA_UNSPECIFIED};
}
std::pair<AtlantisRising::Misfortune, Peninsula> Controlled() {
  return {AtlantisRising::CONTROLLED_FLOOD, AtlantisRising::PENINSULA_UNSPECIFIED};
}
std::pair<AtlantisRising::Misfortune, Peninsula> FloodCard(Peninsula p) { return {AtlantisRising::FLOOD, p}; }

void PlaceRestOnCentre(Table& table) {
  for (int seat = 1; seat <= table.state().num_players(); ++seat) {
    while (table.player(seat).pool > 0) table.Must(seat, PlaceOn(Centre()));
  }
}

// Every Atlantean on the centre, Calm Seas only, everyone acts.
void PlayQuietRound(Table& table) {
  table.MisfortuneDeck(std::vector<std::pair<AtlantisRising::Misfortune, Peninsula>>(10, Calm()));
  PlaceRestOnCentre(table);
  table.Must(1, FinishPlacement());
  for (int seat = 1; seat <= table.state().num_players(); ++seat) {
    while (table.pos().spots[AtlantisRisingState::kCentre].waiting[static_cast<std::size_t>(seat - 1)] > 0) {
      table.Must(seat, ActOn(Centre()));
    }
  }
}

TEST(AtlantisRisingPlacement, AFullTileRefusesAnotherAtlantean) {
  Table table(4);
  table.Must(1, PlaceOn(Tile(kForges, 1)));  // a forge tile has one disc
  EXPECT_EQ(table.RuleOf(2, PlaceOn(Tile(kForges, 1))), "spot_full");
  table.Must(2, PlaceOn(Tile(kHills, 1)));
  table.Must(3, PlaceOn(Tile(kHills, 1)));  // two discs
  EXPECT_EQ(table.RuleOf(4, PlaceOn(Tile(kHills, 1))), "spot_full");
}

TEST(AtlantisRisingPlacement, AFloodedTileRefusesAtlanteans) {
  Table table(4);
  table.Flooded(kHills, 2);
  EXPECT_EQ(table.RuleOf(1, PlaceOn(Tile(kHills, 2))), "tile_flooded");
  table.Must(1, PlaceOn(Tile(kHills, 3)));
}

TEST(AtlantisRisingPlacement, UnknownTilesSitesAndComponentsAreRefused) {
  Table table(4);
  EXPECT_EQ(table.RuleOf(1, PlaceOn(Tile(kHills, 7))), "unknown_tile");
  EXPECT_EQ(table.RuleOf(1, PlaceOn(Site(3))), "unknown_build_site");  // 4 players: two sites
  EXPECT_EQ(table.RuleOf(1, PlaceOn(OnComponent("b3"))), "unknown_component");  // not in the Blueprint
  EXPECT_EQ(table.RuleOf(1, PlaceOn(OnComponent("mystic-siphon"))), "component_not_built");
  table.Built("mystic-siphon");
  EXPECT_EQ(table.RuleOf(1, PlaceOn(OnComponent("mystic-siphon"))), "component_has_no_discs");
  EXPECT_EQ(table.player(1).pool, 3);
}

TEST(AtlantisRisingPlacement, AnAtlanteanCannotBePlacedTwice) {
  Table table(4);
  for (int i = 0; i < 3; ++i) table.Must(1, PlaceOn(Centre()));
  EXPECT_EQ(table.RuleOf(1, PlaceOn(Centre())), "atlantean_already_placed");
  EXPECT_EQ(table.pos().spots[AtlantisRisingState::kCentre].placed[0], 3);
}

TEST(AtlantisRisingPlacement, FinishingWithAtlanteansInThePoolIsRefused) {
  Table table(2);
  for (int i = 0; i < 5; ++i) table.Must(1, PlaceOn(Centre()));
  for (int i = 0; i < 4; ++i) table.Must(2, PlaceOn(Centre()));
  EXPECT_EQ(table.RuleOf(1, FinishPlacement()), "atlanteans_unplaced");
  table.Must(2, PlaceOn(Centre()));
  table.Must(1, FinishPlacement());
}

TEST(AtlantisRisingPlacement, EachPlayerPutsAtMostOneAtlanteanOnABuildSite) {
  Table table(4);
  table.Must(1, PlaceOn(Site(1)));
  EXPECT_EQ(table.RuleOf(1, PlaceOn(Site(1))), "one_atlantean_per_player_per_site");
  table.Must(1, PlaceOn(Site(2)));
  table.Must(2, PlaceOn(Site(1)));
  table.Must(3, PlaceOn(Site(1)));
  table.Must(4, PlaceOn(Site(1)));
}

TEST(AtlantisRisingPlacement, TheCentreHoldsAnyNumber) {
  Table table(7);
  PlaceRestOnCentre(table);
  EXPECT_EQ(table.pos().spots[AtlantisRisingState::kCentre].Placed(), 21);
}

TEST(AtlantisRisingPhases, ActionsOutOfPhaseAreRefused) {
  Table table(4);
  table.Must(1, PlaceOn(Tile(kHills, 1)));
  EXPECT_EQ(table.RuleOf(1, ActOn(Tile(kHills, 1))), "wrong_phase");
  EXPECT_EQ(table.RuleOf(1, Pledge(1, AtlantisRising::GOLD)), "wrong_phase");
  EXPECT_EQ(table.RuleOf(1, Build(1, "power-core")), "wrong_phase");
  EXPECT_EQ(table.RuleOf(1, Abandon(1)), "wrong_phase");
  EXPECT_EQ(table.RuleOf(1, Boost(1)), "no_roll_pending");
  EXPECT_EQ(table.RuleOf(1, FloodAction(kHills)), "no_flood_due");
  EXPECT_EQ(table.RuleOf(1, Keep({})), "no_draw_pending");
  EXPECT_EQ(table.RuleOf(1, Discard("sea-wall")), "discard_not_needed");
  PlaceRestOnCentre(table);
  table.MisfortuneDeck({Calm(), Calm(), Calm(), Calm()});
  table.Must(3, FinishPlacement());
  EXPECT_EQ(table.pos().phase, Phase::kActions);
  EXPECT_EQ(table.RuleOf(1, PlaceOn(Centre())), "wrong_phase");
  EXPECT_EQ(table.RuleOf(1, FinishPlacement()), "wrong_phase");
}

TEST(AtlantisRisingMisfortunes, AFloodCardFloodsThePeninsulaFromTheTip) {
  Table table(4);
  PlaceRestOnCentre(table);
  table.MisfortuneDeck({FloodCard(kHills), FloodCard(kHills), FloodCard(kForests), Calm()});
  table.Must(1, FinishPlacement());
  EXPECT_EQ(table.pos().flooded[PeninsulaIndex(kHills)], 2);
  EXPECT_EQ(table.pos().flooded[PeninsulaIndex(kForests)], 1);
  EXPECT_EQ(table.RuleOf(1, ActOn(Centre())), "");
}

TEST(AtlantisRisingMisfortunes, AFloodSendsAtlanteansHomeBeforeTheyAct) {
  Table table(4);
  table.Must(1, PlaceOn(Tile(kHills, 1)));
  table.Must(2, PlaceOn(Tile(kHills, 1)));
  table.Must(1, PlaceOn(Tile(kHills, 2)));
  PlaceRestOnCentre(table);
  table.MisfortuneDeck({FloodCard(kHills), Calm(), Calm(), Calm()});
  table.Must(4, FinishPlacement());
  EXPECT_EQ(table.player(1).pool, 1);  // back from the flooded tip, without acting
  EXPECT_EQ(table.player(2).pool, 1);
  EXPECT_EQ(table.RuleOf(1, ActOn(Tile(kHills, 1))), "no_atlantean_there");
  EXPECT_EQ(table.RuleOf(2, ActOn(Tile(kHills, 1))), "no_atlantean_there");
  EXPECT_EQ(table.RuleOf(1, ActOn(Tile(kHills, 2))), "");  // the next tile is still dry
}

TEST(AtlantisRisingMisfortunes, AFloodOnAFullyFloodedPeninsulaLetsTheDrawerFloodTwoTiles) {
  Table table(4);
  table.Flooded(kHills, 6);
  PlaceRestOnCentre(table);
  table.MisfortuneDeck({Calm(), FloodCard(kHills), Calm(), Calm()});
  table.Must(1, FinishPlacement());
  ASSERT_EQ(table.pos().pending.kind, Decision::kFloods);
  EXPECT_EQ(table.pos().pending.floods, 2);
  EXPECT_EQ(table.RuleOf(1, FloodAction(kForests)), "not_the_drawer");  // seat 2 drew it
  EXPECT_EQ(table.RuleOf(2, FloodAction(kHills)), "peninsula_under_water");
  EXPECT_EQ(table.RuleOf(2, ActOn(Centre())), "decision_pending");
  table.Must(2, FloodAction(kForests));
  table.Must(2, FloodAction(kMountains));
  EXPECT_EQ(table.pos().flooded[PeninsulaIndex(kForests)], 1);
  EXPECT_EQ(table.pos().flooded[PeninsulaIndex(kMountains)], 1);
  EXPECT_EQ(table.pos().phase, Phase::kActions);
}

TEST(AtlantisRisingMisfortunes, TheDrawerOfAControlledFloodNamesThePeninsula) {
  Table table(4);
  PlaceRestOnCentre(table);
  table.MisfortuneDeck({Calm(), Calm(), Controlled(), Calm()});
  table.Must(1, FinishPlacement());
  EXPECT_EQ(table.pos().pending.seat, 2);  // seat 3
  EXPECT_EQ(table.RuleOf(1, FloodAction(kForges)), "not_the_drawer");
  table.Must(3, FloodAction(kForges));
  EXPECT_EQ(table.pos().flooded[PeninsulaIndex(kForges)], 1);
}

TEST(AtlantisRisingMisfortunes, AnEmptyDeckIsReshuffledFromItsDiscards) {
  Table table(4);
  PlaceRestOnCentre(table);
  table.MisfortuneDeck({Calm(), Calm()});
  table.edit().misfortune_discard = {MisfortuneCode(AtlantisRising::CALM_SEAS, 0),
                                     MisfortuneCode(AtlantisRising::CALM_SEAS, 0),
                                     MisfortuneCode(AtlantisRising::CALM_SEAS, 0)};
  table.Must(1, FinishPlacement());
  EXPECT_EQ(table.pos().misfortunes_drawn, 4);
  EXPECT_EQ(table.pos().misfortune_deck.size() + table.pos().misfortune_discard.size(), 5u);
}

TEST(AtlantisRisingWrath, TheFirstRoundFloodsNothingAndTheMarkerRises) {
  Table table(4);
  PlayQuietRound(table);
  EXPECT_EQ(table.pos().round, 2);
  EXPECT_EQ(table.pos().wrath_level, 1);
  EXPECT_EQ(table.pos().phase, Phase::kPlacement);
  for (int f : table.pos().flooded) EXPECT_EQ(f, 0);
}

TEST(AtlantisRisingWrath, AnyPlayerNamesTheWrathFloods) {
  Table table(4);
  PlayQuietRound(table);
  PlayQuietRound(table);  // Wrath level 1: one flood
  ASSERT_EQ(table.pos().phase, Phase::kWrath);
  EXPECT_EQ(table.pos().pending.seat, -1);
  EXPECT_EQ(table.pos().pending.floods, table.state().tables().WrathValue(1));
  EXPECT_EQ(table.RuleOf(3, PlaceOn(Centre())), "decision_pending");
  table.Must(3, FloodAction(kForests));
  EXPECT_EQ(table.pos().flooded[PeninsulaIndex(kForests)], 1);
  EXPECT_EQ(table.pos().wrath_level, 2);
  EXPECT_EQ(table.pos().round, 3);
}

TEST(AtlantisRisingWrath, TheMarkerStopsAtTheTop) {
  Table table(1);
  const int top = table.state().tables().max_wrath_level();
  table.edit().wrath_level = top;
  PlayQuietRound(table);
  for (int i = 0; i < table.state().tables().WrathValue(top); ++i) table.Must(1, FloodAction(kForests));
  EXPECT_EQ(table.pos().wrath_level, top);
}

TEST(AtlantisRisingRound, TheStartMarkerPassesLeftAndLeadsTheMisfortunes) {
  Table table(4);
  PlayQuietRound(table);
  EXPECT_EQ(table.pos().start_seat, 1);
  PlaceRestOnCentre(table);
  table.MisfortuneDeck({Controlled(), Calm(), Calm(), Calm()});
  table.Must(1, FinishPlacement());
  EXPECT_EQ(table.pos().pending.seat, 1);  // seat 2 draws first in round 2
}

TEST(AtlantisRisingRound, ASoloPlayerGainsEnergyEachRound) {
  Table table(1);
  const int before = table.player(1).energy;
  PlayQuietRound(table);
  // Five Atlanteans on the centre (+1 each) and the solo bonus (+1).
  EXPECT_EQ(table.player(1).energy, before + 5 + 1);
}

TEST(AtlantisRisingRound, EveryonePlaysInTheCooperativePhases) {
  Table table(4);
  EXPECT_EQ(table.state().SeatsToAct(), (std::vector<Seat>{0, 1, 2, 3}));
  for (int i = 0; i < 3; ++i) table.Must(2, PlaceOn(Centre()));
  EXPECT_EQ(table.state().SeatsToAct(), (std::vector<Seat>{0, 2, 3}));
}

TEST(AtlantisRisingEnd, TheCentreFloodsLastAndThePlayersLose) {
  Table table(4);
  for (Peninsula p : {kMountains, kHills, kForests, kForges, AtlantisRising::CITIES}) table.Flooded(p, 6);
  table.Flooded(AtlantisRising::LIBRARIES, 5);
  PlaceRestOnCentre(table);
  table.MisfortuneDeck({FloodCard(AtlantisRising::LIBRARIES), FloodCard(kHills), Calm(), Calm()});
  table.Must(1, FinishPlacement());
  EXPECT_TRUE(table.state().IsTerminal());
  EXPECT_TRUE(table.pos().centre_flooded);
  auto standings = table.state().Final();
  ASSERT_TRUE(standings.has_value());
  EXPECT_TRUE(standings->cooperative());
  EXPECT_EQ(standings->team_outcome(), v1::TEAM_OUTCOME_LOST);
  EXPECT_EQ(table.RuleOf(1, ActOn(Centre())), "game_over");
}

// CANCEL_FLOOD also stops a flood that would take the centre
// (docs/atlantis-rising.md, "Library cards": "a centre flood too"). A flood
// card on a peninsula under water brings flooded_peninsula_floods (2) floods:
// one cancelled flood is not enough, two are.
TEST(AtlantisRisingEnd, CancelledFloodsSaveTheCentre) {
  struct Case {
    std::vector<std::string> cards;  // played before the misfortunes
    int shield;
    bool lost;
  };
  for (const Case& c : {Case{{}, 0, true}, Case{{"sea-wall"}, 1, true}, Case{{"artifact-7"}, 2, false}}) {
    SCOPED_TRACE(c.shield);
    Table table(4);
    for (Peninsula p : {kMountains, kHills, kForests, kForges, AtlantisRising::CITIES, AtlantisRising::LIBRARIES}) {
      table.Flooded(p, 6);
    }
    table.Hand(1, c.cards);
    for (const std::string& card : c.cards) table.Must(1, Play(card));
    ASSERT_EQ(table.pos().flood_shield, c.shield);
    PlaceRestOnCentre(table);
    table.MisfortuneDeck({FloodCard(kHills), Calm(), Calm(), Calm()});
    table.Must(1, FinishPlacement());
    EXPECT_EQ(table.state().IsTerminal(), c.lost);
    EXPECT_EQ(table.pos().centre_flooded, c.lost);
    EXPECT_EQ(table.pos().flood_shield, 0) << "every cancelled flood is used up";
  }
}

}  // namespace
}  // namespace arbiter::engine::atlantis_rising
