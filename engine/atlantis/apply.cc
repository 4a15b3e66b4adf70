// AtlantisState::DoApply: a legal Buy, Bridge, Move or Pass changes the
// board; a Move or Pass then draws and ends the turn, or ends the game.
#include "engine/atlantis/actions.h"
#include "engine/atlantis/state.h"

namespace arbiter::engine::atlantis {
namespace {

std::size_t U(int i) { return static_cast<std::size_t>(i); }

}  // namespace

void AtlantisState::DoApply(Seat /*seat*/, const v1::Action& action) {
  const v1::AtlantisAction& a = action.atlantis();
  Board& b = board_;
  Holdings& h = b.players[U(b.current)];
  switch (a.kind_case()) {
    case v1::AtlantisAction::kBuy: {
      const uint8_t tile = TileCode(ItemIndex(a.buy().tile().item()), a.buy().tile().value());
      h.RemoveTile(tile);
      b.turn_started = true;
      b.bought = true;
      Draw(TileValue(tile) / config_->buy_divisor, /*bought=*/true);
      return;
    }
    case v1::AtlantisAction::kBridge:
      --b.bridges_left[U(b.current)];
      b.path.set_bridged(a.bridge().position(), true);
      b.turn_started = true;
      b.stuck_passes = 0;
      return;
    case v1::AtlantisAction::kMove: {
      Route route;
      CheckMove(b, a.move(), route);
      for (int card : a.move().cards()) {
        h.RemoveCard(ItemIndex(card));
        ++discard_[U(ItemIndex(card))];
      }
      for (const v1::AtlantisTile& t : a.move().toll().tiles()) h.RemoveTile(TileCode(ItemIndex(t.item()), t.value()));
      // Paid tiles and cards leave the game ("Odevzdané karty a destičky jdou
      // ze hry"): they never reach the discard pile.
      for (int card : a.move().toll().cards()) h.RemoveCard(ItemIndex(card));
      const int mainland = b.path.mainland();
      if (route.start != 0) b.path.RemoveFigure(route.start);
      b.figures[U(b.current)][U(route.figure)] = static_cast<uint8_t>(route.dest);
      if (route.dest == mainland) {
        ++b.figures_home[U(b.current)];
      } else {
        b.path.AddFigure(route.dest);
      }
      if (const int behind = b.path.TileBehind(route.dest); behind != 0) h.AddTile(b.path.TakeTop(behind));
      if (a.move().bridge() != 0) {
        --b.bridges_left[U(b.current)];
        b.path.set_bridged(a.move().bridge(), true);
      }
      b.stuck_passes = 0;
      const int home = b.figures_home[U(b.current)];
      if (home == config_->figures) {
        Draw(config_->final_draw);
        b.over = true;
        b.finisher = b.current;
        return;
      }
      Draw(config_->draws_by_figures_home[U(home)]);
      EndTurn();
      return;
    }
    case v1::AtlantisAction::kPass:
      if (Draw(config_->cannot_move_draw) == 0) {
        if (++b.stuck_passes >= b.num_players) {
          b.over = true;
          b.finisher = -1;
          return;
        }
      } else {
        b.stuck_passes = 0;
      }
      EndTurn();
      return;
    case v1::AtlantisAction::KIND_NOT_SET:
      return;
  }
}

void AtlantisState::EndTurn() {
  board_.current = (board_.current + 1) % board_.num_players;
  board_.turn_started = false;
  board_.bought = false;
  board_.bought_cards.fill(0);
}

}  // namespace arbiter::engine::atlantis
