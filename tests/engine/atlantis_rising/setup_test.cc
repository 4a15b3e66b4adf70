// Atlantis Rising setup: the player-count table, the decks and the Blueprint
// from the seed, and the header options.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/atlantis_rising/game.h"
#include "engine/core/rng.h"
#include "tests/engine/atlantis_rising/position_builder.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using testing::Table;
using v1::AtlantisRising;

struct Row {
  int players;
  int atlanteans;
  int misfortunes;
  int build_sites;
  int energy;  // starting energy, solo bonus included
};

// The player-count table of the rules (docs/atlantis-rising.md).
const Row kTable[] = {{1, 5, 4, 2, 3}, {2, 5, 4, 2, 2}, {3, 4, 4, 2, 2},
                      {4, 3, 4, 2, 2}, {5, 3, 5, 3, 2}, {6, 3, 6, 3, 2}, {7, 3, 7, 3, 2}};

// Places every Atlantean on the centre and finishes placement, with a
// misfortune deck of Calm Seas only.
void PlaceAllOnCentreWithCalmSeas(Table& table, int players) {
  table.MisfortuneDeck(std::vector<std::pair<AtlantisRising::Misfortune, Peninsula>>(
      20, {AtlantisRising::CALM_SEAS, AtlantisRising::PENINSULA_UNSPECIFIED}));
  for (int seat = 1; seat <= players; ++seat) {
    while (table.player(seat).pool > 0) table.Must(seat, testing::PlaceOn(testing::Centre()));
  }
  table.Must(1, testing::FinishPlacement());
}

TEST(AtlantisRisingSetup, PlayerCountTableGivesAtlanteansEnergyAndBuildSites) {
  for (const Row& row : kTable) {
    SCOPED_TRACE(row.players);
    Table table(row.players);
    EXPECT_EQ(table.state().build_sites(), row.build_sites);
    for (int seat = 1; seat <= row.players; ++seat) {
      EXPECT_EQ(table.player(seat).atlanteans, row.atlanteans);
      EXPECT_EQ(table.player(seat).pool, row.atlanteans);
      EXPECT_EQ(table.player(seat).reserve, 3);
      EXPECT_EQ(table.player(seat).energy, row.energy);
      EXPECT_TRUE(table.player(seat).hand.empty());
    }
    EXPECT_EQ(table.pos().wrath_level, 0);
    EXPECT_EQ(table.pos().start_seat, 0);
  }
}

TEST(AtlantisRisingSetup, PlayerCountTableGivesMisfortunesPerRound) {
  for (const Row& row : kTable) {
    SCOPED_TRACE(row.players);
    Table table(row.players);
    PlaceAllOnCentreWithCalmSeas(table, row.players);
    EXPECT_EQ(table.pos().misfortunes_drawn, row.misfortunes);
    EXPECT_EQ(table.pos().misfortune_discard.size(), static_cast<std::size_t>(row.misfortunes));
    EXPECT_EQ(table.pos().phase, Phase::kActions);
  }
}

TEST(AtlantisRisingSetup, ThreePlayersTheStartPlayerDrawsTheFourthMisfortune) {
  Table table(3);
  table.MisfortuneDeck({{AtlantisRising::CALM_SEAS, AtlantisRising::PENINSULA_UNSPECIFIED},
                        {AtlantisRising::CALM_SEAS, AtlantisRising::PENINSULA_UNSPECIFIED},
                        {AtlantisRising::CALM_SEAS, AtlantisRising::PENINSULA_UNSPECIFIED},
                        {AtlantisRising::CONTROLLED_FLOOD, AtlantisRising::PENINSULA_UNSPECIFIED}});
  for (int seat = 1; seat <= 3; ++seat) {
    while (table.player(seat).pool > 0) table.Must(seat, testing::PlaceOn(testing::Centre()));
  }
  table.Must(2, testing::FinishPlacement());
  EXPECT_EQ(table.pos().pending.kind, Decision::kFloods);
  EXPECT_EQ(table.pos().pending.seat, 0);  // seat 1, the start player
}

TEST(AtlantisRisingSetup, TwoPlayersDrawTwoEachInTurn) {
  Table table(2);
  table.MisfortuneDeck({{AtlantisRising::CALM_SEAS, AtlantisRising::PENINSULA_UNSPECIFIED},
                        {AtlantisRising::CALM_SEAS, AtlantisRising::PENINSULA_UNSPECIFIED},
                        {AtlantisRising::CONTROLLED_FLOOD, AtlantisRising::PENINSULA_UNSPECIFIED},
                        {AtlantisRising::CONTROLLED_FLOOD, AtlantisRising::PENINSULA_UNSPECIFIED}});
  for (int seat = 1; seat <= 2; ++seat) {
    while (table.player(seat).pool > 0) table.Must(seat, testing::PlaceOn(testing::Centre()));
  }
  table.Must(1, testing::FinishPlacement());
  EXPECT_EQ(table.pos().pending.seat, 0);  // third card: seat 1
  table.Must(1, testing::FloodAction(AtlantisRising::HILLS));
  EXPECT_EQ(table.pos().pending.seat, 1);  // fourth card: seat 2
  table.Must(2, testing::FloodAction(AtlantisRising::HILLS));
  EXPECT_EQ(table.pos().flooded[PeninsulaIndex(AtlantisRising::HILLS)], 2);
}

TEST(AtlantisRisingSetup, IntroductoryDecksFollowTheRules) {
  Table table(4);
  const Rules& rules = table.state().tables().rules();
  int parchment = 0;
  for (const auto& card : rules.library_cards()) parchment += card.artifact() ? 0 : card.count();
  int artifacts = 0;
  for (int card : table.pos().library_deck) artifacts += table.state().tables().card(card).artifact() ? 1 : 0;
  EXPECT_EQ(artifacts, 4);
  EXPECT_EQ(table.pos().library_deck.size(), static_cast<std::size_t>(parchment + 4));

  int calm = 0, controlled = 0, floods = 0;
  for (int code : table.pos().misfortune_deck) {
    switch (MisfortuneKindOf(code)) {
      case AtlantisRising::CALM_SEAS: ++calm; break;
      case AtlantisRising::CONTROLLED_FLOOD: ++controlled; break;
      default: ++floods; break;
    }
  }
  EXPECT_EQ(calm, 9);
  EXPECT_EQ(controlled, 3);
  EXPECT_EQ(floods, 48);
}

TEST(AtlantisRisingSetup, IntroductoryBlueprintIsTheRulebooksFirstGame) {
  Table table(4);
  std::vector<std::string> ids;
  for (int c : table.pos().blueprint) ids.push_back(table.state().tables().component(c).id());
  ASSERT_EQ(ids.size(), 10u);
  EXPECT_EQ(ids.back(), "power-core");
  for (const char* id : {"mystic-siphon", "matter-converter", "numinous-beacon", "entropy-drive"}) {
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
  }
  int letter_a = 0;
  for (int c : table.pos().blueprint) letter_a += table.state().tables().component(c).letter() == "A" ? 1 : 0;
  EXPECT_EQ(letter_a, 5);
}

TEST(AtlantisRisingSetup, DecksFollowTheDocumentedSeedOrder) {
  const uint64_t seed = 424242;
  Table table(4, seed, {{"difficulty", "hard"}, {"blueprint", "standard"}});
  const Rules& rules = table.state().tables().rules();
  Rng rng(seed);
  std::vector<int> artifacts, library;
  for (int i = 0; i < rules.library_cards_size(); ++i) {
    for (int k = 0; k < rules.library_cards(i).count(); ++k) {
      (rules.library_cards(i).artifact() ? artifacts : library).push_back(i);
    }
  }
  rng.Shuffle(artifacts);
  artifacts.resize(static_cast<std::size_t>(rules.artifacts_in_game()));
  library.insert(library.end(), artifacts.begin(), artifacts.end());
  rng.Shuffle(library);
  EXPECT_EQ(table.pos().library_deck, library);

  std::vector<int> misfortunes;
  for (const auto& card : rules.misfortunes()) {
    if (card.kind() != AtlantisRising::FLOOD) continue;
    for (int k = 0; k < card.count(); ++k) misfortunes.push_back(MisfortuneCode(card.kind(), card.peninsula()));
  }
  for (int k = 0; k < 3; ++k) misfortunes.push_back(MisfortuneCode(AtlantisRising::CALM_SEAS, 0));
  for (int k = 0; k < 7; ++k) misfortunes.push_back(MisfortuneCode(AtlantisRising::CONTROLLED_FLOOD, 0));
  rng.Shuffle(misfortunes);
  EXPECT_EQ(table.pos().misfortune_deck, misfortunes);

  std::vector<int> blueprint;
  for (const char* letter : {"A", "B", "C"}) {
    std::vector<int> candidates;
    for (int i = 0; i < rules.components_size(); ++i) {
      if (!rules.components(i).power_core() && rules.components(i).letter() == letter) candidates.push_back(i);
    }
    rng.Shuffle(candidates);
    candidates.resize(3);
    blueprint.insert(blueprint.end(), candidates.begin(), candidates.end());
  }
  blueprint.push_back(table.state().tables().ComponentIndex("power-core"));
  EXPECT_EQ(table.pos().blueprint, blueprint);
}

TEST(AtlantisRisingSetup, DifferentSeedsShuffleDifferently) {
  Table a(4, 1), b(4, 2);
  EXPECT_NE(a.pos().library_deck, b.pos().library_deck);
  EXPECT_NE(a.pos().misfortune_deck, b.pos().misfortune_deck);
}

TEST(AtlantisRisingSetup, HeaderOptionsAreCheckedByName) {
  GameSetup setup;
  setup.ruleset = &testing::DefaultRuleset();
  setup.num_players = 4;
  setup.options = {{"difficulty", "nightmare"}};
  EXPECT_EQ(AtlantisRisingGame().NewInitialState(setup).status().code(), absl::StatusCode::kInvalidArgument);
  setup.options = {{"blueprint", "everything"}};
  EXPECT_EQ(AtlantisRisingGame().NewInitialState(setup).status().code(), absl::StatusCode::kInvalidArgument);
  setup.options = {{"hologram", "on"}};
  auto refused = AtlantisRisingGame().NewInitialState(setup);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(refused.status().message()).find("hologram"), std::string::npos);
  setup.options = {{"difficulty", "normal"}, {"blueprint", "hard"}};
  EXPECT_TRUE(AtlantisRisingGame().NewInitialState(setup).ok());
}

TEST(AtlantisRisingSetup, PlayerCountsOutsideOneToSevenAreRefused) {
  GameSetup setup;
  setup.ruleset = &testing::DefaultRuleset();
  for (int players : {0, 8}) {
    setup.num_players = players;
    EXPECT_EQ(AtlantisRisingGame().NewInitialState(setup).status().code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST(AtlantisRisingSetup, NormalDifficultyChangesTheMisfortuneMix) {
  Table table(4, 1, {{"difficulty", "normal"}});
  int calm = 0, controlled = 0;
  for (int code : table.pos().misfortune_deck) {
    calm += MisfortuneKindOf(code) == AtlantisRising::CALM_SEAS ? 1 : 0;
    controlled += MisfortuneKindOf(code) == AtlantisRising::CONTROLLED_FLOOD ? 1 : 0;
  }
  const auto& level = table.state().tables().rules().difficulties(1);
  EXPECT_EQ(calm, level.calm_seas());
  EXPECT_EQ(controlled, level.controlled_floods());
}

}  // namespace
}  // namespace arbiter::engine::atlantis_rising
