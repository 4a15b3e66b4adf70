// What each role may do: the permission checks every service makes before
// it reads or writes a game. Each check answers PERMISSION_DENIED with what
// the caller's role may do, never naming a person. Pure functions;
// thread-safe.
#ifndef ARBITER_SERVICES_ACCESS_PERMISSIONS_H_
#define ARBITER_SERVICES_ACCESS_PERMISSIONS_H_

#include <string>

#include "absl/status/status.h"
#include "services/access/caller.h"
#include "services/store/event_store.h"

namespace arbiter::access {

// PERMISSION_DENIED unless the caller is an admin.
absl::Status RequireAdmin(const Caller& caller);
// PERMISSION_DENIED unless the caller may create a game in this league and
// tournament (admins anywhere; organisers within their scope).
absl::Status RequireCreate(const Caller& caller, const std::string& league,
                           const std::string& tournament);
// PERMISSION_DENIED unless the caller's role writes games at all (admins
// and organisers). Checked before a game is looked up.
absl::Status RequireWriteRole(const Caller& caller);
// True if `game` lies in an organiser's scope (its league or tournament).
bool InScope(const Caller& caller, const store::GameRecord& game);
// PERMISSION_DENIED unless the caller may write to `game`: admins; the
// organiser whose scope holds its league or tournament; the token that
// created it (`creator_token_id`, from the game's creation event; empty for
// games created before tokens were recorded). Rights follow the token, not
// its principal: principals are names and need not be unique.
absl::Status RequireWrite(const Caller& caller, const store::GameRecord& game,
                          const std::string& creator_token_id);
// The denial RequireWrite gives an organiser for `game_id`; also the answer
// for a game that does not exist (permission before existence, AIP-211).
absl::Status WriteDenied(const Caller& caller, const std::string& game_id);
// PERMISSION_DENIED unless the caller may read `game` (public tokens: only
// finished games).
absl::Status RequireRead(const Caller& caller, const store::GameRecord& game);
// The denial RequireRead gives a public token; also its answer for a game
// that does not exist.
absl::Status ReadDenied(const Caller& caller, const std::string& game_id);
// PERMISSION_DENIED unless the caller may see positions of `game`: they are
// derived from the seed (hidden cards), so exactly when SeesSeed.
absl::Status RequireReadState(const Caller& caller, const store::GameRecord& game);
// The seed rule. The seed of a game, and everything derived from it (event
// 1's header and payload in ListEvents, a seed_revealed event, positions),
// is shown to admins and auditors, and to everyone once the game is
// finished; to nobody else while it is live or after it was voided (an
// organiser who gave the seed knows it already and gets it back only in the
// answer to its own CreateGame, SubmitGame or RevealSeed).
bool SeesSeed(const Caller& caller, const store::GameRecord& game);

}  // namespace arbiter::access

#endif  // ARBITER_SERVICES_ACCESS_PERMISSIONS_H_
