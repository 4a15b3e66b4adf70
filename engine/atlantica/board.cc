#include "engine/atlantica/board.h"

namespace arbiter::engine::atlantica {
namespace {

// Slides the cards of the first `areas` slots toward slot 0, keeping order.
void Slide(std::array<int8_t, kMaxAreas>& row, int areas) {
  int out = 0;
  for (int i = 0; i < areas; ++i) {
    if (row[i] != kEmpty) row[out++] = row[i];
  }
  for (int i = out; i < areas; ++i) row[i] = kEmpty;
}

}  // namespace

Holding PlayerBoard::ToHolding() const {
  Holding h;
  h.treasures = treasures;
  h.research = research;
  h.ships = static_cast<int>(ships.size());
  for (int8_t c : ships) h.crates += c;
  return h;
}

Board NewBoard(const Rules& rules, int num_players, Rng& rng) {
  Board b;
  b.players.resize(num_players);
  for (int c = 0; c < kColours; ++c) {
    for (int i = 0; i < rules.divers[c]; ++i) b.draw_pile.push_back(static_cast<int8_t>(c));
  }
  rng.Shuffle(b.draw_pile);
  for (PlayerBoard& p : b.players) {
    for (int i = 0; i < rules.hand_size; ++i) {
      ++p.hand[b.draw_pile.back()];
      b.draw_pile.pop_back();
    }
  }

  std::vector<int8_t> treasures;
  for (int k = 0; k < rules.num_kinds; ++k) {
    for (int i = 0; i < rules.kind_cards[k]; ++i) treasures.push_back(static_cast<int8_t>(k));
  }
  rng.Shuffle(treasures);
  treasures.resize(treasures.size() - static_cast<std::size_t>(rules.RemovedFor(num_players)));
  for (int i = 0; i < rules.hurricane_stack_treasures; ++i) {
    b.hurricane_stack.push_back(treasures.back());
    treasures.pop_back();
  }
  b.hurricane_stack.push_back(kHurricane);
  rng.Shuffle(b.hurricane_stack);
  b.treasure_stack = std::move(treasures);
  for (int a = 0; a < rules.treasure_areas; ++a) {
    b.treasure_areas[a] = b.treasure_stack.back();
    b.treasure_stack.pop_back();
  }

  for (int s = 0; s < rules.num_stacks; ++s) {
    for (int crates : rules.ship_crates[s]) b.ship_stacks[s].push_back(static_cast<int8_t>(crates));
    rng.Shuffle(b.ship_stacks[s]);
  }

  for (int t = 0; t < rules.num_research; ++t) {
    for (int i = 0; i < rules.research_copies[t]; ++i) b.research_deck.push_back(static_cast<int8_t>(t));
  }
  rng.Shuffle(b.research_deck);
  for (int a = 0; a < rules.research_areas && !b.research_deck.empty(); ++a) {
    b.research_areas[a] = b.research_deck.back();
    b.research_deck.pop_back();
  }
  return b;
}

void DrawDivers(Board& board, int n, ColourCounts& into, Rng& rng) {
  for (int i = 0; i < n; ++i) {
    if (board.draw_pile.empty()) {
      for (int c = 0; c < kColours; ++c) {
        for (int j = 0; j < board.discard[c]; ++j) board.draw_pile.push_back(static_cast<int8_t>(c));
        board.discard[c] = 0;
      }
      if (board.draw_pile.empty()) return;
      rng.Shuffle(board.draw_pile);
    }
    ++into[board.draw_pile.back()];
    board.draw_pile.pop_back();
  }
}

void EndTurn(const Rules& rules, Board& board, int seat) {
  Slide(board.treasure_areas, rules.treasure_areas);
  Slide(board.research_areas, rules.research_areas);
  bool hurricane_now = false;
  for (int a = 0; a < rules.treasure_areas; ++a) {
    while (board.treasure_areas[a] == kEmpty) {
      std::vector<int8_t>& from = !board.treasure_stack.empty() ? board.treasure_stack : board.hurricane_stack;
      if (from.empty()) break;
      const int8_t card = from.back();
      from.pop_back();
      if (card == kHurricane) {
        board.players[seat].hurricane = true;
        hurricane_now = true;
      } else {
        board.treasure_areas[a] = card;
      }
    }
  }
  for (int a = 0; a < rules.research_areas; ++a) {
    if (board.research_areas[a] == kEmpty && !board.research_deck.empty()) {
      board.research_areas[a] = board.research_deck.back();
      board.research_deck.pop_back();
    }
  }
  const int n = static_cast<int>(board.players.size());
  if (hurricane_now) {
    board.final_turns_left = n;
  } else if (board.final_turns_left > 0 && --board.final_turns_left == 0) {
    board.over = true;
  }
  board.to_move = (seat + 1) % n;
}

}  // namespace arbiter::engine::atlantica
