// What the engine benchmarks share: a game's default ruleset parsed once, and
// new games from it. A benchmark cannot go on without them, so a failure
// aborts the program.
#ifndef ARBITER_BENCH_ENGINE_BENCH_SETUP_H_
#define ARBITER_BENCH_ENGINE_BENCH_SETUP_H_

#include <google/protobuf/text_format.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "arbiter/v1/ruleset.pb.h"
#include "engine/core/game.h"
#include "engine/core/state.h"

namespace arbiter::engine::bench {

// Parses a ruleset's text; the caller keeps the result for the whole run.
inline const v1::Ruleset* ParseRulesetOrDie(std::string_view text) {
  auto* ruleset = new v1::Ruleset();
  if (!google::protobuf::TextFormat::ParseFromString(std::string(text), ruleset)) std::abort();
  return ruleset;
}

inline std::unique_ptr<State> NewGameOrDie(const Game& game, const v1::Ruleset& ruleset,
                                           int players, uint64_t seed) {
  GameSetup setup;
  setup.ruleset = &ruleset;
  setup.seed = seed;
  setup.num_players = players;
  auto state = game.NewInitialState(setup);
  if (!state.ok()) std::abort();
  return *std::move(state);
}

}  // namespace arbiter::engine::bench

#endif  // ARBITER_BENCH_ENGINE_BENCH_SETUP_H_
