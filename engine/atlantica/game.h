// Atlantica (Fiore & Happel, Piatnik 2018): the Game registered as
// "atlantica" — metadata, built-in ruleset (atlantica_piatnik_2018.textproto),
// ruleset validation, action shape checks and new games (game.cc). It has no
// header options. Rules: docs/rules/atlantica.md; docs/atlantica.md.
// Immutable and thread-safe.
#ifndef ARBITER_ENGINE_ATLANTICA_GAME_H_
#define ARBITER_ENGINE_ATLANTICA_GAME_H_

#include <string_view>

#include "engine/core/game.h"

namespace arbiter::engine::atlantica {

// The registered instance (listed in engine/games.cc).
const Game& AtlanticaGame();

// The default ruleset file's text (atlantica_piatnik_2018.textproto).
std::string_view DefaultRulesetText();

}  // namespace arbiter::engine::atlantica

#endif  // ARBITER_ENGINE_ATLANTICA_GAME_H_
