// Test helpers for Atlantis Rising: action makers and a position builder, so
// that tests read as stories ("seat 1 places on hills tile 2; the hills
// flood; seat 1's Atlantean is back in the pool").
#ifndef ARBITER_TESTS_ENGINE_ATLANTIS_RISING_POSITION_BUILDER_H_
#define ARBITER_TESTS_ENGINE_ATLANTIS_RISING_POSITION_BUILDER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/v1/action.pb.h"
#include "arbiter/v1/ruleset.pb.h"
#include "engine/atlantis_rising/state.h"
#include "engine/core/violation.h"

namespace arbiter::engine::atlantis_rising::testing {

using v1::AtlantisRising;

// A spot as Place and Act name it; the default names nothing.
struct Spot {
  Peninsula peninsula = AtlantisRising::PENINSULA_UNSPECIFIED;
  int position = 0;
  bool centre = false;
  int build_site = 0;
  std::string component;
};
Spot Tile(Peninsula peninsula, int position);
Spot Centre();
Spot Site(int build_site);
Spot OnComponent(const std::string& id);

// Actions.
v1::Action PlaceOn(const Spot& spot);
v1::Action FinishPlacement();
v1::Action FloodAction(Peninsula peninsula);
v1::Action ActOn(const Spot& spot, Resource choice = AtlantisRising::RESOURCE_UNSPECIFIED);
v1::Action Boost(int energy);
v1::Action Keep(const std::vector<std::string>& cards);
v1::Action Pledge(int build_site, Resource resource);
v1::Action Build(int build_site, const std::string& component);
v1::Action Abandon(int build_site);
v1::Action Play(const std::string& card, Resource resource = AtlantisRising::RESOURCE_UNSPECIFIED,
                Peninsula peninsula = AtlantisRising::PENINSULA_UNSPECIFIED);
v1::Action Discard(const std::string& card);

// The default ruleset, parsed.
const v1::Ruleset& DefaultRuleset();
// A ruleset parsed from `text`; fails the test on a parse or validation error.
v1::Ruleset ParseRulesetOrDie(const std::string& text);

// A seed whose generator's first Roll(sides) returns `face` (found by search,
// for tests that need a known die).
uint64_t SeedRollingFirst(int face, int sides = 6);

// A game at the table: the state plus story verbs. Seats are 1-based here,
// as people count them.
class Table {
 public:
  explicit Table(int players, uint64_t seed = 1, std::map<std::string, std::string> options = {},
                 const v1::Ruleset* ruleset = nullptr);

  AtlantisRisingState& state() { return *state_; }
  const Position& pos() const { return state_->position(); }
  Position& edit() { return state_->MutablePositionForTest(); }
  const PlayerState& player(int seat) const { return pos().players[static_cast<std::size_t>(seat - 1)]; }
  PlayerState& edit_player(int seat) { return edit().players[static_cast<std::size_t>(seat - 1)]; }
  int Resource(int seat, Resource r) const {
    return player(seat).resources[static_cast<std::size_t>(ResourceIndex(r))];
  }

  // Applies an action; returns the violation if illegal.
  std::optional<Violation> Do(int seat, const v1::Action& action);
  // Applies an action that must be legal (fails the test otherwise).
  void Must(int seat, const v1::Action& action);
  // The rule id of an illegal action, or "" if it was legal (and applied).
  std::string RuleOf(int seat, const v1::Action& action);

  // --- Position building (edit the state directly, then continue playing).
  // Skips to the actions phase with the given Atlanteans already placed
  // (each entry: seat, spot), drawing no misfortunes.
  Table& ActionsWith(const std::vector<std::pair<int, Spot>>& placed);
  Table& Flooded(Peninsula peninsula, int tiles);
  Table& Energy(int seat, int energy);
  Table& Give(int seat, ::arbiter::engine::atlantis_rising::Resource r, int amount);
  Table& Hand(int seat, const std::vector<std::string>& cards);
  Table& LibraryDeck(const std::vector<std::string>& cards);
  // Misfortune deck top first: FLOOD cards by peninsula, or CALM_SEAS /
  // CONTROLLED_FLOOD with PENINSULA_UNSPECIFIED.
  Table& MisfortuneDeck(const std::vector<std::pair<AtlantisRising::Misfortune, Peninsula>>& cards);
  Table& Built(const std::string& component);
  // The next dice come from a generator seeded with `seed`.
  Table& DiceSeed(uint64_t seed);

 private:
  std::unique_ptr<AtlantisRisingState> state_;
};

}  // namespace arbiter::engine::atlantis_rising::testing

#endif  // ARBITER_TESTS_ENGINE_ATLANTIS_RISING_POSITION_BUILDER_H_
