// Tournament points for one table's result under the tournament's scoring
// scheme (docs/tournaments.md):
//   - kPlaces: a player placed p alone gets place_points[p-1] (0 beyond the
//     list). k players sharing place p share the points of places p..p+k-1
//     equally: ({4,2,1,0}, places {1,2,2,4}) gives 4, 1.5, 1.5, 0.
//   - kTableShare: share_points * g / G, where g is the player's game points
//     and G the table's total (negative game points count as 0; G = 0 splits
//     share_points equally), rounded down to 1/840 of a point.
//   - Cooperative games score the team result: when the team won every
//     player scores as a sole winner (place_points[0], or share_points);
//     when it lost, nobody scores.
//   - A reported result may mark seats as no-shows or forfeits: those score
//     no_show_points or forfeit_points and never win; the seats that played
//     are scored among themselves as above (a 4-seat table with one no-show
//     scores its three players' places 1-3 and shares among three).
// Pure; deterministic.
#ifndef ARBITER_ENGINE_TOURNAMENT_SCORING_H_
#define ARBITER_ENGINE_TOURNAMENT_SCORING_H_

#include <vector>

#include "absl/status/statusor.h"
#include "engine/tournament/rounds.h"
#include "engine/tournament/settings.h"

namespace arbiter::engine::tournament {

// Points per seat for a played result. InvalidArgument when the result does
// not fit the table (a list of the wrong length, a place outside 1..seats).
absl::StatusOr<std::vector<Points>> ScoreTable(const TournamentSettings& settings,
                                               const Table& table);

// The points of a seat that did not play (0 for kPlayed).
Points AbsentPoints(const TournamentSettings& settings, SeatOutcome outcome);

// Whether seat `seat` won: place 1 (alone or shared), or its team won.
bool IsWin(const TableResult& result, size_t seat);

// InvalidArgument when `result` (kPlayed) does not fit a table of `seats`.
absl::Status CheckResult(const TableResult& result, size_t seats);

}  // namespace arbiter::engine::tournament

#endif  // ARBITER_ENGINE_TOURNAMENT_SCORING_H_
