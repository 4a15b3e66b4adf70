// What tournament and dispute writes share: who may manage a tournament,
// and the request-id check. A tournament is managed by admins, by organisers
// whose token names it, and by organisers whose token names its league: the
// league its creation event names (TournamentLog::settings, folded from the
// tournament's own hash-chained log), never a copy kept beside it. Each
// denial says who may. Pure functions except ReadToOrganise (reads the
// tournament's stream); thread-safe.
#ifndef ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_ACCESS_H_
#define ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_ACCESS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/access/caller.h"
#include "services/store/stream_store.h"
#include "services/tournament/tournament_log.h"

namespace arbiter::tournament {

// True for admins and for organisers whose token names `tournament_id`:
// they manage it whatever its league.
bool NamesTournament(const access::Caller& caller, const std::string& tournament_id);

// The denial for a caller who may not manage `tournament_id` of `league`
// (empty: a tournament in no league, or one that does not exist).
absl::Status ManageDenied(const std::string& tournament_id, const std::string& league);

// PERMISSION_DENIED (ManageDenied) unless the caller may manage the
// tournament of `log`: admins; organisers whose token names it or its
// league.
absl::Status RequireOrganise(const access::Caller& caller, const TournamentLog& log);

// The tournament `tournament_id`, read for a caller who must manage it.
// PERMISSION_DENIED as RequireOrganise, and for a tournament that does not
// exist unless the token names it (permission before existence: NotFound
// then); the store's errors.
absl::StatusOr<TournamentLog> ReadToOrganise(const access::Caller& caller,
                                             store::StreamStore& streams,
                                             const std::string& tournament_id);

// PERMISSION_DENIED unless the caller may create tournament `tournament_id`
// in `league` (empty: none): admins; organisers whose token names the
// tournament; organisers whose token names the league. A refusal in a
// league says which leagues the token names and how an admin mints a token
// for the league.
absl::Status RequireCreateTournament(const access::Caller& caller,
                                     const std::string& tournament_id, const std::string& league);

// PERMISSION_DENIED unless the caller may move tournament `tournament_id`
// into `league` (none: always): admins and organisers of the league, whose
// games the league rates; naming the tournament is not enough.
absl::Status RequireMoveToLeague(const access::Caller& caller, const std::string& tournament_id,
                                 const std::string& league);

// The append of `body` as an event of `type` to the tournament's stream
// after its last event, for the client's `request_id` of a write of `kind`
// ("register", "withdraw", ...; the stored request id is StreamRequestId of
// "tournament-{kind}").
store::StreamAppendRequest TournamentAppend(const TournamentLog& log, const access::Caller& caller,
                                            const std::string& kind, const std::string& request_id,
                                            const char* type, const google::protobuf::Message& body);

// INVALID_ARGUMENT with a field violation unless `request_id` is 1-200 bytes.
absl::Status CheckTournamentRequestId(const std::string& request_id);

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_TOURNAMENT_ACCESS_H_
