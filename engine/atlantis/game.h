// Atlantis (Leo Colovini, Amigo 2009): the Game registered as "atlantis" —
// metadata, built-in ruleset (atlantis_amigo_2009.textproto), ruleset
// validation, action shape checks and new games (game.cc). Rules:
// docs/rules/atlantis.md; docs/atlantis.md.
//
// Options (GameSetup::options; Options() gives each with its meaning, the
// first value being the default):
//   toll_payment = tiles_and_cards | tiles_or_cards
//   toll_overpay = minimal | only_without_exact
//   bought_cards_pay_tolls = yes | no
// Immutable and thread-safe.
#ifndef ARBITER_ENGINE_ATLANTIS_GAME_H_
#define ARBITER_ENGINE_ATLANTIS_GAME_H_

#include <string_view>

#include "engine/core/game.h"

namespace arbiter::engine::atlantis {

// The registered instance (listed in engine/games.cc).
const Game& AtlantisGame();

// The default ruleset file's text (atlantis_amigo_2009.textproto).
std::string_view DefaultRulesetText();

}  // namespace arbiter::engine::atlantis

#endif  // ARBITER_ENGINE_ATLANTIS_GAME_H_
