// The rounds of a tournament as the model sees them: tables with their players
// in seat order, each table's result (pending, played or void) and the players
// with a bye. The service builds these from the tournament's stream and the
// games' "game_finished" events; the model never reads anything itself.
#ifndef ARBITER_ENGINE_TOURNAMENT_ROUNDS_H_
#define ARBITER_ENGINE_TOURNAMENT_ROUNDS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace arbiter::engine::tournament {

// What a table's game gave, per seat.
struct TableResult {
  enum class Kind {
    kPending,  // no result yet: the table scores nothing (yet)
    kPlayed,   // a confirmed result or a ruling's corrected result
    kVoid,     // voided by a ruling: nobody at the table scores
  };
  Kind kind = Kind::kPending;
  std::vector<int> places;           // per seat, 1 is best; shared places repeat
  std::vector<int64_t> game_points;  // per seat, the game's own score
  bool cooperative = false;
  bool team_won = false;  // cooperative only
};

struct Table {
  int number = 0;                    // 1, 2, ... within the round
  std::vector<std::string> players;  // seat order: players[0] has seat 1
  uint64_t game_seed = 0;
  TableResult result;
};

struct Round {
  int number = 0;  // 1, 2, ...
  std::vector<Table> tables;
  std::vector<std::string> byes;
};

}  // namespace arbiter::engine::tournament

#endif  // ARBITER_ENGINE_TOURNAMENT_ROUNDS_H_
