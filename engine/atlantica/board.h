// Board: the whole position of an Atlantica game as plain data, and the
// deterministic setup from a seed.
//
// Piles are vectors whose back is the top card. Diver cards of one colour are
// interchangeable, so hands and the discard pile are counts per colour.
// Not thread-safe; copied freely.
#ifndef ARBITER_ENGINE_ATLANTICA_BOARD_H_
#define ARBITER_ENGINE_ATLANTICA_BOARD_H_

#include <array>
#include <cstdint>
#include <vector>

#include "engine/atlantica/rules.h"
#include "engine/atlantica/scoring.h"
#include "engine/core/rng.h"

namespace arbiter::engine::atlantica {

// In the hurricane stack: the hurricane card (any other value is a kind).
inline constexpr int8_t kHurricane = -2;
// In an area: no card.
inline constexpr int8_t kEmpty = -1;

struct PlayerBoard {
  ColourCounts hand{};
  std::array<int, kMaxKinds> treasures{};
  std::array<int, kMaxResearchTypes> research{};
  std::vector<int8_t> ships;  // crates of each ship card, in the order taken
  bool hurricane = false;

  Holding ToHolding() const;
};

struct Board {
  std::vector<PlayerBoard> players;
  std::vector<int8_t> draw_pile;  // diver colours
  ColourCounts discard{};
  std::vector<int8_t> treasure_stack;   // kinds
  std::vector<int8_t> hurricane_stack;  // kinds and kHurricane
  std::array<int8_t, kMaxAreas> treasure_areas;  // kind or kEmpty
  std::array<std::vector<int8_t>, kMaxStacks> ship_stacks;  // crates
  std::vector<int8_t> research_deck;  // research types
  std::array<int8_t, kMaxAreas> research_areas;  // type or kEmpty
  int to_move = 0;
  // Turns still to play once the hurricane is out; -1 before that.
  int final_turns_left = -1;
  bool over = false;

  Board() {
    treasure_areas.fill(kEmpty);
    research_areas.fill(kEmpty);
  }
};

// The position before the first turn, drawn from `rng` in this order:
//  1. divers: the deck in colour order (white, yellow, red, green, blue,
//     purple; `count` of each), shuffled; seat 1 draws its hand from the top,
//     then seat 2, ...
//  2. treasures: the deck in kind order (ruleset order, `cards` of each),
//     shuffled; the top `removed` cards go back to the box; the next
//     `hurricane_stack_treasures` cards plus the hurricane card (appended
//     last) are shuffled into the hurricane stack; the rest is the normal
//     stack, whose top cards fill areas 1, 2, ... in turn.
//  3. ships: each stack in ruleset order (its `crates` list), shuffled.
//  4. research: the deck in type order (`copies` of each), shuffled; the top
//     cards fill areas 1, 2, ... in turn.
// Later reshuffles of the diver discard pile draw from the same generator.
Board NewBoard(const Rules& rules, int num_players, Rng& rng);

// Draws up to `n` divers from the draw pile into `into`. When the pile is
// empty, the discard pile (laid out in colour order, white first) is
// shuffled into a new draw pile; when both are empty, drawing stops.
void DrawDivers(Board& board, int n, ColourCounts& into, Rng& rng);

// End of turn, after the cards of the turn are taken: slide treasures and
// research cards toward area 1, refill treasure areas from the normal stack,
// then from the hurricane stack (the hurricane card goes to `seat` and the
// area is filled with the next card), refill research areas, and advance to
// the next seat or end the game (see docs/atlantica.md).
void EndTurn(const Rules& rules, Board& board, int seat);

}  // namespace arbiter::engine::atlantica

#endif  // ARBITER_ENGINE_ATLANTICA_BOARD_H_
