#include "absl/strings/str_join.h"
#include "engine/core/game.h"

namespace arbiter::engine {

const Game* FindGame(std::string_view name) {
  for (const Game* game : AllGames()) {
    if (game->name() == name) return game;
  }
  return nullptr;
}

std::string GameNames() {
  std::vector<std::string> names;
  for (const Game* game : AllGames()) names.emplace_back(game->name());
  return absl::StrJoin(names, ", ");
}

}  // namespace arbiter::engine
