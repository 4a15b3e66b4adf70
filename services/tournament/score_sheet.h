// ScoreSheetWriter: ReportResult of tournament_service.proto. A table's
// result entered from its score sheet (a table played on cardboard, or one
// whose game cannot finish: a no-show, a forfeit) by the tournament's
// organiser, recorded where every result lives, as the last event of the
// table's game log ("game_finished" with `reported` set,
// GameWriter::RecordReport), and confirmed in the tournament's log in the
// same request (docs/tournaments.md, "Score sheets"). A player token seated
// at the table proposes a sheet instead: a "result_proposed" event of the
// tournament's log, which counts once an organiser accepts it
// (accept_proposal: the proposal is then entered as above, naming its
// proposer).
//
// The game event comes first: a request stopped between the two leaves the
// table "finished, awaiting confirmation", and its retry (or
// `arbiter tournament confirm`) confirms it. Thread-safe as the stores are.
#ifndef ARBITER_SERVICES_TOURNAMENT_SCORE_SHEET_H_
#define ARBITER_SERVICES_TOURNAMENT_SCORE_SHEET_H_

#include "absl/status/statusor.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "services/access/caller.h"
#include "services/games/game_writer.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"
#include "services/tournament/tournament_log.h"

namespace arbiter::tournament {

// The most names a score sheet's signers may list, and characters per name.
inline constexpr int kMaxSigners = 20;
inline constexpr int kMaxSignerCharacters = 100;
// The most sheets the players of one table may propose (each is an event of
// the tournament's log, kept for ever).
inline constexpr int kMaxProposalsPerTable = 20;

// The game's standings and the sheet as the game log records them, from a
// request for table `table` (its players in seat order) of a game that is
// `cooperative`. InvalidArgument with a field violation ("seats",
// "signed_by", "note") saying what is wrong, in the model's words.
struct ScoreSheet {
  v1::Standings standings;
  v1::ReportedResult reported;
};
absl::StatusOr<ScoreSheet> ReadScoreSheet(const v1::ReportResultRequest& request,
                                          const v1::TournamentTable& table, bool cooperative);

class ScoreSheetWriter {
 public:
  // The stores and the writer must outlive this object.
  ScoreSheetWriter(store::StreamStore& streams, store::ResultIndex& results,
                   games::GameWriter& games)
      : streams_(streams), results_(results), games_(games) {}

  // Answers the round as it stands after the write. Errors as
  // TournamentWriter's, and FailedPrecondition for a table already
  // confirmed or ruled, or whose game is over (a dispute changes it then),
  // or an acceptance with no proposal; PERMISSION_DENIED for a player not
  // seated at the table (naming its seats) or accepting.
  absl::StatusOr<v1::TournamentRound> ReportResult(const access::Caller& caller,
                                                   const v1::ReportResultRequest& request);

 private:
  // A player's proposal for the table it sits at.
  absl::StatusOr<v1::TournamentRound> Propose(const access::Caller& caller, const std::string& id,
                                              const v1::ReportResultRequest& request);

  store::StreamStore& streams_;
  store::ResultIndex& results_;
  games::GameWriter& games_;
};

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_SCORE_SHEET_H_
