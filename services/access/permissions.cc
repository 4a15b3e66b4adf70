#include "services/access/permissions.h"

#include <algorithm>

#include "engine/core/status_macros.h"
#include "absl/strings/str_cat.h"

namespace arbiter::access {
namespace {

bool Contains(const std::vector<std::string>& list, const std::string& value) {
  return !value.empty() && std::find(list.begin(), list.end(), value) != list.end();
}

// Denials name the caller's role and what was refused, never a person: not
// the caller's principal (logs have it) and not a game's creator.
absl::Status Denied(const Caller& caller, const std::string& what) {
  return absl::PermissionDeniedError(
      absl::StrCat("this ", store::RoleName(caller.role), " token may not ", what));
}

}  // namespace

absl::Status RequireAdmin(const Caller& caller) {
  if (caller.role == store::Role::kAdmin) return absl::OkStatus();
  return Denied(caller, "manage tokens (admin only)");
}

absl::Status RequireCreate(const Caller& caller, const std::string& league,
                           const std::string& tournament, const std::string& tournament_league) {
  if (caller.role == store::Role::kAdmin) return absl::OkStatus();
  if (caller.role != store::Role::kOrganiser) {
    return Denied(caller, "create games (admins and organisers only)");
  }
  if (!league.empty() && !Contains(caller.leagues, league)) {
    return Denied(caller, absl::StrCat("create games in league \"", league, "\""));
  }
  // A league's organiser creates the games of its league's tournaments.
  const bool of_its_league = !league.empty() && league == tournament_league;
  if (!tournament.empty() && !Contains(caller.tournaments, tournament) && !of_its_league) {
    return Denied(caller, absl::StrCat("create games in tournament \"", tournament, "\""));
  }
  return absl::OkStatus();
}

absl::Status RequireWriteRole(const Caller& caller) {
  if (caller.role == store::Role::kAdmin || caller.role == store::Role::kOrganiser) return absl::OkStatus();
  return Denied(caller, "write to games (admins and organisers only)");
}

absl::Status WriteDenied(const Caller& caller, const std::string& game_id) {
  return Denied(caller, absl::StrCat("write to game \"", game_id,
                                     "\" (games of its scope, and games it created, only)"));
}

absl::Status RequireWrite(const Caller& caller, const store::GameRecord& game,
                          const std::string& creator_token_id) {
  ARBITER_RETURN_IF_ERROR(RequireWriteRole(caller));
  if (caller.role == store::Role::kAdmin) return absl::OkStatus();
  if (InScope(caller, game) ||
      (!creator_token_id.empty() && creator_token_id == caller.token_id)) {
    return absl::OkStatus();
  }
  return WriteDenied(caller, game.game_id);
}

bool InScope(const Caller& caller, const store::GameRecord& game) {
  return caller.role == store::Role::kOrganiser &&
         (Contains(caller.leagues, game.league_id) ||
          Contains(caller.tournaments, game.tournament_id));
}

bool ReadsLiveGames(const Caller& caller) {
  return caller.role == store::Role::kAdmin || caller.role == store::Role::kOrganiser ||
         caller.role == store::Role::kAuditor;
}

int SeatOf(const Caller& caller, const store::GameRecord& game) {
  for (size_t i = 0; i < game.players.size(); ++i) {
    if (game.players[i] == caller.principal) return static_cast<int>(i) + 1;
  }
  return 0;
}

bool PlaysIn(const Caller& caller, const store::GameRecord& game) {
  return caller.role == store::Role::kPlayer &&
         (Contains(caller.games, game.game_id) || Contains(caller.tournaments, game.tournament_id)) &&
         SeatOf(caller, game) > 0;
}

bool MayPlayIn(const Caller& caller, const std::string& game_id) {
  return caller.role == store::Role::kPlayer &&
         (Contains(caller.games, game_id) || !caller.tournaments.empty());
}

absl::Status ReadDenied(const Caller& caller, const std::string& game_id) {
  if (caller.role == store::Role::kPlayer) {
    return Denied(caller, absl::StrCat("read game \"", game_id,
                                       "\" (player tokens read finished and voided games, "
                                       "the games they play in, and live games whose organiser "
                                       "allows spectators)"));
  }
  return Denied(caller, absl::StrCat("read game \"", game_id,
                                     "\" (public tokens read finished and voided games, and live "
                                     "games whose organiser allows spectators)"));
}

bool Spectates(const store::GameRecord& game) {
  return game.spectators && game.status == store::GameStatus::kActive;
}

absl::Status RequireRead(const Caller& caller, const store::GameRecord& game) {
  if (ReadsLiveGames(caller) || game.status == store::GameStatus::kFinished ||
      game.status == store::GameStatus::kVoided || PlaysIn(caller, game) || Spectates(game)) {
    return absl::OkStatus();
  }
  return ReadDenied(caller, game.game_id);
}

absl::Status RequirePlayerWrite(const Caller& caller, const std::string& game_id,
                                const store::GameRecord* game) {
  if (game != nullptr && PlaysIn(caller, *game)) return absl::OkStatus();
  return Denied(caller, absl::StrCat("write to game \"", game_id,
                                     "\" (a player token plays only the games it is bound to, "
                                     "at its own seat)"));
}

absl::Status RequireOwnSeat(const Caller& caller, const store::GameRecord& game,
                            const std::string& action_player, int index) {
  if (caller.role != store::Role::kPlayer || action_player == caller.principal) {
    return absl::OkStatus();
  }
  const int seat = SeatOf(caller, game);
  const auto asked = std::find(game.players.begin(), game.players.end(), action_player);
  const std::string other =
      asked == game.players.end()
          ? absl::StrCat("player \"", action_player, "\", who has no seat in the game")
          : absl::StrCat("seat ", asked - game.players.begin() + 1, " (\"", action_player, "\")");
  return Denied(caller, absl::StrCat("act for ", other, " in game \"", game.game_id,
                                     "\": actions[", index, "]; it plays seat ", seat, " (\"",
                                     caller.principal, "\") only"));
}

bool ScoresTable(const Caller& caller, const store::GameRecord& game) {
  return caller.role == store::Role::kOrganiser && game.status == store::GameStatus::kActive &&
         game.seed.has_value() && !game.creator_token_id.empty() &&
         game.creator_token_id == caller.token_id;
}

std::optional<engine::Viewer> ViewerOf(const Caller& caller, const store::GameRecord& game) {
  if (SeesSeed(caller, game) || ScoresTable(caller, game)) return engine::Viewer::Everyone();
  if (PlaysIn(caller, game)) return engine::Viewer::ForSeat(SeatOf(caller, game) - 1);
  if (Spectates(game)) return engine::Viewer::Spectator();
  return std::nullopt;
}

absl::Status RequireSeesHand(const Caller& caller, const store::GameRecord& game, int seat) {
  const std::optional<engine::Viewer> viewer = ViewerOf(caller, game);
  if (viewer.has_value() && viewer->SeesHandOf(seat)) return absl::OkStatus();
  const std::string whose =
      seat >= 0 && seat < static_cast<int>(game.players.size())
          ? absl::StrCat("seat ", seat + 1, " (\"", game.players[static_cast<size_t>(seat)], "\")")
          : absl::StrCat("seat ", seat + 1);
  return Denied(caller, absl::StrCat("list the moves of ", whose, " in game \"", game.game_id,
                                     "\" while it is live (they show its hand; a player lists "
                                     "its own, admins and auditors any, an organiser those of "
                                     "the seeded games its token created)"));
}

absl::Status RequireReadState(const Caller& caller, const store::GameRecord& game) {
  if (ViewerOf(caller, game).has_value()) return absl::OkStatus();
  return Denied(caller, absl::StrCat("see the position of game \"", game.game_id,
                                     "\" before it is finished (positions show hidden cards; "
                                     "a live game's organiser may allow spectators, who see "
                                     "none)"));
}

bool SeesSeed(const Caller& caller, const store::GameRecord& game) {
  return caller.role == store::Role::kAdmin || caller.role == store::Role::kAuditor ||
         game.status == store::GameStatus::kFinished;
}

}  // namespace arbiter::access
