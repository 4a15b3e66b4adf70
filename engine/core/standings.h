// Helpers for building v1::Standings in games.
#ifndef ARBITER_ENGINE_CORE_STANDINGS_H_
#define ARBITER_ENGINE_CORE_STANDINGS_H_

#include <string>

#include "arbiter/v1/standings.pb.h"

namespace arbiter::engine {

// Sets every player's place from score, then tie_break values in order
// (higher is better; a missing value counts as lower than any present one).
// Players equal on all of them share a place; the next place skips (1, 1, 3).
void AssignPlaces(v1::Standings& standings);

// Appends a breakdown line to `player`.
void AddScoreItem(v1::PlayerStanding& player, std::string label, int64_t points,
                  std::string detail = "");

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_STANDINGS_H_
