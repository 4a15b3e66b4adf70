// Helpers shared by the Atlantis tests: the default ruleset, new games, and
// random legal playouts.
#ifndef ARBITER_TESTS_ENGINE_ATLANTIS_ATLANTIS_TEST_UTIL_H_
#define ARBITER_TESTS_ENGINE_ATLANTIS_ATLANTIS_TEST_UTIL_H_

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "engine/atlantis/game.h"
#include "engine/atlantis/state.h"
#include "engine/core/rng.h"
#include "tests/engine/atlantis/position_builder.h"

namespace arbiter::engine::atlantis::testing {

inline const v1::Ruleset& DefaultRuleset() {
  static const v1::Ruleset* const ruleset = [] {
    auto* r = new v1::Ruleset();
    google::protobuf::TextFormat::ParseFromString(std::string(DefaultRulesetText()), r);
    return r;
  }();
  return *ruleset;
}

inline std::unique_ptr<State> NewGame(int players, uint64_t seed,
                                      std::map<std::string, std::string> options = {}) {
  GameSetup setup;
  setup.ruleset = &DefaultRuleset();
  setup.seed = seed;
  setup.num_players = players;
  setup.options = std::move(options);
  auto state = AtlantisGame().NewInitialState(setup);
  EXPECT_TRUE(state.ok()) << state.status();
  return state.ok() ? *std::move(state) : nullptr;
}

inline const AtlantisState& AsAtlantis(const State& state) { return dynamic_cast<const AtlantisState&>(state); }

// The rule id of applying `action` for `seat`, or "" if it was legal.
inline std::string ApplyRule(State& state, Seat seat, const v1::Action& action) {
  std::optional<Violation> v = state.Apply(seat, action);
  return v ? v->rule : "";
}

}  // namespace arbiter::engine::atlantis::testing

#endif  // ARBITER_TESTS_ENGINE_ATLANTIS_ATLANTIS_TEST_UTIL_H_
