#include "engine/atlantica/state.h"

namespace arbiter::engine::atlantica {

AtlanticaState::AtlanticaState(std::shared_ptr<const Rules> rules, Board board, Rng rng)
    : State(static_cast<int>(board.players.size())), rules_(std::move(rules)), board_(std::move(board)), rng_(rng) {}

std::unique_ptr<State> AtlanticaState::Clone() const { return std::make_unique<AtlanticaState>(*this); }

std::vector<Seat> AtlanticaState::SeatsToAct() const {
  if (board_.over) return {};
  return {board_.to_move};
}

}  // namespace arbiter::engine::atlantica
