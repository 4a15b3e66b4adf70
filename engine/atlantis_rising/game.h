// Atlantis Rising (Elf Creek Games 2019; cooperative, 1-7 players): the Game
// registered as "atlantis-rising".
//
// Header options (LogHeader.options; unknown keys and values are refused):
//   "difficulty": a name from the ruleset's `difficulties` (default: the
//                 first, "introductory": 9 Calm Seas, 3 Controlled Floods).
//   "blueprint":  a name from the ruleset's `blueprints` (default: the first,
//                 "introductory").
// Rules: docs/rules/atlantis-rising.md; docs/atlantis-rising.md. Thread-safe
// (immutable).
#ifndef ARBITER_ENGINE_ATLANTIS_RISING_GAME_H_
#define ARBITER_ENGINE_ATLANTIS_RISING_GAME_H_

#include <string_view>

#include "engine/core/game.h"

namespace arbiter::engine::atlantis_rising {

// The default ruleset text (atlantis_rising_elf_creek_2019.textproto).
std::string_view DefaultRulesetText();

// The singleton listed in engine/games.cc.
const Game& AtlantisRisingGame();

}  // namespace arbiter::engine::atlantis_rising

#endif  // ARBITER_ENGINE_ATLANTIS_RISING_GAME_H_
