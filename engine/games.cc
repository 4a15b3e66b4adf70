// The list of implemented games. Add a game here and in CMakeLists.txt.
#include "engine/atlantica/game.h"
#include "engine/atlantis/game.h"
#include "engine/atlantis_rising/game.h"
#include "engine/core/game.h"

namespace arbiter::engine {

const std::vector<const Game*>& AllGames() {
  static const auto* const games = new std::vector<const Game*>{
      &atlantis::AtlantisGame(),
      &atlantica::AtlanticaGame(),
      &atlantis_rising::AtlantisRisingGame(),
  };
  return *games;
}

}  // namespace arbiter::engine
