#include "services/access/token_requests.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/access/permissions.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"

namespace arbiter::access {
namespace {

// InvalidArgument on `field` unless every id is principal-shaped.
absl::Status CheckIds(const std::vector<std::string>& ids, const char* field, const char* what,
                      common::IdKind kind) {
  for (const std::string& id : ids) {
    if (!common::IsValidId(kind, id)) {
      return common::FieldError(field, absl::StrCat("a ", what, " id is malformed"));
    }
  }
  return absl::OkStatus();
}

// The request's own checks: role, principal, scopes, ttl.
absl::StatusOr<store::TokenRecord> RecordOf(const TokenAsked& request, absl::Time now) {
  const std::optional<store::Role> role = request.role;
  if (!role.has_value()) {
    return common::FieldError(
        "role", absl::StrCat("role must be admin, organiser, auditor, public or player, not the value ",
                             request.role_value));
  }
  if (!common::IsValidId(common::IdKind::kPrincipal, request.principal)) {
    return common::FieldError("principal", "principal must be 1-100 characters of A-Z a-z 0-9 _ . @ -");
  }
  ARBITER_RETURN_IF_ERROR(CheckIds(request.leagues, "leagues", "league", common::IdKind::kPrincipal));
  ARBITER_RETURN_IF_ERROR(
      CheckIds(request.tournaments, "tournaments", "tournament", common::IdKind::kPrincipal));
  ARBITER_RETURN_IF_ERROR(CheckIds(request.games, "games", "game", common::IdKind::kGame));
  if (*role == store::Role::kPlayer) {
    if (request.games.empty() && request.tournaments.empty()) {
      return common::FieldError("games", "a player token is bound to games or tournaments: give "
                                         "games (arbiter token create --game) or tournaments");
    }
    if (!request.leagues.empty()) {
      return common::FieldError("leagues", "a player token is bound to games or tournaments, not "
                                           "to leagues");
    }
  } else if (!request.games.empty()) {
    return common::FieldError("games", "only player tokens are bound to games");
  }
  store::TokenRecord record;
  record.role = *role;
  record.principal = request.principal;
  record.leagues = request.leagues;
  record.tournaments = request.tournaments;
  record.games = request.games;
  if (request.ttl.has_value()) {
    if (*request.ttl < absl::Seconds(1) || *request.ttl > absl::Hours(24 * 3660)) {
      return common::FieldError("ttl", "ttl must be 1 second to 10 years");
    }
    record.expires_at = now + *request.ttl;
  }
  return record;
}

absl::Status OrganiserDenied(const std::string& what) {
  return absl::PermissionDeniedError(absl::StrCat("this organiser token may not ", what));
}

bool Names(const std::vector<std::string>& scope, const std::string& id) {
  return !id.empty() && std::find(scope.begin(), scope.end(), id) != scope.end();
}

// OK if an organiser manages tournament `t`: its token names it, or the
// league the tournament's creation event names.
absl::Status CheckManagesTournament(const Caller& caller, const std::string& t,
                                    const TournamentLeagueLookup& tournament_leagues) {
  if (Names(caller.tournaments, t)) return absl::OkStatus();
  if (tournament_leagues && !caller.leagues.empty()) {
    absl::StatusOr<std::string> league = tournament_leagues(t);
    if (!league.ok() && !absl::IsNotFound(league.status())) return league.status();
    if (league.ok() && Names(caller.leagues, *league)) return absl::OkStatus();
  }
  return OrganiserDenied(absl::StrCat("create player tokens for tournament \"", t,
                                      "\" (its token names neither it nor its league)"));
}

// OK if an organiser may mint `record` (a player token within its scope).
absl::Status CheckOrganiserMay(const Caller& caller, const store::TokenRecord& record,
                               const GameLookup& games,
                               const TournamentLeagueLookup& tournament_leagues) {
  for (const std::string& t : record.tournaments) {
    ARBITER_RETURN_IF_ERROR(CheckManagesTournament(caller, t, tournament_leagues));
  }
  for (const std::string& id : record.games) {
    absl::StatusOr<ScopedGame> game = games(id);
    if (!game.ok() && !absl::IsNotFound(game.status())) return game.status();
    const bool mine = game.ok() && (InScope(caller, game->record) ||
                                    (!game->creator_token_id.empty() &&
                                     game->creator_token_id == caller.token_id));
    if (!mine) {
      return OrganiserDenied(absl::StrCat("create player tokens for game \"", id,
                                          "\" (games of its scope, and games it created, only)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<store::TokenRecord> TokenToMint(const Caller& caller, const TokenAsked& request,
                                               const GameLookup& games, absl::Time now,
                                               const TournamentLeagueLookup& tournament_leagues) {
  if (caller.role != store::Role::kAdmin && caller.role != store::Role::kOrganiser) {
    return RequireAdmin(caller);
  }
  if (caller.role == store::Role::kOrganiser && request.role != store::Role::kPlayer) {
    // Permission before the request's own checks.
    return OrganiserDenied("create tokens other than player tokens (admins create any)");
  }
  ARBITER_ASSIGN_OR_RETURN(store::TokenRecord record, RecordOf(request, now));
  if (caller.role == store::Role::kOrganiser) {
    ARBITER_RETURN_IF_ERROR(CheckOrganiserMay(caller, record, games, tournament_leagues));
  }
  return record;
}

}  // namespace arbiter::access
