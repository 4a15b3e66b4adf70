// Atlantica: a legal turn or Draw breath changes the board, then the turn
// ends (board.h EndTurn); AtlanticaState::DoApply.
#include "engine/atlantica/actions.h"
#include "engine/atlantica/state.h"

namespace arbiter::engine::atlantica {
namespace {

using v1::Atlantica;
using PlaceAction = v1::AtlanticaAction::PlaceAction;

}  // namespace

void ApplyTurn(const Rules& rules, Board& board, Rng& rng, int seat, const v1::AtlanticaAction::Turn& turn) {
  PlayerBoard& me = board.players[seat];
  int pending = 0;
  auto take_treasure = [&](int area) {
    ++me.treasures[board.treasure_areas[area - 1]];
    board.treasure_areas[area - 1] = kEmpty;
  };
  auto take_research = [&](int area) {
    ++me.research[board.research_areas[area - 1]];
    board.research_areas[area - 1] = kEmpty;
  };
  auto take_ship = [&](int stack) {
    me.ships.push_back(board.ship_stacks[stack].back());
    board.ship_stacks[stack].pop_back();
  };
  for (const PlaceAction& a : turn.actions()) {
    for (int c : a.divers()) {
      const int colour = ColourIndex(static_cast<Atlantica::Colour>(c));
      --me.hand[colour];
      ++board.discard[colour];
    }
    for (int c : a.joker()) {
      const int colour = ColourIndex(static_cast<Atlantica::Colour>(c));
      --me.hand[colour];
      ++board.discard[colour];
    }
    const int place = PlaceIndex(a.place());
    const TierRules& tier = rules.places[place].tiers[a.tier() - 1];
    switch (a.place()) {
      case Atlantica::DIVING_BOAT:
        for (int area : a.areas()) take_treasure(area);
        break;
      case Atlantica::RESEARCH_STATION:
        for (int area : a.areas()) take_research(area);
        break;
      case Atlantica::HARBOUR:
        take_ship(tier.stack);
        break;
      case Atlantica::PUB:
        pending += tier.draw;
        for (const auto& pick : a.picks()) {
          if (pick.place() == Atlantica::DIVING_BOAT) take_treasure(pick.area());
          if (pick.place() == Atlantica::RESEARCH_STATION) take_research(pick.area());
          if (pick.place() == Atlantica::HARBOUR) take_ship(pick.area() - 1);
        }
        break;
      default:
        break;
    }
  }
  if (pending > 0) DrawDivers(board, pending, me.hand, rng);
  EndTurn(rules, board, seat);
}

void ApplyDrawBreath(const Rules& rules, Board& board, Rng& rng, int seat) {
  DrawDivers(board, rules.draw_breath_cards, board.players[seat].hand, rng);
  EndTurn(rules, board, seat);
}

void AtlanticaState::DoApply(Seat seat, const v1::Action& action) {
  const auto& a = action.atlantica();
  if (a.has_draw_breath()) {
    ApplyDrawBreath(*rules_, board_, rng_, seat);
  } else {
    ApplyTurn(*rules_, board_, rng_, seat, a.turn());
  }
}

}  // namespace arbiter::engine::atlantica
