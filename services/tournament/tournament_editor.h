// TournamentEditor: the writes that change who plays and what was published
// rather than a round (WithdrawPlayer, UpdateTournamentSettings and
// DeleteTournament of tournament_service.proto), and the check of settings
// that creation and an update share. Each is an event of the tournament's
// log (tournament_log.h); nothing is ever edited in place.
//
// Settings change and a tournament is deleted only before round 1 starts; a
// player withdraws at any time and is paired in no round that starts later.
// A retry of a write (same client request id and caller) is answered with
// the tournament as it stands. Thread-safe as the stores are.
#ifndef ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_EDITOR_H_
#define ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_EDITOR_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "services/access/caller.h"
#include "services/games/game_writer.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"

namespace arbiter::tournament {

// The settings as creation and an update check them: the model's rules, a
// known game type, and a league that exists and rates that game type (what
// round 1's games would refuse, refused before anything is stored).
// InvalidArgument or NotFound with a field violation on "settings.*".
absl::Status CheckTournamentSettings(games::GameWriter& games,
                                     const v1::TournamentSettings& settings);

class TournamentEditor {
 public:
  // The stores and the writer must outlive this object.
  TournamentEditor(store::StreamStore& streams, store::ResultIndex& results,
                   games::GameWriter& games)
      : streams_(streams), results_(results), games_(games) {}

  // The RPCs of the same names. Errors as TournamentWriter's, and
  // FailedPrecondition for a player already withdrawn, or for settings or a
  // deletion once round 1 has started (each message says why and what to do
  // instead).
  absl::StatusOr<v1::Tournament> WithdrawPlayer(const access::Caller& caller,
                                                const v1::WithdrawPlayerRequest& request);
  absl::StatusOr<v1::Tournament> UpdateTournamentSettings(
      const access::Caller& caller, const v1::UpdateTournamentSettingsRequest& request);
  absl::StatusOr<v1::DeleteTournamentResponse> DeleteTournament(
      const access::Caller& caller, const v1::DeleteTournamentRequest& request);

 private:
  store::StreamStore& streams_;
  store::ResultIndex& results_;
  games::GameWriter& games_;
};

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_EDITOR_H_
