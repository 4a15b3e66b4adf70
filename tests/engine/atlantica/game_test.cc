// The game as the rest of Arbiter sees it: registration, the ruleset, setup
// from the seed, malformed actions, and random legal playouts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "engine/atlantica/game.h"
#include "engine/core/ruleset_registry.h"
#include "tests/engine/atlantica/position_builder.h"

namespace arbiter::engine::atlantica::testing {
namespace {

using v1::Atlantica;

std::unique_ptr<State> NewGame(int players, uint64_t seed) {
  GameSetup setup;
  setup.ruleset = &DefaultRuleset();
  setup.seed = seed;
  setup.num_players = players;
  auto state = AtlanticaGame().NewInitialState(setup);
  EXPECT_TRUE(state.ok()) << state.status();
  return state.ok() ? *std::move(state) : nullptr;
}

const AtlanticaState& AsAtlantica(const State& s) { return dynamic_cast<const AtlanticaState&>(s); }

TEST(AtlanticaGame, IsRegisteredWithItsDefaultRuleset) {
  ASSERT_EQ(FindGame("atlantica"), &AtlanticaGame());
  auto registry = RulesetRegistry::WithBuiltins();
  ASSERT_TRUE(registry.ok()) << registry.status();
  const RegisteredRuleset* r = registry->DefaultFor("atlantica");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->ruleset.id(), "atlantica-piatnik-2018");
  EXPECT_EQ(AtlanticaGame().MinPlayers(r->ruleset), 2);
  EXPECT_EQ(AtlanticaGame().MaxPlayers(r->ruleset), 5);
}

TEST(AtlanticaGame, RulesetPrintsTheComponentCounts) {
  const Rules& r = *DefaultRules();
  int divers = 0, treasures = 0, ships = 0, research = 0;
  for (int c = 0; c < kColours; ++c) divers += r.divers[c];
  for (int k = 0; k < r.num_kinds; ++k) treasures += r.kind_cards[k];
  for (int s = 0; s < r.num_stacks; ++s) ships += static_cast<int>(r.ship_crates[s].size());
  for (int t = 0; t < r.num_research; ++t) research += r.research_copies[t];
  EXPECT_EQ(divers, 78);
  EXPECT_EQ(treasures, 57);
  EXPECT_EQ(ships, 24);
  EXPECT_EQ(research, 30);
  EXPECT_EQ(r.num_research, 11);
  EXPECT_EQ(r.kind_score[KindOf("amphorae")][5], 18);
}

TEST(AtlanticaGame, ValidationNamesTheBrokenField) {
  v1::Ruleset broken = DefaultRuleset();
  broken.mutable_atlantica()->mutable_removed_treasures()->RemoveLast();
  absl::Status s = AtlanticaGame().ValidateRuleset(broken);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("removed_treasures"), std::string::npos) << s;
  broken = DefaultRuleset();
  broken.mutable_atlantica()->mutable_research(6)->mutable_effect()->set_kind_name("jewels");
  s = AtlanticaGame().ValidateRuleset(broken);
  EXPECT_NE(std::string(s.message()).find("research[6].effect.kind_name"), std::string::npos) << s;
}

TEST(AtlanticaSetup, DealsEveryComponentForEachPlayerCount) {
  const std::map<int, int> removed = {{2, 26}, {3, 18}, {4, 9}, {5, 0}};
  for (int players = 2; players <= 5; ++players) {
    auto state = NewGame(players, 42);
    const Board& b = AsAtlantica(*state).board();
    for (const PlayerBoard& p : b.players) {
      int hand = 0;
      for (int c : p.hand) hand += c;
      EXPECT_EQ(hand, 5);
    }
    EXPECT_EQ(b.draw_pile.size(), 78u - 5u * players);
    EXPECT_EQ(b.hurricane_stack.size(), 11u);
    EXPECT_EQ(std::count(b.hurricane_stack.begin(), b.hurricane_stack.end(), kHurricane), 1);
    int face_up = 0;
    for (int a = 0; a < 6; ++a) face_up += b.treasure_areas[a] != kEmpty;
    EXPECT_EQ(face_up, 6);
    EXPECT_EQ(b.treasure_stack.size() + 6u + 10u, 57u - removed.at(players)) << players << " players";
    for (int s = 0; s < 3; ++s) EXPECT_EQ(b.ship_stacks[s].size(), 8u);
    for (int a = 0; a < 4; ++a) EXPECT_NE(b.research_areas[a], kEmpty);
    EXPECT_EQ(b.research_deck.size(), 26u);
    EXPECT_EQ(b.to_move, 0);
  }
}

TEST(AtlanticaSetup, IsAFunctionOfTheSeed) {
  EXPECT_EQ(NewGame(3, 9)->ToString(), NewGame(3, 9)->ToString());
  EXPECT_NE(NewGame(3, 9)->ToString(), NewGame(3, 10)->ToString());
}

TEST(AtlanticaSetup, RefusesBadPlayerCountsAndOptions) {
  GameSetup setup;
  setup.ruleset = &DefaultRuleset();
  setup.num_players = 6;
  EXPECT_EQ(AtlanticaGame().NewInitialState(setup).status().code(), absl::StatusCode::kInvalidArgument);
  setup.num_players = 1;
  EXPECT_EQ(AtlanticaGame().NewInitialState(setup).status().code(), absl::StatusCode::kInvalidArgument);
  setup.num_players = 2;
  setup.options["variant"] = "x";
  EXPECT_EQ(AtlanticaGame().NewInitialState(setup).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(AtlanticaShape, MalformedFieldsAreNamed) {
  auto shape = [](const v1::Action& a) { return AtlanticaGame().CheckShape(a, DefaultRuleset()); };
  EXPECT_TRUE(shape(DrawBreath()).ok());
  EXPECT_TRUE(shape(TurnOf({Dive(3, {G, P, W}, {1, 2, 7})})).ok());  // area 7: illegal, not malformed
  PlaceAction a = Dive(1, {G}, {1});
  a.set_place(Atlantica::PLACE_UNSPECIFIED);
  EXPECT_NE(std::string(shape(TurnOf({a})).message()).find("turn.actions[0].place"), std::string::npos);
  EXPECT_NE(std::string(shape(TurnOf({Dive(1, {G}, {1}), Dive(5, {G}, {1})})).message()).find("actions[1].tier"),
            std::string::npos);
  EXPECT_NE(std::string(shape(TurnOf({Dive(1, {static_cast<Colour>(9)}, {1})})).message()).find(".divers"),
            std::string::npos);
  EXPECT_NE(std::string(shape(TurnOf({Dive(1, {G}, {0})})).message()).find(".areas"), std::string::npos);
  PlaceAction drink = Drink({B, W, R}, {{Atlantica::PLACE_UNSPECIFIED, 1}});
  EXPECT_NE(std::string(shape(TurnOf({drink})).message()).find("picks[0].place"), std::string::npos);
  v1::Action none;
  none.mutable_atlantica();
  EXPECT_EQ(shape(none).code(), absl::StatusCode::kInvalidArgument);
}

TEST(AtlanticaCanonical, AnySpellingOfALegalTurnMapsToTheListedOne) {
  auto game = Position(2)
                  .Treasures({"gold", "amphorae", "statues", "weapons", "ceramics", "architecture"})
                  .Ships(0, {1}).Research({"R1", "R2", "R3", "R4"})
                  .Hand(0, {Y, P, R}).Build();
  const v1::Action messy = TurnOf({Charter(1, {R}), Dive(2, {P, Y}, {3, 1})});
  ASSERT_EQ(RuleOf(*game, 0, messy), "legal");
  const v1::Action canonical = game->Canonical(0, messy);
  const auto moves = game->LegalActions();
  const bool listed = std::any_of(moves.begin(), moves.end(), [&](const Move& m) {
    return m.action.SerializeAsString() == canonical.SerializeAsString();
  });
  EXPECT_TRUE(listed) << canonical.ShortDebugString();
  EXPECT_EQ(canonical.atlantica().turn().actions(0).place(), Atlantica::DIVING_BOAT);
}

// Random legal playouts end, every listed action is legal, and the game
// reports standings.
TEST(AtlanticaPlayout, RandomLegalGamesEndForEveryPlayerCount) {
  for (int players = 2; players <= 5; ++players) {
    for (uint64_t seed = 1; seed <= 15; ++seed) {
      auto state = NewGame(players, seed);
      Rng chooser(seed * 7919);
      int turns = 0;
      while (!state->IsTerminal()) {
        const auto moves = state->LegalActions();
        ASSERT_FALSE(moves.empty());
        if (turns % 7 == 0) {
          for (const Move& m : moves) {
            ASSERT_EQ(state->Check(m.seat, m.action), std::nullopt) << m.action.ShortDebugString();
            ASSERT_TRUE(AtlanticaGame().CheckShape(m.action, DefaultRuleset()).ok());
          }
        }
        const Move& m = moves[chooser.Uniform(moves.size())];
        ASSERT_EQ(state->Apply(m.seat, m.action), std::nullopt);
        ASSERT_LT(++turns, 2000) << "game does not end";
      }
      const auto standings = state->Final();
      ASSERT_TRUE(standings.has_value());
      EXPECT_EQ(standings->players_size(), players);
      int holders = 0;
      for (const auto& p : AsAtlantica(*state).board().players) holders += p.hurricane;
      EXPECT_EQ(holders, 1);
    }
  }
}

}  // namespace
}  // namespace arbiter::engine::atlantica::testing

namespace arbiter::engine::atlantica::testing {
namespace {

TEST(AtlanticaText, DescribesThePositionForPeople) {
  auto game = Position(2)
                  .Treasures({"gold", "", "statues", "", "", ""})
                  .Ships(0, {1, 2}).Research({"R1", "", "", ""})
                  .Hand(0, {Y, Y, P}).HoldsTreasures(1, {{"weapons", 2}}).HoldsShips(1, {3})
                  .Build();
  const std::string text = game->ToString();
  if (std::getenv("ATLANTICA_PRINT") != nullptr) std::cout << text;
  EXPECT_NE(text.find("Seat 1 to play."), std::string::npos) << text;
  EXPECT_NE(text.find("Diving boat: 1=gold 2=empty 3=statues"), std::string::npos) << text;
  EXPECT_NE(text.find("A cargo boat 2 ships, top 2 crates"), std::string::npos) << text;
  EXPECT_NE(text.find("Seat 1: hand 2 yellow, 1 purple"), std::string::npos) << text;
  EXPECT_NE(text.find("Seat 2: hand none; treasures 2 weapons; ships 1 (3 crates)"), std::string::npos) << text;
}

}  // namespace
}  // namespace arbiter::engine::atlantica::testing
