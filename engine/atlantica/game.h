// AtlanticaGame: the factory and metadata of Atlantica (registered as
// "atlantica"). Immutable and thread-safe.
#ifndef ARBITER_ENGINE_ATLANTICA_GAME_H_
#define ARBITER_ENGINE_ATLANTICA_GAME_H_

#include "engine/core/game.h"

namespace arbiter::engine::atlantica {

// The registered instance.
const Game& AtlanticaGame();

// The default ruleset file's text (atlantica_piatnik_2018.textproto).
std::string_view DefaultRulesetText();

}  // namespace arbiter::engine::atlantica

#endif  // ARBITER_ENGINE_ATLANTICA_GAME_H_
