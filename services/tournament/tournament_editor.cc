#include "services/tournament/tournament_editor.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/core/game.h"
#include "engine/core/status_macros.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"
#include "services/common/text_length.h"
#include "services/tournament/seed_sight.h"
#include "services/tournament/tournament_access.h"
#include "services/tournament/tournament_checks.h"
#include "services/tournament/tournament_log.h"
#include "services/tournament/tournament_views.h"

namespace arbiter::tournament {
namespace {

// The tournament to write to, deleted ones included: the name parsed, the
// request id and the caller checked (as ReadToOrganise).
absl::StatusOr<TournamentLog> ReadForEdit(const access::Caller& caller,
                                          store::StreamStore& streams, const std::string& name,
                                          const std::string& request_id) {
  ARBITER_ASSIGN_OR_RETURN(const std::string id, ParseTournamentName(name));
  ARBITER_RETURN_IF_ERROR(CheckTournamentRequestId(request_id));
  absl::StatusOr<TournamentLog> log = ReadTournamentLog(streams, id);
  if (absl::IsNotFound(log.status()) && !NamesTournament(caller, id)) {
    return ManageDenied(id, "");
  }
  if (!log.ok()) return log.status();
  ARBITER_RETURN_IF_ERROR(RequireOrganise(caller, *log));
  return log;
}

// Whether the log holds the event a write of `kind` with the client's
// `request_id` by `caller` would append: then it is a retry.
bool AlreadyWritten(const TournamentLog& log, const access::Caller& caller,
                    const std::string& kind, const std::string& request_id) {
  return log.request_ids.contains(
      StreamRequestId(absl::StrCat("tournament-", kind),
                      common::NameOf(common::IdKind::kTournament, log.id), caller.principal,
                      request_id));
}

absl::Status RefuseIfDeleted(const TournamentLog& log) {
  if (!log.deleted.has_value()) return absl::OkStatus();
  return absl::NotFoundError(absl::StrCat("tournament \"", log.id,
                                          "\" was deleted before round 1 (", *log.deleted, ")"));
}

// FailedPrecondition once round 1 has started (or is being started).
absl::Status RequireNoRoundYet(const TournamentLog& log, const std::string& what,
                               const std::string& instead) {
  if (log.rounds.empty() && !log.starting.has_value()) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat("tournament \"", log.id,
                                                    "\" has started round 1: ", what,
                                                    " only before it; ", instead));
}

}  // namespace

absl::Status CheckTournamentSettings(games::GameWriter& games,
                                     const v1::TournamentSettings& settings) {
  if (absl::Status s = ModelSettings(settings).status(); !s.ok()) return SettingsError(s);
  const std::string& game_type = settings.game_type();
  if (engine::FindGame(game_type) == nullptr) {
    return common::FieldError("settings.game_type",
                              absl::StrCat("settings.game_type: unknown game '", game_type,
                                           "'; known games: ", engine::GameNames()));
  }
  return games.CheckLeague(settings.league(), game_type, "settings.league");
}

absl::StatusOr<v1::Tournament> TournamentEditor::WithdrawPlayer(
    const access::Caller& caller, const v1::WithdrawPlayerRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(const TournamentLog log,
                           ReadForEdit(caller, streams_, request.name(), request.request_id()));
  ARBITER_RETURN_IF_ERROR(RefuseIfDeleted(log));
  if (!AlreadyWritten(log, caller, "withdraw", request.request_id())) {
    const std::string& player = request.player();
    if (std::find(log.players.begin(), log.players.end(), player) == log.players.end()) {
      return common::FieldError(
          "player", absl::StrCat("player \"", player.substr(0, 80),
                                 "\" is not registered in tournament \"", log.id, "\""));
    }
    if (log.changes.Withdrawn(player)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "player \"", player, "\" has already withdrawn from tournament \"", log.id, "\""));
    }
    ARBITER_RETURN_IF_ERROR(
        common::CheckText("reason", request.reason(), 0, common::kMaxReasonCharacters, ""));
    v1::PlayerWithdrawn withdrawn;
    withdrawn.set_player(player);
    withdrawn.set_reason(request.reason());
    ARBITER_RETURN_IF_ERROR(
        streams_
            .Append(TournamentAppend(log, caller, "withdraw", request.request_id(),
                                     kTypePlayerWithdrawn, withdrawn))
            .status());
  }
  ARBITER_ASSIGN_OR_RETURN(const TournamentLog after, ReadTournament(streams_, log.id));
  return ReadTournamentView(results_, after, SeedSight::kAll);
}

absl::StatusOr<v1::Tournament> TournamentEditor::UpdateTournamentSettings(
    const access::Caller& caller, const v1::UpdateTournamentSettingsRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(const TournamentLog log,
                           ReadForEdit(caller, streams_, request.name(), request.request_id()));
  ARBITER_RETURN_IF_ERROR(RefuseIfDeleted(log));
  if (!AlreadyWritten(log, caller, "settings", request.request_id())) {
    ARBITER_RETURN_IF_ERROR(RequireNoRoundYet(
        log, "its settings can change",
        "settle the rest by disputes and rulings"));
    ARBITER_RETURN_IF_ERROR(CheckTournamentSettings(games_, request.settings()));
    if (request.settings().draw_lot() != log.settings.draw_lot()) {
      return common::FieldError(
          "settings.draw_lot",
          absl::StrCat("settings.draw_lot: cannot change after creation (tournament \"", log.id,
                       "\" was ", log.settings.draw_lot() ? "created with" : "created without",
                       " a drawn lot, whose commitment is made at creation); delete the "
                       "tournament and create it again to change it"));
    }
    const std::string& league = request.settings().league();
    if (league != log.settings.league()) {
      ARBITER_RETURN_IF_ERROR(RequireMoveToLeague(caller, log.id, league));
    }
    v1::SettingsChanged changed;
    *changed.mutable_settings() = request.settings();
    ARBITER_RETURN_IF_ERROR(
        streams_
            .Append(TournamentAppend(log, caller, "settings", request.request_id(),
                                     kTypeSettingsChanged, changed))
            .status());
  }
  ARBITER_ASSIGN_OR_RETURN(const TournamentLog after, ReadTournament(streams_, log.id));
  return ReadTournamentView(results_, after, SeedSight::kAll);
}

absl::StatusOr<v1::DeleteTournamentResponse> TournamentEditor::DeleteTournament(
    const access::Caller& caller, const v1::DeleteTournamentRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(const TournamentLog log,
                           ReadForEdit(caller, streams_, request.name(), request.request_id()));
  v1::DeleteTournamentResponse response;
  response.set_name(common::NameOf(common::IdKind::kTournament, log.id));
  if (AlreadyWritten(log, caller, "delete", request.request_id())) {
    response.set_event(log.stream.last_sequence);
    return response;
  }
  ARBITER_RETURN_IF_ERROR(RefuseIfDeleted(log));
  ARBITER_RETURN_IF_ERROR(RequireNoRoundYet(
      log, "it can be deleted", "finish it, or void its games by disputes and rulings"));
  ARBITER_RETURN_IF_ERROR(
      common::CheckText("reason", request.reason(), 1, common::kMaxReasonCharacters,
                        "saying why"));
  v1::TournamentDeleted deleted;
  deleted.set_reason(request.reason());
  ARBITER_ASSIGN_OR_RETURN(const store::StreamEvent event,
                           streams_.Append(TournamentAppend(log, caller, "delete",
                                                            request.request_id(),
                                                            kTypeTournamentDeleted, deleted)));
  response.set_event(event.sequence);
  return response;
}

}  // namespace arbiter::tournament
