// Atlantis: the end phase and the final standings.
//
// When the game ends, every other player's figures still on the path go to
// the Mainland without cards, each paying every unbridged gap ahead of it (no
// new bridges); all of a player's tolls are pooled. The payment that costs the
// player the fewest points is chosen for them (tiles at face value, cards 1
// each; the smallest total that covers the toll; among equal totals, the one
// with the fewest cards; tiles of the lowest item first). What cannot be paid
// is subtracted (assumed). Under the "tiles_or_cards" option the payment is
// all tiles or all cards; if neither covers, the player pays every tile or
// every card, whichever is worth more (tiles if equal), and the rest is
// unpaid. After a stalemate every player pays this way.
// Score = tile values + 1 per card in hand (after paying) - unpaid toll; equal
// scores share a place (no tie-break: the rulebook gives a shared win).
#ifndef ARBITER_ENGINE_ATLANTIS_SCORING_H_
#define ARBITER_ENGINE_ATLANTIS_SCORING_H_

#include <string>
#include <vector>

#include "arbiter/v1/standings.pb.h"
#include "engine/atlantis/board.h"

namespace arbiter::engine::atlantis {

struct EndPhase {
  int tile_points = 0;  // before paying
  int cards = 0;        // before paying
  int toll = 0;         // all gaps ahead of all the player's remaining figures
  std::string toll_detail;
  std::vector<uint8_t> paid_tiles;
  int paid_cards = 0;
  int paid = 0;         // points handed over
  int unpaid = 0;
  int score = 0;
};

// The end phase of `seat` on a finished board.
EndPhase ScoreEndPhase(const Board& board, int seat);

// Standings of a finished board, seats in order, places assigned.
v1::Standings FinalStandings(const Board& board);

}  // namespace arbiter::engine::atlantis

#endif  // ARBITER_ENGINE_ATLANTIS_SCORING_H_
