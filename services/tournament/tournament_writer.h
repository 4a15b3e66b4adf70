// TournamentWriter: the writes of a tournament (CreateTournament,
// RegisterPlayers, StartRound, ConfirmResult of tournament_service.proto),
// each checked in full before anything is stored, and what each answers.
//
// Every write appends to the tournament's stream ("tournaments/{id}",
// tournament_log.h) under a request id derived from the caller and the
// client's request id (StreamRequestId), with the stream's last sequence as
// the expected one: a repeated request reaches the store as the same request
// and is answered again; concurrent writes to one tournament race on the
// expected sequence (ABORTED for the loser, nothing written).
//
// StartRound creates the round's games first, together, through the
// GameWriter (request ids derived from the tournament, round and table, so a
// retry finds them), then records the round in as many events as it needs
// (round_parts.h). A StartRound stopped between those events leaves the round
// recorded in part: the next StartRound for it finishes it under the first
// attempt's request ids (ABORTED if earlier results have changed the deal
// since), and its own events name it so that its retry is answered too.
//
// Thread-safe as the stores and the GameWriter are.
#ifndef ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_WRITER_H_
#define ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_WRITER_H_

#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "services/access/permissions.h"
#include "services/games/game_writer.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"
#include "services/tournament/round_parts.h"
#include "services/tournament/tournament_log.h"

namespace arbiter::tournament {

class TournamentWriter {
 public:
  // The stores and the writer must outlive this object.
  TournamentWriter(store::StreamStore& streams, store::EventStore& events,
                   store::ResultIndex& results, games::GameWriter& games)
      : streams_(streams), events_(events), results_(results), games_(games) {}

  // The RPCs of the same names; each answers as the RPC does (the tournament
  // or the round as it stands after the write). Errors: InvalidArgument with
  // a field violation for a bad field, PermissionDenied for a caller who may
  // not manage the tournament, NotFound for an unknown tournament, round or
  // table, FailedPrecondition for a write the tournament's state refuses
  // (each message says why), AlreadyExists for a tournament id in use,
  // Aborted for a concurrent write, and the stores' errors.
  absl::StatusOr<v1::Tournament> CreateTournament(const access::Caller& caller,
                                                  const v1::CreateTournamentRequest& request);
  absl::StatusOr<v1::Tournament> RegisterPlayers(const access::Caller& caller,
                                                 const v1::RegisterPlayersRequest& request);
  absl::StatusOr<v1::TournamentRound> StartRound(const access::Caller& caller,
                                                 const v1::StartRoundRequest& request);
  absl::StatusOr<v1::TournamentRound> ConfirmResult(const access::Caller& caller,
                                                    const v1::ConfirmResultRequest& request);

 private:
  // The name parsed, the request id and the caller checked, the tournament
  // read: what every write to an existing tournament does first.
  absl::StatusOr<TournamentLog> ForWrite(const access::Caller& caller, const std::string& name,
                                         const std::string& request_id);
  // The tournament read again, as the writes answer.
  absl::StatusOr<v1::Tournament> Answer(const std::string& id);
  // A StartRound for round `number`, already started: answered with the
  // round if `request_id` (as stored) started or finished it, else refused.
  absl::StatusOr<v1::TournamentRound> AnswerStarted(const TournamentLog& log, int number,
                                                    const std::string& request_id);
  // The next round as the model deals it from the results so far.
  absl::StatusOr<v1::RoundStarted> DealNextRound(const TournamentLog& log);
  // The commitment to a drawn lot's secret of `round` of tournament `id`:
  // draws the secret and keeps it in the store (a retry keeps the first).
  absl::StatusOr<std::string> LotCommitmentFor(const std::string& id, int round);
  // `log` with the next round's lot drawn, for a tournament with a drawn
  // lot: the kept secret (checked against the commitment made for the
  // round) and its entry group's seed. `log` itself otherwise, or when an
  // interrupted start already recorded the draw.
  absl::StatusOr<TournamentLog> WithDrawnLot(const TournamentLog& log);
  // Sets the drawn round's secret on `started` and, unless it is the last
  // round, the commitment to the next round's secret.
  absl::Status AddLotDraw(const TournamentLog& drawn, v1::RoundStarted& started);
  // Creates the games of a round's tables together (or accepts those an
  // earlier attempt created).
  absl::Status CreateTableGames(const access::Caller& caller, const TournamentLog& log,
                                const v1::RoundStarted& round);
  // Appends the events that record `round` (the rest of it, if an earlier
  // StartRound recorded it in part) for the request stored as `request_id`.
  absl::Status RecordRound(const access::Caller& caller, const TournamentLog& log,
                           const v1::RoundStarted& round, const RoundResume& resume,
                           const std::string& request_id);
  // The confirmations ConfirmResult asks for: `table`'s, or with table 0
  // those of every finished table of the round not yet confirmed or ruled.
  absl::StatusOr<v1::ResultsConfirmed> Confirmations(const TournamentLog& log, int round,
                                                     int table);
  absl::Status RecordConfirmations(const access::Caller& caller, const TournamentLog& log,
                                   const std::string& request_id, bool one_table,
                                   const v1::ResultsConfirmed& batch);

  store::StreamStore& streams_;
  store::EventStore& events_;
  store::ResultIndex& results_;
  games::GameWriter& games_;
};

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_WRITER_H_
