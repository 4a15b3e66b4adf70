// Standings of a tournament after any number of rounds, each row explained:
// the points of every round and the value of every tie-break.
//
// Order (docs/tournaments.md): total points, then the published tie-breaks in
// their order, then the lot. A criterion only orders players still tied on
// every criterion before it:
//   game_points           the sum of the player's own game scores (more first)
//   wins                  games placed 1st, alone or shared, or won as a team
//   strength_of_schedule  Buchholz-style: the average total points of the
//                         opponents met, one term per opponent per counted
//                         game (higher first; compared exactly as fractions)
//   head_to_head          within the tied group only: for every counted game
//                         two of them played at one table, +1 to the better
//                         placed and -1 to the other (more first)
//   lot                   LotNumbers(seed): a permutation drawn once from the
//                         tournament's seed (lower first); it separates any tie
// Counted games are tables with a played result; void and pending tables
// count for nothing. At a reported table a no-show met nobody; a forfeit met
// the table and is placed below every seat that played (head_to_head).
// Pure; deterministic.
#ifndef ARBITER_ENGINE_TOURNAMENT_STANDINGS_H_
#define ARBITER_ENGINE_TOURNAMENT_STANDINGS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/tournament/rounds.h"
#include "engine/tournament/settings.h"

namespace arbiter::engine::tournament {

struct RoundEntry {
  // kWithdrawn: a round after the player withdrew; kNotEntered: a round
  // before a late entrant's first; kNoShow, kForfeit: a reported result
  // that marks the seat so (the settings' points, no place).
  enum class Kind {
    kPlayed, kBye, kVoid, kPending, kAbsent, kWithdrawn, kNotEntered, kNoShow, kForfeit
  };
  int round = 0;
  Kind kind = Kind::kAbsent;
  int table = 0;  // kPlayed, kVoid, kPending
  int seat = 0;   // 1-based
  int place = 0;  // kPlayed, competitive games
  Points points = 0;
  int64_t game_points = 0;
  bool reported = false;  // the table's result came from a score sheet
};

struct StandingRow {
  int rank = 0;  // 1, 2, ...: the lot leaves no two rows tied
  std::string player;
  Points points = 0;
  std::vector<RoundEntry> rounds;  // one per round, in order
  int64_t game_points = 0;
  int64_t wins = 0;
  Points opponents_points = 0;  // strength of schedule = this / opponents_met
  int64_t opponents_met = 0;
  // Set when head_to_head was needed for this row's tie group.
  std::optional<int64_t> head_to_head;
  int lot = 0;
  // What put this row above the next one: "points", a tie-break name or
  // "lot"; empty for the last row.
  std::string decided_by;
};

// Strength of schedule, rounded down to 1/840; 0 with no opponents.
Points StrengthOfSchedule(const StandingRow& row);

// Each player's lot number (1 is best): the players who entered before round
// 1 in registration order shuffled by Rng(seed ^ 0x6c6f74) (docs/
// tournaments.md); then the late entrants of round 2, of round 3, ..., each
// group in registration order shuffled by Rng(seed ^ 0x6c6f74 ^ (r << 40))
// for its first round r. A late entry never changes an earlier lot.
std::map<std::string, int> LotNumbers(uint64_t seed, const std::vector<std::string>& players,
                                      const FieldChanges& changes = {});
// The lot numbers as `settings` draws them: LotNumbers(settings.seed, ...),
// or with settings.draw_lot each entry group shuffled by
// Rng(drawn_lots[r] ^ 0x6c6f74) once drawn, in registration order before.
std::map<std::string, int> LotNumbers(const TournamentSettings& settings,
                                      const std::vector<std::string>& players,
                                      const FieldChanges& changes = {});

// One row for every player who could play the round after `rounds` (a late
// entrant appears once registered for the next round). InvalidArgument for a
// round that seats an unregistered player, seats a player twice, or holds a
// result that does not fit its table (named).
absl::StatusOr<std::vector<StandingRow>> ComputeStandings(
    const TournamentSettings& settings, const std::vector<std::string>& players,
    const std::vector<Round>& rounds, const FieldChanges& changes = {});

}  // namespace arbiter::engine::tournament

#endif  // ARBITER_ENGINE_TOURNAMENT_STANDINGS_H_
