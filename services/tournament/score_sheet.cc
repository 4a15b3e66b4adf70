#include "services/tournament/score_sheet.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/game.h"
#include "engine/core/status_macros.h"
#include "engine/tournament/scoring.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"
#include "services/common/text_length.h"
#include "services/tournament/tournament_reader.h"
#include "services/tournament/seed_sight.h"
#include "services/tournament/tournament_access.h"
#include "services/tournament/tournament_checks.h"
#include "services/tournament/tournament_views.h"

namespace arbiter::tournament {
namespace {

absl::StatusOr<engine::tournament::SeatOutcome> OutcomeOf(const v1::ReportedSeat& seat, int i) {
  switch (seat.outcome()) {
    case v1::SEAT_OUTCOME_UNSPECIFIED:
    case v1::SEAT_OUTCOME_PLAYED:
      return engine::tournament::SeatOutcome::kPlayed;
    case v1::SEAT_OUTCOME_NO_SHOW:
      return engine::tournament::SeatOutcome::kNoShow;
    case v1::SEAT_OUTCOME_FORFEIT:
      return engine::tournament::SeatOutcome::kForfeit;
    default:
      return common::FieldError(absl::StrCat("seats[", i, "].outcome"),
                                absl::StrCat("unknown outcome ", seat.outcome(),
                                             "; use played, no-show or forfeit"));
  }
}

absl::Status CheckSigners(const v1::ReportResultRequest& request) {
  if (request.signed_by().empty()) {
    return common::FieldError("signed_by",
                              "say who signed the score sheet (--signed-by NAME, once per "
                              "signature)");
  }
  if (request.signed_by_size() > kMaxSigners) {
    return common::FieldError("signed_by", absl::StrCat("lists ", request.signed_by_size(),
                                                        " names; at most ", kMaxSigners));
  }
  for (int i = 0; i < request.signed_by_size(); ++i) {
    ARBITER_RETURN_IF_ERROR(common::CheckPrintableText(absl::StrCat("signed_by[", i, "]"),
                                                       request.signed_by(i), 1,
                                                       kMaxSignerCharacters, "naming a signer"));
  }
  return common::CheckText("note", request.note(), 0, common::kMaxReasonCharacters, "");
}

}  // namespace

absl::StatusOr<ScoreSheet> ReadScoreSheet(const v1::ReportResultRequest& request,
                                          const v1::TournamentTable& table, bool cooperative) {
  const int seats = table.players_size();
  if (request.seats_size() != seats) {
    return common::FieldError(
        "seats", absl::StrCat("table ", table.number(), " has ", seats, " seats (",
                              absl::StrJoin(table.players(), ", "), "); the sheet gives ",
                              request.seats_size()));
  }
  ARBITER_RETURN_IF_ERROR(CheckSigners(request));
  engine::tournament::TableResult model;
  model.kind = engine::tournament::TableResult::Kind::kPlayed;
  model.cooperative = cooperative;
  model.team_won = request.team_won();
  model.reported = true;
  ScoreSheet out;
  bool someone_absent = false;
  for (int i = 0; i < seats; ++i) {
    const v1::ReportedSeat& seat = request.seats(i);
    ARBITER_ASSIGN_OR_RETURN(const engine::tournament::SeatOutcome outcome, OutcomeOf(seat, i));
    someone_absent |= outcome != engine::tournament::SeatOutcome::kPlayed;
    model.outcomes.push_back(outcome);
    model.places.push_back(cooperative ? 0 : seat.place());
    model.game_points.push_back(seat.game_points());
  }
  if (absl::Status fits = engine::tournament::CheckResult(model, static_cast<size_t>(seats));
      !fits.ok()) {
    return common::FieldError("seats", std::string(fits.message()));
  }
  v1::Standings& standings = out.standings;
  standings.set_cooperative(cooperative);
  if (cooperative) {
    standings.set_team_outcome(request.team_won() ? v1::TEAM_OUTCOME_WON : v1::TEAM_OUTCOME_LOST);
  }
  for (int i = 0; i < seats; ++i) {
    v1::PlayerStanding* player = standings.add_players();
    player->set_player(table.players(i));
    player->set_seat(i + 1);
    player->set_place(cooperative ? 0 : request.seats(i).place());
    player->set_score(request.seats(i).game_points());
  }
  out.reported.mutable_signed_by()->CopyFrom(request.signed_by());
  out.reported.set_note(request.note());
  if (someone_absent) {
    for (const v1::ReportedSeat& seat : request.seats()) {
      out.reported.add_outcomes(seat.outcome() == v1::SEAT_OUTCOME_UNSPECIFIED
                                    ? v1::SEAT_OUTCOME_PLAYED
                                    : seat.outcome());
    }
  }
  return out;
}

namespace {

// The table a sheet may be entered or proposed for: in the open round, with
// no confirmed result or ruling yet. FailedPrecondition or NotFound (from
// CheckOpenTable) otherwise.
absl::StatusOr<const TableState*> UnsettledTable(const TournamentLog& log, int round, int table) {
  ARBITER_RETURN_IF_ERROR(CheckOpenTable(log, round, table, false));
  const TableState& state =
      log.rounds[static_cast<size_t>(round - 1)].tables[static_cast<size_t>(table - 1)];
  if (state.confirmed.has_value() || state.ruling.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round ", round, " table ", table, " already has ",
        state.ruling.has_value() ? "a ruling" : "a confirmed result",
        "; to change it open a dispute (arbiter dispute open)"));
  }
  return &state;
}

// The request an organiser's acceptance stands for: the table's proposal.
absl::StatusOr<v1::ReportResultRequest> AcceptedSheet(const v1::ReportResultRequest& request,
                                                      const TableState& state) {
  if (!request.seats().empty() || !request.signed_by().empty() || !request.note().empty() ||
      request.team_won()) {
    return common::FieldError("accept_proposal",
                              "an acceptance takes the proposal as it stands: leave seats, "
                              "signed_by and note empty (--accept with no other sheet flags)");
  }
  if (!state.proposal.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round ", request.round(), " table ", request.table(),
        " has no proposed score sheet to accept; enter the sheet itself (arbiter tournament "
        "report with --place, --signed-by, ...)"));
  }
  v1::ReportResultRequest sheet = request;
  sheet.mutable_seats()->CopyFrom(state.proposal->seats());
  sheet.set_team_won(state.proposal->team_won());
  sheet.mutable_signed_by()->CopyFrom(state.proposal->signed_by());
  sheet.set_note(state.proposal->note());
  return sheet;
}

// Denials name the role and what was refused, as access's do.
absl::Status PlayerDenied(const std::string& what) {
  return absl::PermissionDeniedError(absl::StrCat("this player token may not ", what));
}

bool Contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

absl::StatusOr<v1::TournamentRound> ScoreSheetWriter::ReportResult(
    const access::Caller& caller, const v1::ReportResultRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(const std::string id, ParseTournamentName(request.name()));
  ARBITER_RETURN_IF_ERROR(CheckTournamentRequestId(request.request_id()));
  if (caller.role == store::Role::kPlayer) return Propose(caller, id, request);
  ARBITER_ASSIGN_OR_RETURN(TournamentLog log, ReadToOrganise(caller, streams_, id));
  const std::string stream_request_id =
      StreamRequestId("tournament-report", common::NameOf(common::IdKind::kTournament, log.id),
                      caller.principal, request.request_id());
  if (!log.request_ids.contains(stream_request_id)) {
    ARBITER_ASSIGN_OR_RETURN(const TableState* const state,
                             UnsettledTable(log, request.round(), request.table()));
    v1::ReportResultRequest entered = request;
    if (request.accept_proposal()) {
      ARBITER_ASSIGN_OR_RETURN(entered, AcceptedSheet(request, *state));
    }
    const engine::Game* game = engine::FindGame(log.settings.game_type());
    ARBITER_ASSIGN_OR_RETURN(ScoreSheet sheet,
                             ReadScoreSheet(entered, state->table, game && game->cooperative()));
    if (request.accept_proposal()) sheet.reported.set_proposed_by(state->proposal->proposed_by());
    const std::string game_id = common::IdOf(common::IdKind::kGame, state->table.game());
    ARBITER_ASSIGN_OR_RETURN(const int64_t event,
                             games_.RecordReport(caller, game_id, sheet.standings, sheet.reported,
                                                 request.request_id()));
    v1::ResultConfirmed confirmed;
    confirmed.set_round(request.round());
    confirmed.set_table(request.table());
    confirmed.set_game(state->table.game());
    confirmed.set_game_event(event);
    ARBITER_RETURN_IF_ERROR(streams_
                                .Append(TournamentAppend(log, caller, "report",
                                                         request.request_id(),
                                                         kTypeResultConfirmed, confirmed))
                                .status());
    ARBITER_ASSIGN_OR_RETURN(log, ReadTournament(streams_, log.id));
  }
  return ReadRoundView(results_, log, request.round(), SeedSight::kAll);
}

absl::StatusOr<v1::TournamentRound> ScoreSheetWriter::Propose(
    const access::Caller& caller, const std::string& id, const v1::ReportResultRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(TournamentLog log, ReadTournament(streams_, id));
  const std::string stream_request_id =
      StreamRequestId("tournament-propose", common::NameOf(common::IdKind::kTournament, log.id),
                      caller.principal, request.request_id());
  if (!log.request_ids.contains(stream_request_id)) {
    if (request.accept_proposal()) {
      return PlayerDenied(absl::StrCat("accept a score sheet in tournament \"", log.id,
                                                 "\" (its organisers accept proposals)"));
    }
    ARBITER_ASSIGN_OR_RETURN(const TableState* const state,
                             UnsettledTable(log, request.round(), request.table()));
    const std::string game_id = common::IdOf(common::IdKind::kGame, state->table.game());
    const bool bound = Contains(caller.tournaments, log.id) || Contains(caller.games, game_id);
    if (!bound || !Contains({state->table.players().begin(), state->table.players().end()},
                            caller.principal)) {
      return PlayerDenied(absl::StrCat(
          "propose a score sheet for round ", request.round(), " table ", request.table(),
          " of tournament \"", log.id, "\" (a player proposes only for a table it sits at: its "
          "seats are ", absl::StrJoin(state->table.players(), ", "), ")"));
    }
    if (state->proposals >= kMaxProposalsPerTable) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "round ", request.round(), " table ", request.table(), " has ", state->proposals,
          " proposed score sheets already (at most ", kMaxProposalsPerTable,
          "); ask the organiser to enter the sheet"));
    }
    ARBITER_ASSIGN_OR_RETURN(const Outcomes outcomes, ReadOutcomes(results_, log.id));
    const store::GameStatus status = OutcomeOf(outcomes, state->table.game()).status;
    if (status == store::GameStatus::kFinished || status == store::GameStatus::kVoided) {
      return absl::FailedPreconditionError(absl::StrCat(
          "game \"", game_id, "\" is already over: a score sheet cannot replace its result; open a "
          "dispute on the table instead (arbiter dispute open)"));
    }
    const engine::Game* game = engine::FindGame(log.settings.game_type());
    ARBITER_RETURN_IF_ERROR(
        ReadScoreSheet(request, state->table, game && game->cooperative()).status());
    v1::ResultProposed proposed;
    proposed.set_round(request.round());
    proposed.set_table(request.table());
    proposed.mutable_seats()->CopyFrom(request.seats());
    proposed.set_team_won(request.team_won());
    proposed.mutable_signed_by()->CopyFrom(request.signed_by());
    proposed.set_note(request.note());
    proposed.set_proposed_by(caller.principal);
    ARBITER_RETURN_IF_ERROR(streams_
                                .Append(TournamentAppend(log, caller, "propose",
                                                         request.request_id(),
                                                         kTypeResultProposed, proposed))
                                .status());
    ARBITER_ASSIGN_OR_RETURN(log, ReadTournament(streams_, log.id));
  }
  return ReadRoundView(results_, log, request.round(), SeedSightOf(caller, log));
}

}  // namespace arbiter::tournament
