// Test-only helpers to build Atlantica positions and actions so that tests
// read as stories:
//
//   auto game = Position(2).Hand(0, {Y, P}).Treasures({"gold", "amphorae"}).Build();
//   EXPECT_EQ(game->Check(0, TurnOf({Dive(2, {Y, P}, {1, 2})})), std::nullopt);
//
// A built position starts empty (no cards anywhere) except what is named.
#ifndef ARBITER_TESTS_ENGINE_ATLANTICA_POSITION_BUILDER_H_
#define ARBITER_TESTS_ENGINE_ATLANTICA_POSITION_BUILDER_H_

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/v1/ruleset.pb.h"
#include "engine/atlantica/state.h"

namespace arbiter::engine::atlantica::testing {

using Colour = v1::Atlantica::Colour;
inline constexpr Colour W = v1::Atlantica::WHITE;
inline constexpr Colour Y = v1::Atlantica::YELLOW;
inline constexpr Colour R = v1::Atlantica::RED;
inline constexpr Colour G = v1::Atlantica::GREEN;
inline constexpr Colour B = v1::Atlantica::BLUE;
inline constexpr Colour P = v1::Atlantica::PURPLE;
using PlaceAction = v1::AtlanticaAction::PlaceAction;

// The default ruleset, compiled once.
std::shared_ptr<const Rules> DefaultRules();
const v1::Ruleset& DefaultRuleset();
int KindOf(const std::string& name);      // index of a treasure kind, e.g. "gold"
int ResearchOf(const std::string& name);  // index of a research type, e.g. "R6"

class Position {
 public:
  explicit Position(int players);

  Position& Hand(int seat, std::initializer_list<Colour> cards);
  // Treasure areas 1, 2, ... by kind name; "" leaves an area empty.
  Position& Treasures(std::initializer_list<std::string> kinds);
  // Stacks listed bottom first (the last name is the top card); "hurricane"
  // is the hurricane card.
  Position& TreasureStack(std::initializer_list<std::string> kinds);
  Position& HurricaneStack(std::initializer_list<std::string> kinds);
  // Ship stack 0-2 (A-C), crates bottom first.
  Position& Ships(int stack, std::initializer_list<int> crates);
  Position& Research(std::initializer_list<std::string> types);
  Position& ResearchDeck(std::initializer_list<std::string> types);
  // Diver draw pile, bottom first, and discard pile.
  Position& DrawPile(std::initializer_list<Colour> cards);
  Position& Discard(std::initializer_list<Colour> cards);
  Position& ToMove(int seat);
  Position& FinalTurnsLeft(int turns);
  // What a seat already holds.
  Position& HoldsTreasures(int seat, std::initializer_list<std::pair<std::string, int>> counts);
  Position& HoldsResearch(int seat, std::initializer_list<std::pair<std::string, int>> counts);
  Position& HoldsShips(int seat, std::initializer_list<int> crates);
  Position& HoldsHurricane(int seat);

  std::unique_ptr<AtlanticaState> Build(uint64_t seed = 1) const;

 private:
  Board board_;
};

// Actions.
PlaceAction Dive(int tier, std::vector<Colour> divers, std::vector<int> areas);
PlaceAction Charter(int tier, std::vector<Colour> divers);
PlaceAction Hire(int tier, std::vector<Colour> divers);
// Pub tier 3: picks are (place, area); harbour areas 1-3 are stacks A-C.
PlaceAction Drink(std::vector<Colour> divers, std::vector<std::pair<v1::Atlantica::Place, int>> picks);
PlaceAction Study(int tier, std::vector<Colour> divers, std::vector<int> areas);
// Adds a joker pair of `colour` to the action.
PlaceAction WithJoker(PlaceAction action, Colour colour);
v1::Action TurnOf(std::initializer_list<PlaceAction> actions);
v1::Action DrawBreath();

// The rule id of the violation, or "legal".
std::string RuleOf(const State& state, int seat, const v1::Action& action);

// Hand of a seat as counts per colour.
int Held(const AtlanticaState& state, int seat, Colour colour);

}  // namespace arbiter::engine::atlantica::testing

#endif  // ARBITER_TESTS_ENGINE_ATLANTICA_POSITION_BUILDER_H_
