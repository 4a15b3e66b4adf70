// What each role may do: the permission checks every service makes before
// it reads or writes a game. Each check answers PERMISSION_DENIED with what
// the caller's role may do, never naming a person. Pure functions;
// thread-safe.
#ifndef ARBITER_SERVICES_ACCESS_PERMISSIONS_H_
#define ARBITER_SERVICES_ACCESS_PERMISSIONS_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "engine/core/viewer.h"
#include "services/access/caller.h"
#include "services/store/event_store.h"

namespace arbiter::access {

// PERMISSION_DENIED unless the caller is an admin.
absl::Status RequireAdmin(const Caller& caller);
// PERMISSION_DENIED unless the caller may create a game in this league and
// tournament (admins anywhere; organisers within their scope). A game of a
// tournament is in the scope of a token that names the tournament, or of
// one that names the game's league when that is the tournament's own league
// (`tournament_league`: the league the tournament's creation event names,
// empty if it names none or is not known).
absl::Status RequireCreate(const Caller& caller, const std::string& league,
                           const std::string& tournament,
                           const std::string& tournament_league = "");
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
// True for the roles that read games still in play: admins, organisers and
// auditors. Public and player tokens read ended games (and a player the
// games it plays); for them an unknown game is denied like a live one.
bool ReadsLiveGames(const Caller& caller);
// True if the caller is a player token that plays in `game`: bound to it
// (its games) or to its tournament, and seated in it (its principal is one
// of the game's players).
bool PlaysIn(const Caller& caller, const store::GameRecord& game);
// False if the caller, a player token, can play in no game `game_id` might
// be: bound neither to it nor to any tournament. Such a token is denied
// before anything is read (RequirePlayerWrite's denial, the same words).
bool MayPlayIn(const Caller& caller, const std::string& game_id);
// The seat (1-based) of the caller's principal in `game`, or 0.
int SeatOf(const Caller& caller, const store::GameRecord& game);
// True if `game` is live and its organiser lets anyone follow it as a
// spectator (GameCreated.spectators): every token reads it, and those
// who may see nothing more see it through engine::Viewer::Spectator.
bool Spectates(const store::GameRecord& game);
// PERMISSION_DENIED unless the caller may read `game` (public tokens: only
// finished and voided games, and Spectates games; player tokens: those and
// the games they play in). A voided game is read without its seed or its positions (SeesSeed,
// ViewerOf), so that its void and reason can be read by everyone.
absl::Status RequireRead(const Caller& caller, const store::GameRecord& game);
// The denial RequireRead gives a public or player token; also its answer
// for a game that does not exist.
absl::Status ReadDenied(const Caller& caller, const std::string& game_id);
// PERMISSION_DENIED unless a player token plays in `game`
// (`game_id` when it does not exist, `game` null): the same denial either
// way. Only for player tokens; other roles use RequireWrite.
absl::Status RequirePlayerWrite(const Caller& caller, const std::string& game_id,
                                const store::GameRecord* game);
// PERMISSION_DENIED, naming the caller's seat and the seat asked for,
// unless a player token's action `index` is for its own seat
// (`action_player` is the action's player id). OK for other roles.
absl::Status RequireOwnSeat(const Caller& caller, const store::GameRecord& game,
                            const std::string& action_player, int index);
// True if the caller is the organiser whose token created `game`, a live
// game with a seed given at creation (not sealed, not dealt): it chose the
// seed and can derive every card from it, so it sees the whole position and
// every seat's moves, as the scorer recording a table played on cardboard
// (docs/chance.md, "Tables played on cardboard").
bool ScoresTable(const Caller& caller, const store::GameRecord& game);
// What the caller may see of `game`'s positions, which are derived from
// the seed (hidden cards): all of them when SeesSeed or ScoresTable, its own seat's view
// when it plays in the game (PlaysIn), the spectator's view (no hidden
// card) when Spectates, nothing (nullopt) otherwise.
std::optional<engine::Viewer> ViewerOf(const Caller& caller, const store::GameRecord& game);
// PERMISSION_DENIED unless the caller may see positions of `game`
// (ViewerOf is not nullopt).
absl::Status RequireReadState(const Caller& caller, const store::GameRecord& game);
// PERMISSION_DENIED, naming the seats, unless the caller may see the hand
// of seat `seat` (0-based) of `game`: what its legal moves show.
absl::Status RequireSeesHand(const Caller& caller, const store::GameRecord& game, int seat);
// The seed rule. The seed of a game, and everything derived from it (event
// 1's header and payload in ListEvents, a seed_revealed event, positions),
// is shown to admins and auditors, and to everyone once the game is
// finished; to nobody else while it is live or after it was voided (an
// organiser who gave the seed knows it already and gets it back only in the
// answer to its own CreateGame, SubmitGame or RevealSeed).
bool SeesSeed(const Caller& caller, const store::GameRecord& game);

}  // namespace arbiter::access

#endif  // ARBITER_SERVICES_ACCESS_PERMISSIONS_H_
