// The rounds of a tournament as the model sees them: tables with their players
// in seat order, each table's result (pending, played or void) and the players
// with a bye. The service builds these from the tournament's stream and the
// games' "game_finished" events; the model never reads anything itself.
#ifndef ARBITER_ENGINE_TOURNAMENT_ROUNDS_H_
#define ARBITER_ENGINE_TOURNAMENT_ROUNDS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace arbiter::engine::tournament {

// What a seat did at a table whose result was reported (a score sheet).
enum class SeatOutcome {
  kPlayed,
  kNoShow,   // did not come: scores the settings' no_show_points
  kForfeit,  // conceded or left: scores the settings' forfeit_points
};

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
  // A result reported from a score sheet rather than refereed.
  bool reported = false;
  // Per seat, or empty when every seat played. Seats that played are placed
  // among themselves (1 up to how many played); the others' places and game
  // points are 0.
  std::vector<SeatOutcome> outcomes;

  SeatOutcome OutcomeOf(size_t seat) const {
    return seat < outcomes.size() ? outcomes[seat] : SeatOutcome::kPlayed;
  }
  bool Played(size_t seat) const { return OutcomeOf(seat) == SeatOutcome::kPlayed; }
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

// How the field changed after round 1 started (docs/tournaments.md, "Late
// entries and withdrawals"). Players not named here entered before round 1
// and never withdrew; a tournament without changes gives exactly the rounds
// and standings it gave before late entries existed.
struct FieldChanges {
  // A late entrant: the first round they could be paired in (the round that
  // had not started when they registered), 2 or more.
  std::map<std::string, int> first_round;
  // A withdrawn player: how many rounds had started when they withdrew. They
  // are paired in no later round; the standings keep them.
  std::map<std::string, int> withdrawn_after;

  // The first round `player` could play (1 unless a late entrant).
  int FirstRound(const std::string& player) const {
    auto it = first_round.find(player);
    return it == first_round.end() ? 1 : it->second;
  }
  bool Withdrawn(const std::string& player) const { return withdrawn_after.contains(player); }
};

}  // namespace arbiter::engine::tournament

#endif  // ARBITER_ENGINE_TOURNAMENT_ROUNDS_H_
