// Atlantis: a picture of a position for people (`arbiter show`): the path from
// Atlantis to the Mainland with top tiles, stack heights, water, bridges and
// figures (seat.figure), then every player's hand, tiles and bridges.
#ifndef ARBITER_ENGINE_ATLANTIS_RENDER_H_
#define ARBITER_ENGINE_ATLANTIS_RENDER_H_

#include <string>

#include "engine/atlantis/board.h"
#include "engine/core/players.h"

namespace arbiter::engine::atlantis {

std::string RenderBoard(const Board& board, int deck_size, int discard_size, const Players& players);

}  // namespace arbiter::engine::atlantis

#endif  // ARBITER_ENGINE_ATLANTIS_RENDER_H_
