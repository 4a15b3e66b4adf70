// TournamentSettings: what an organiser fixes and publishes before round 1 of
// a tournament (docs/tournaments.md): the game type, the number of rounds, the
// table sizes allowed and preferred, what to do with players left over, the
// scoring scheme and the tie-break order. Pure data and validation; no I/O.
//
// Points are exact: an int64 count of 1/840ths of a point (840 is the least
// common multiple of 1..8, so a shared place at a table of up to 8 players
// splits without rounding). FormatPoints prints them for people.
#ifndef ARBITER_ENGINE_TOURNAMENT_SETTINGS_H_
#define ARBITER_ENGINE_TOURNAMENT_SETTINGS_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace arbiter::engine::tournament {

using Points = int64_t;                    // 1/840ths of a point
inline constexpr Points kPointUnit = 840;  // one whole point
inline constexpr int kMinTableSize = 2;
inline constexpr int kMaxTableSize = 8;
inline constexpr int kMaxRounds = 100;

// "3", "2.5", "3.25", "2.333": at most three decimals (truncated), no
// trailing zeros.
std::string FormatPoints(Points points);

enum class Scoring {
  kPlaces,      // place_points[place - 1]; shared places split their points
  kTableShare,  // share_points * (own game points) / (the table's game points)
};

// When the players do not fill tables of the preferred size.
enum class Leftover {
  kMixedSizes,  // tables of other allowed sizes too (see table_plan.h)
  kByes,           // only preferred-size tables; the rest sit out with bye_points
};

// Tie-breaks, applied in the published order after total points; the lot
// drawn from the seed always comes last. Names are part of the API.
enum class TieBreak { kGamePoints, kWins, kStrengthOfSchedule, kHeadToHead };

// "game_points", "wins", "strength_of_schedule", "head_to_head".
std::string_view TieBreakName(TieBreak criterion);
// InvalidArgument naming the unknown criterion and the known ones.
absl::StatusOr<TieBreak> ParseTieBreak(std::string_view name);

struct TournamentSettings {
  std::string game_type;
  uint64_t seed = 0;  // round 1's order, every table's game seed, the lot
  // A drawn lot (docs/tournaments.md, "The drawn lot"): round 1's order and
  // the lot come from seeds the server draws, one per entry group (the
  // players first paired in round r, drawn when round r starts: key r), in
  // place of `seed`; the tables' seeds still derive from `seed`. A group not
  // drawn yet keeps its registration order.
  bool draw_lot = false;
  std::map<int, uint64_t> drawn_lots;
  int rounds = 0;
  std::vector<int> table_sizes;  // allowed, each 2..8
  int preferred_size = 0;        // one of table_sizes
  Leftover leftover = Leftover::kMixedSizes;
  Scoring scoring = Scoring::kPlaces;
  std::vector<int64_t> place_points;  // whole points for places 1, 2, ...; missing: 0
  int64_t share_points = 100;         // kTableShare: a table's whole points
  int64_t bye_points = 0;             // whole points for a bye
  int64_t no_show_points = 0;         // whole points for a seat that did not come
  int64_t forfeit_points = 0;         // whole points for a seat that conceded
  std::vector<TieBreak> tie_breaks;
};


// InvalidArgument naming the first bad field ("rounds: ...",
// "table_sizes: ...", "preferred_size: ...", "place_points: ...",
// "tie_breaks: ...").
absl::Status ValidateSettings(const TournamentSettings& settings);

// InvalidArgument for an empty list, an empty or over-long id (1-200 bytes)
// or a player listed twice (named).
absl::Status ValidatePlayers(const std::vector<std::string>& players);

}  // namespace arbiter::engine::tournament

#endif  // ARBITER_ENGINE_TOURNAMENT_SETTINGS_H_
