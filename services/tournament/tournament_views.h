// The API's answers about a tournament, read from its folded log
// (tournament_log.h) and its games' results (tournament_reader.h): the
// tournament, one round with its results, and the standings after a round.
// Reads only; thread-safe as the store is.
#ifndef ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_VIEWS_H_
#define ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_VIEWS_H_

#include "absl/status/statusor.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "services/store/result_index.h"
#include "services/tournament/tournament_log.h"
#include "services/tournament/tournament_reader.h"

namespace arbiter::tournament {

// The tournament as GetTournament answers it, its status derived from its
// rounds. With kEndedGamesOnly its seed is left out (seed_withheld) until
// every round has started and every table's game is over. Errors of the
// results' read.
absl::StatusOr<v1::Tournament> ReadTournamentView(store::ResultIndex& results,
                                                  const TournamentLog& log, SeedSight sight);

// Round `number` with its results; with kEndedGamesOnly, the seeds of
// tables still in play left out (RoundView). NotFound ("tournament "x" has
// no round N (M started)") for a round that has not started.
absl::StatusOr<v1::TournamentRound> ReadRoundView(store::ResultIndex& results,
                                                  const TournamentLog& log, int number,
                                                  SeedSight sight);

// The standings after round `after_round` (0: the latest). NotFound for a
// round that has not started (or a negative one).
absl::StatusOr<v1::TournamentStandings> ReadStandingsView(store::ResultIndex& results,
                                                          const TournamentLog& log,
                                                          int after_round);

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_VIEWS_H_
