// Every tier of every place: what it costs and what it gives.
#include <gtest/gtest.h>

#include "tests/engine/atlantica/position_builder.h"

namespace arbiter::engine::atlantica::testing {
namespace {

using v1::Atlantica;

// A full board: treasures gold, amphorae, statues, weapons, ceramics,
// architecture in areas 1-6; ships A (top 2), B (top 4), C (top 5);
// research R1-R4 in areas 1-4.
Position Board2() {
  Position p(2);
  p.Treasures({"gold", "amphorae", "statues", "weapons", "ceramics", "architecture"})
      .TreasureStack({"inscriptions", "inscriptions", "inscriptions", "inscriptions"})
      .HurricaneStack({"hurricane", "gold"})
      .Ships(0, {1, 2}).Ships(1, {3, 4}).Ships(2, {3, 5})
      .Research({"R1", "R2", "R3", "R4"})
      .ResearchDeck({"R9", "R8", "R7"})
      .DrawPile({B, B, B, B, B, B, B, B, B, B});
  return p;
}

int Treasures(const AtlanticaState& s, int seat, const std::string& kind) {
  return s.board().players[seat].treasures[KindOf(kind)];
}
int ResearchHeld(const AtlanticaState& s, int seat, const std::string& type) {
  return s.board().players[seat].research[ResearchOf(type)];
}

TEST(AtlanticaDivingBoat, TierOneTakesTheTreasureInAreaOne) {
  auto game = Board2().Hand(0, {G}).Build();
  EXPECT_EQ(game->Apply(0, TurnOf({Dive(1, {G}, {1})})), std::nullopt);
  EXPECT_EQ(Treasures(*game, 0, "gold"), 1);
  EXPECT_EQ(game->board().discard[ColourIndex(G)], 1);
  // The row slid left and area 6 was refilled from the normal stack.
  EXPECT_EQ(game->board().treasure_areas[0], KindOf("amphorae"));
  EXPECT_EQ(game->board().treasure_areas[5], KindOf("inscriptions"));
  EXPECT_EQ(game->board().to_move, 1);
}

TEST(AtlanticaDivingBoat, TierOneReachesOnlyAreaOne) {
  auto game = Board2().Hand(0, {Y}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Dive(1, {Y}, {2})})), "area_out_of_reach");
}

TEST(AtlanticaDivingBoat, TierTwoTakesAnyTwoOfTheFirstThreeAreas) {
  auto game = Board2().Hand(0, {Y, P}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Dive(2, {Y, P}, {1, 4})})), "area_out_of_reach");
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Dive(2, {Y, P}, {3})})), "wrong_number_of_cards");
  EXPECT_EQ(game->Apply(0, TurnOf({Dive(2, {P, Y}, {3, 1})})), std::nullopt);
  EXPECT_EQ(Treasures(*game, 0, "gold"), 1);
  EXPECT_EQ(Treasures(*game, 0, "statues"), 1);
  EXPECT_EQ(game->board().treasure_areas[0], KindOf("amphorae"));
  EXPECT_EQ(game->board().treasure_areas[1], KindOf("weapons"));
}

TEST(AtlanticaDivingBoat, TierThreeTakesAnyThreeAreas) {
  auto game = Board2().Hand(0, {G, P, W}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Dive(3, {G, P, W}, {2, 4})})), "wrong_number_of_cards");
  EXPECT_EQ(game->Apply(0, TurnOf({Dive(3, {W, G, P}, {2, 4, 6})})), std::nullopt);
  EXPECT_EQ(Treasures(*game, 0, "amphorae"), 1);
  EXPECT_EQ(Treasures(*game, 0, "weapons"), 1);
  EXPECT_EQ(Treasures(*game, 0, "architecture"), 1);
}

TEST(AtlanticaDivingBoat, EachTierNeedsItsColours) {
  auto game = Board2().Hand(0, {R, P, W, B}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Dive(1, {R}, {1})})), "divers_do_not_match");
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Dive(2, {B, P}, {1, 2})})), "divers_do_not_match");
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Dive(2, {P}, {1, 2})})), "wrong_number_of_divers");
}

TEST(AtlanticaHarbour, TierOneChartersTheTopCargoBoat) {
  auto game = Board2().Hand(0, {R}).Build();
  EXPECT_EQ(game->Apply(0, TurnOf({Charter(1, {R})})), std::nullopt);
  EXPECT_EQ(game->board().players[0].ships, std::vector<int8_t>({2}));
  EXPECT_EQ(game->board().ship_stacks[0].size(), 1u);
}

TEST(AtlanticaHarbour, TierTwoChartersTheTopCargoBarge) {
  auto game = Board2().Hand(0, {W, G}).Build();
  EXPECT_EQ(game->Apply(0, TurnOf({Charter(2, {G, W})})), std::nullopt);
  EXPECT_EQ(game->board().players[0].ships, std::vector<int8_t>({4}));
}

TEST(AtlanticaHarbour, TierThreeChartersTheTopTransportShip) {
  auto game = Board2().Hand(0, {R, B, P}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Charter(3, {R, B, W})})), "divers_do_not_match");
  EXPECT_EQ(game->Apply(0, TurnOf({Charter(3, {R, B, P})})), std::nullopt);
  EXPECT_EQ(game->board().players[0].ships, std::vector<int8_t>({5}));
}

TEST(AtlanticaHarbour, AnEmptyStackCannotBeChartered) {
  auto game = Board2().Ships(1, {}).Hand(0, {W, G}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Charter(2, {W, G})})), "stack_empty");
}

TEST(AtlanticaHarbour, NamesNoAreas) {
  auto game = Board2().Hand(0, {W}).Build();
  PlaceAction a = Charter(1, {W});
  a.add_areas(1);
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({a})), "unexpected_picks");
}

TEST(AtlanticaPub, TierOneDrawsThreeDiversAtTheEndOfTheTurn) {
  auto game = Board2().Hand(0, {Y}).Build();
  EXPECT_EQ(game->Apply(0, TurnOf({Hire(1, {Y})})), std::nullopt);
  EXPECT_EQ(Held(*game, 0, B), 3);
  EXPECT_EQ(Held(*game, 0, Y), 0);
  EXPECT_EQ(game->board().draw_pile.size(), 7u);
}

TEST(AtlanticaPub, TierTwoDrawsSixDivers) {
  auto game = Board2().Hand(0, {P, W}).Build();
  EXPECT_EQ(game->Apply(0, TurnOf({Hire(2, {W, P})})), std::nullopt);
  EXPECT_EQ(Held(*game, 0, B), 6);
}

TEST(AtlanticaPub, DrawnDiversCannotBeLaidInTheSameTurn) {
  // The draw pile is all blue, but the blue drawn at the pub only joins the
  // hand when the turn ends.
  auto game = Board2().Hand(0, {Y}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Hire(1, {Y}), Study(1, {B}, {1})})), "cards_not_held");
}

TEST(AtlanticaPub, TierThreeBuysTwoCardsFromTwoDifferentPlaces) {
  auto game = Board2().Hand(0, {B, W, R}).Build();
  EXPECT_EQ(game->Apply(0, TurnOf({Drink({B, W, R}, {{Atlantica::DIVING_BOAT, 5}, {Atlantica::HARBOUR, 3}})})),
            std::nullopt);
  EXPECT_EQ(Treasures(*game, 0, "ceramics"), 1);
  EXPECT_EQ(game->board().players[0].ships, std::vector<int8_t>({5}));
  EXPECT_EQ(Held(*game, 0, B), 0);  // a drink draws no divers
}

TEST(AtlanticaPub, TierThreeMayBuyAResearchCard) {
  auto game = Board2().Hand(0, {B, W, R}).Build();
  EXPECT_EQ(game->Apply(0, TurnOf({Drink({B, W, R}, {{Atlantica::HARBOUR, 1}, {Atlantica::RESEARCH_STATION, 4}})})),
            std::nullopt);
  EXPECT_EQ(ResearchHeld(*game, 0, "R4"), 1);
  EXPECT_EQ(game->board().players[0].ships, std::vector<int8_t>({2}));
}

TEST(AtlanticaPub, DrinkCardsMustComeFromTwoPlaces) {
  auto game = Board2().Hand(0, {B, W, R}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Drink({B, W, R}, {{Atlantica::DIVING_BOAT, 1}, {Atlantica::DIVING_BOAT, 2}})})),
            "picks_same_place");
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Drink({B, W, R}, {{Atlantica::DIVING_BOAT, 1}})})), "wrong_number_of_cards");
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Drink({B, W, R}, {{Atlantica::PUB, 1}, {Atlantica::DIVING_BOAT, 2}})})),
            "pick_place_invalid");
}

TEST(AtlanticaResearchStation, TierOneTakesTheCardInAreaOne) {
  auto game = Board2().Hand(0, {R}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Study(1, {R}, {2})})), "area_out_of_reach");
  EXPECT_EQ(game->Apply(0, TurnOf({Study(1, {R}, {1})})), std::nullopt);
  EXPECT_EQ(ResearchHeld(*game, 0, "R1"), 1);
  // Slid left and refilled from the deck's top (R7).
  EXPECT_EQ(game->board().research_areas[0], ResearchOf("R2"));
  EXPECT_EQ(game->board().research_areas[3], ResearchOf("R7"));
}

TEST(AtlanticaResearchStation, TierTwoTakesAnyOneCard) {
  auto game = Board2().Hand(0, {B, Y}).Build();
  EXPECT_EQ(game->Apply(0, TurnOf({Study(2, {Y, B}, {4})})), std::nullopt);
  EXPECT_EQ(ResearchHeld(*game, 0, "R4"), 1);
}

TEST(AtlanticaResearchStation, TierThreeTakesAnyTwoCards) {
  auto game = Board2().Hand(0, {B, Y, G}).Build();
  EXPECT_EQ(game->Apply(0, TurnOf({Study(3, {B, Y, G}, {2, 3})})), std::nullopt);
  EXPECT_EQ(ResearchHeld(*game, 0, "R2"), 1);
  EXPECT_EQ(ResearchHeld(*game, 0, "R3"), 1);
  EXPECT_EQ(game->board().research_areas[0], ResearchOf("R1"));
  EXPECT_EQ(game->board().research_areas[1], ResearchOf("R4"));
}

TEST(AtlanticaResearchStation, AnEmptyAreaCannotBeTakenFrom) {
  auto game = Board2().Research({"R1", "R2", "", ""}).Hand(0, {B, Y}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Study(2, {B, Y}, {3})})), "area_empty");
}

TEST(AtlanticaTurn, ThreeActionsAtThreePlacesWithThreeCards) {
  auto game = Board2().Hand(0, {G, R, B}).Build();
  EXPECT_EQ(game->Apply(0, TurnOf({Dive(1, {G}, {1}), Charter(1, {R}), Study(1, {B}, {1})})), std::nullopt);
  EXPECT_EQ(Treasures(*game, 0, "gold"), 1);
  EXPECT_EQ(game->board().players[0].ships.size(), 1u);
  EXPECT_EQ(ResearchHeld(*game, 0, "R1"), 1);
}

TEST(AtlanticaTurn, CardsMaySplitOverTwoPlaces) {
  auto game = Board2().Hand(0, {Y, P, R}).Build();
  EXPECT_EQ(RuleOf(*game, 0, TurnOf({Dive(2, {Y, P}, {1, 2}), Charter(1, {R})})), "legal");
}

TEST(AtlanticaTurn, DrawBreathDrawsFiveDiversStraightIntoTheHand) {
  auto game = Board2().Build();
  EXPECT_EQ(game->Apply(0, DrawBreath()), std::nullopt);
  EXPECT_EQ(Held(*game, 0, B), 5);
  EXPECT_EQ(game->board().to_move, 1);
}

}  // namespace
}  // namespace arbiter::engine::atlantica::testing
