// Which tokens a caller may mint, and the stored record of a CreateToken
// request. Admins mint any token. Organisers mint player tokens for the
// tournaments they manage (their token names the tournament or its league)
// and for the games in their scope (their leagues' and tournaments' games,
// and games their token created): a
// player token is bound to a player id (its principal, the id the game's
// header seats) and to games or tournaments, and plays only there
// (permissions.h PlaysIn). Pure functions but for the game look-up they
// are given; thread-safe as they are.
#ifndef ARBITER_SERVICES_ACCESS_TOKEN_REQUESTS_H_
#define ARBITER_SERVICES_ACCESS_TOKEN_REQUESTS_H_

#include <functional>
#include <string>

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/access/caller.h"
#include "services/store/event_store.h"

namespace arbiter::access {

// The game `game_id` with the id of the token that created it (for an
// organiser's scope); NotFound for an unknown game.
struct ScopedGame {
  store::GameRecord record;
  std::string creator_token_id;
};
using GameLookup = std::function<absl::StatusOr<ScopedGame>(const std::string& game_id)>;
// The league tournament `tournament_id` was created in, as its creation
// event states it (empty: none); NotFound for an unknown tournament.
using TournamentLeagueLookup =
    std::function<absl::StatusOr<std::string>(const std::string& tournament_id)>;

// What a CreateToken request asks for, as the API layer read it.
struct TokenAsked {
  std::optional<store::Role> role;  // nullopt: not a known role (`role_value`)
  int role_value = 0;
  std::string principal;
  std::vector<std::string> leagues;
  std::vector<std::string> tournaments;
  std::vector<std::string> games;
  std::optional<absl::Duration> ttl;
};

// The token record `request` asks for (role, principal, scopes, expiry;
// no id, hash or creator yet), if `caller` may mint it. INVALID_ARGUMENT
// naming the field for a malformed request (a player token without games
// or tournaments, or with leagues); PERMISSION_DENIED for a token the
// caller may not mint, or a game or tournament outside an organiser's
// scope (or unknown: the same answer); the look-ups' other errors. Without
// `tournament_leagues` (empty), an organiser mints tokens only for the
// tournaments its token names.
absl::StatusOr<store::TokenRecord> TokenToMint(const Caller& caller, const TokenAsked& request,
                                               const GameLookup& games, absl::Time now,
                                               const TournamentLeagueLookup& tournament_leagues = {});

}  // namespace arbiter::access

#endif  // ARBITER_SERVICES_ACCESS_TOKEN_REQUESTS_H_
