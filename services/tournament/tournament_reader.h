// A tournament's rounds with their results, read from its log and from its
// tables' games, and the API's views of rounds and standings.
//
// A table's result, in this order of precedence:
//   1. the last ruling on it (uphold keeps 3-4, void, corrected result);
//   2. the game voided in its own log: void;
//   3. a confirmed result: the game's "game_finished" event (legal);
//   4. otherwise pending.
// Reads only; thread-safe as the stores are.
#ifndef ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_READER_H_
#define ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_READER_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "engine/tournament/rounds.h"
#include "engine/tournament/standings.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"
#include "services/tournament/tournament_log.h"

namespace arbiter::tournament {

// What a table's game says about itself.
struct GameOutcome {
  store::GameStatus status = store::GameStatus::kUnspecified;
  std::optional<v1::GameFinished> finished;  // the last "game_finished" event
  int64_t finished_event = 0;
};

// NotFound for an unknown game; DataLoss if the event does not decode.
absl::StatusOr<GameOutcome> ReadOutcome(store::EventStore& events, const std::string& game_id);

// The outcome of every game of the tournament that has one (finished or
// voided), by game id, from the store's results in one read
// (ResultIndex::ReadTournamentResults); a game not listed is still active.
// DataLoss if a "game_finished" event does not decode.
using Outcomes = std::map<std::string, GameOutcome>;
absl::StatusOr<Outcomes> ReadOutcomes(store::ResultIndex& results, const std::string& tournament_id);
// The outcome of `game_name` ("games/{id}") in `outcomes` (active if absent).
const GameOutcome& OutcomeOf(const Outcomes& outcomes, const std::string& game_name);

// The model's result of a legal finished game, per seat of `seats`.
// FailedPrecondition for an illegal game or one whose players differ.
absl::StatusOr<engine::tournament::TableResult> ResultOf(const v1::GameFinished& finished,
                                                 const std::vector<std::string>& seats);

struct ReadRounds {
  std::vector<engine::tournament::Round> rounds;         // for the model
  std::vector<std::vector<v1::TableStatus>> status;  // per round, per table
  // Per round, per table: whether its game is over (finished, voided, or
  // given a result by a ruling), so that its seed no longer deals anything.
  std::vector<std::vector<bool>> game_over;
  // By game name ("games/{id}"): the score sheet of every table whose
  // counted result was reported rather than refereed.
  std::map<std::string, v1::ReportedResult> reported;
};

// Rounds 1..up_to (0: all started) with their results (see the header).
absl::StatusOr<ReadRounds> ReadResults(store::ResultIndex& results, const TournamentLog& log,
                                       int up_to);
// The same from outcomes already read.
ReadRounds ResultsFrom(const Outcomes& outcomes, const TournamentLog& log, int up_to);

// Who is shown the seeds that deal tables still in play: everyone who may
// (admins, auditors, the tournament's organisers), or nobody (seed_sight.h).
enum class SeedSight { kAll, kEndedGamesOnly };

// The API's round `number` (1-based, must exist) with its results. With
// kEndedGamesOnly the seed of every table whose game is not over is left
// out and seed_withheld set.
v1::TournamentRound RoundView(const TournamentLog& log, const ReadRounds& read, int number,
                              SeedSight sight);
v1::TournamentStandings StandingsView(const TournamentLog& log, int after_round,
                                      const std::vector<engine::tournament::StandingRow>& rows);
// Whether every table of the round has a result or a ruling.
bool IsClosed(const std::vector<v1::TableStatus>& status);

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_READER_H_
