#include "services/tournament/dispute_writer.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/core/status_macros.h"
#include "engine/tournament/standings.h"
#include "services/common/proto_time.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"
#include "services/common/text_length.h"
#include "services/games/chained_game.h"
#include "services/tournament/dispute_reader.h"
#include "services/tournament/rulings.h"
#include "services/tournament/tournament_access.h"
#include "services/tournament/tournament_reader.h"

namespace arbiter::tournament {
namespace {

// OpenDispute's fields that need no store; the tournament's id.
absl::StatusOr<std::string> CheckOpenRequest(const v1::OpenDisputeRequest& request) {
  ARBITER_RETURN_IF_ERROR(CheckTournamentRequestId(request.request_id()));
  if (!common::IsValidId(common::IdKind::kDispute, request.dispute_id())) {
    return common::FieldError("dispute_id",
                              "dispute_id must be 1-40 characters of A-Z a-z 0-9 _ . -");
  }
  ARBITER_ASSIGN_OR_RETURN(std::string tournament_id,
                           ParseTournamentName(request.tournament(), "tournament"));
  ARBITER_RETURN_IF_ERROR(common::CheckText("reason", request.reason(), 1,
                                            common::kMaxReasonCharacters, "saying what is disputed"));
  return tournament_id;
}

// The table a dispute names. NotFound for a round not started or a table
// the round does not have.
absl::StatusOr<const TableState*> DisputedTable(const TournamentLog& log, int round, int table) {
  const int rounds = static_cast<int>(log.rounds.size());
  if (round < 1 || round > rounds) {
    return absl::NotFoundError(absl::StrCat("tournament \"", log.id, "\" has no round ", round,
                                            " (", rounds, " started)"));
  }
  const RoundState& state = log.rounds[static_cast<size_t>(round - 1)];
  if (table < 1 || table > static_cast<int>(state.tables.size())) {
    return absl::NotFoundError(absl::StrCat("round ", round, " has no table ", table, " (it has ",
                                            state.tables.size(), ")"));
  }
  return &state.tables[static_cast<size_t>(table - 1)];
}

// The table's players and the tournament's arbiters may dispute it.
absl::Status CheckMayDispute(const access::Caller& caller, const TournamentLog& log,
                             const TableState& table, int round, int table_number) {
  bool seated = false;
  for (const std::string& p : table.table.players()) seated = seated || p == caller.principal;
  if (seated || RequireOrganise(caller, log).ok()) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat(
      "this token may not open a dispute on round ", round, " table ", table_number,
      " (admins, the tournament's organisers and the table's players only)"));
}

// A confirmed result may be disputed within the tournament's window.
absl::Status CheckWindow(const TournamentLog& log, const TableState& table, int round,
                         int table_number) {
  if (!table.confirmed.has_value()) return absl::OkStatus();
  const int64_t window = log.settings.dispute_window_seconds() == 0
                             ? kDefaultDisputeWindowSeconds
                             : log.settings.dispute_window_seconds();
  const absl::Time deadline = table.confirmed_at + absl::Seconds(window);
  if (absl::Now() <= deadline) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "the dispute window for round ", round, " table ", table_number, " closed at ",
      absl::FormatTime(absl::RFC3339_sec, deadline, absl::UTCTimeZone()), " (", window,
      " s after its result was confirmed)"));
}

// AlreadyExists (ErrorInfo reason DISPUTE_EXISTS) for a new dispute under
// the id of `existing`.
absl::Status DisputeExists(const std::string& dispute_id, const v1::Dispute& existing) {
  return common::WithErrorInfo(
      absl::AlreadyExistsError(absl::StrCat(
          "dispute \"", dispute_id, "\" already exists (round ", existing.round(), " table ",
          existing.table(), " of tournament \"",
          common::IdOf(common::IdKind::kTournament, existing.tournament()), "\"",
          "); read it, or open yours under another dispute id")),
      "DISPUTE_EXISTS", {{"dispute", dispute_id}});
}

// The standings of the tournament's started rounds.
absl::StatusOr<std::vector<engine::tournament::StandingRow>> StandingsOf(const Outcomes& outcomes,
                                                                         const TournamentLog& log) {
  const ReadRounds read = ResultsFrom(outcomes, log, 0);
  return engine::tournament::ComputeStandings(log.model, log.players, read.rounds, log.changes);
}

}  // namespace

absl::StatusOr<v1::Dispute> DisputeWriter::OpenDispute(const access::Caller& caller,
                                                       const v1::OpenDisputeRequest& request,
                                                       const games::CancelCheck& cancel) {
  ARBITER_ASSIGN_OR_RETURN(const std::string tournament_id, CheckOpenRequest(request));
  ARBITER_ASSIGN_OR_RETURN(const TournamentLog log, ReadTournament(streams_, tournament_id));
  ARBITER_ASSIGN_OR_RETURN(const TableState* const table,
                           DisputedTable(log, request.round(), request.table()));
  ARBITER_RETURN_IF_ERROR(CheckMayDispute(caller, log, *table, request.round(), request.table()));
  ARBITER_RETURN_IF_ERROR(CheckWindow(log, *table, request.round(), request.table()));
  const std::string game_id = common::IdOf(common::IdKind::kGame, table->table.game());
  ARBITER_ASSIGN_OR_RETURN(const store::GameRecord record, games::ChainedRecord(events_, game_id));
  if (request.event() < 0 || request.event() > record.last_sequence) {
    return common::FieldError("event", absl::StrCat("event: game \"", game_id, "\" has events 1-",
                                                    record.last_sequence, " (0: the whole game)"));
  }
  v1::DisputeOpened opened;
  opened.set_tournament(tournament_id);
  opened.set_round(request.round());
  opened.set_table(request.table());
  opened.set_game(table->table.game());
  opened.set_event(request.event());
  opened.set_reason(request.reason());
  *opened.mutable_adjudication() = Adjudicate(events_, results_, registry_, game_id, cancel);
  store::StreamAppendRequest append;
  append.stream_id = common::NameOf(common::IdKind::kDispute, request.dispute_id());
  append.kind = kDisputeKind;
  append.expected_sequence = 0;
  append.request_id =
      StreamRequestId("dispute-open", append.stream_id, caller.principal, request.request_id());
  append.recorded_by = caller.principal;
  append.type = kTypeDisputeOpened;
  opened.SerializeToString(&append.payload);
  if (absl::Status s = streams_.Append(append).status(); !s.ok()) {
    // A retry of the opening request was answered above; any other request
    // for a dispute id in use (whatever its request id) is told so.
    absl::StatusOr<v1::Dispute> existing = ReadDispute(streams_, request.dispute_id());
    if (!existing.ok()) return s;
    return DisputeExists(request.dispute_id(), *existing);
  }
  return ReadDispute(streams_, request.dispute_id());
}

absl::StatusOr<v1::Dispute> DisputeWriter::RuleDispute(const access::Caller& caller,
                                                       const v1::RuleDisputeRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(const std::string id, ParseDisputeName(request.name()));
  ARBITER_RETURN_IF_ERROR(CheckTournamentRequestId(request.request_id()));
  ARBITER_ASSIGN_OR_RETURN(const v1::Dispute dispute, ReadDispute(streams_, id));
  const std::string tournament_id = common::IdOf(common::IdKind::kTournament, dispute.tournament());
  ARBITER_ASSIGN_OR_RETURN(const TournamentLog log,
                           ReadToOrganise(caller, streams_, tournament_id));
  if (dispute.state() == v1::DISPUTE_STATE_RULED) return DisputeClosed(id, dispute.ruling());
  ARBITER_RETURN_IF_ERROR(CheckRulingRequest(request));
  const TableState& table = log.rounds[static_cast<size_t>(dispute.round() - 1)]
                                .tables[static_cast<size_t>(dispute.table() - 1)];
  ARBITER_RETURN_IF_ERROR(CheckCorrected(request, table.table.players_size()));
  if (auto earlier = log.rulings.find(id); earlier != log.rulings.end()) {
    // Recorded by a RuleDispute that stopped before its last write: this
    // one completes it, and is answered as that one would have been if it
    // asks for the same ruling.
    const v1::RulingRecorded& recorded = earlier->second;
    ARBITER_RETURN_IF_ERROR(Complete(caller, id, dispute, recorded, table));
    if (!AsksFor(request, caller.principal, recorded.ruling())) {
      return DisputeClosed(id, recorded.ruling());
    }
    return Answer(id);
  }
  ARBITER_RETURN_IF_ERROR(CheckGameWrite(id, request));
  ARBITER_ASSIGN_OR_RETURN(const v1::RulingRecorded recorded,
                           Decide(caller, request, id, dispute, log));
  ARBITER_RETURN_IF_ERROR(RecordInTournament(caller, log, recorded));
  ARBITER_RETURN_IF_ERROR(Complete(caller, id, dispute, recorded, table));
  return Answer(id);
}

absl::StatusOr<v1::RulingRecorded> DisputeWriter::Decide(const access::Caller& caller,
                                                         const v1::RuleDisputeRequest& request,
                                                         const std::string& dispute_id,
                                                         const v1::Dispute& dispute,
                                                         const TournamentLog& log) {
  v1::RulingRecorded recorded;
  recorded.set_dispute(dispute_id);
  recorded.set_round(dispute.round());
  recorded.set_table(dispute.table());
  v1::Ruling* ruling = recorded.mutable_ruling();
  ruling->set_kind(request.kind());
  ruling->set_reason(request.reason());
  *ruling->mutable_corrected() = request.corrected();
  ruling->set_ruled_by(caller.principal);
  *ruling->mutable_rule_time() = common::TimestampOf(absl::Now());
  // The standings before and as the ruling makes them (a ruling on a table
  // takes precedence over its game's result, tournament_reader.h).
  ARBITER_ASSIGN_OR_RETURN(const Outcomes outcomes, ReadOutcomes(results_, log.id));
  ARBITER_ASSIGN_OR_RETURN(const std::vector<engine::tournament::StandingRow> before,
                           StandingsOf(outcomes, log));
  TournamentLog ruled = log;
  ruled.rounds[static_cast<size_t>(dispute.round() - 1)]
      .tables[static_cast<size_t>(dispute.table() - 1)]
      .ruling = recorded;
  ARBITER_ASSIGN_OR_RETURN(const std::vector<engine::tournament::StandingRow> after,
                           StandingsOf(outcomes, ruled));
  for (v1::StandingChange& change : StandingChanges(before, after)) {
    *ruling->add_changes() = std::move(change);
  }
  return recorded;
}

absl::Status DisputeWriter::Complete(const access::Caller& caller, const std::string& dispute_id,
                                     const v1::Dispute& dispute,
                                     const v1::RulingRecorded& recorded, const TableState& table) {
  ARBITER_RETURN_IF_ERROR(WriteToGame(caller, dispute_id, dispute, recorded, table));
  return RecordInDispute(caller, dispute_id, dispute, recorded);
}

absl::Status DisputeWriter::WriteToGame(const access::Caller& caller,
                                        const std::string& dispute_id, const v1::Dispute& dispute,
                                        const v1::RulingRecorded& recorded,
                                        const TableState& table) {
  const v1::Ruling& ruling = recorded.ruling();
  if (ruling.kind() != v1::RULING_KIND_VOID && ruling.kind() != v1::RULING_KIND_CORRECTED) {
    return absl::OkStatus();
  }
  // Written already (by an interrupted ruling, perhaps under another
  // arbiter's request id): once is enough.
  const std::string game_id = common::IdOf(common::IdKind::kGame, dispute.game());
  ARBITER_ASSIGN_OR_RETURN(const store::GameRecord game, events_.GetGame(game_id));
  ARBITER_ASSIGN_OR_RETURN(const std::optional<store::StoredEvent> written,
                           FindRulingEvent(events_, game, dispute_id, ruling.kind()));
  if (written.has_value()) return absl::OkStatus();
  absl::Status status;
  if (ruling.kind() == v1::RULING_KIND_VOID) {
    v1::VoidGameRequest void_request;
    void_request.set_name(dispute.game());
    void_request.set_request_id(RulingGameRequestId(dispute_id));
    void_request.set_reason(RulingGameReason(dispute_id, ruling.reason()));
    status = games_.Void(caller, void_request).status();
  } else {
    // The corrected result goes into the game's own log too, so that the
    // league's ratings count it in place of the game's.
    status = games_
                 .RecordCorrection(caller, game_id,
                                   CorrectedStandings(table.table, ruling.corrected()),
                                   RulingGameReason(dispute_id, ruling.reason()),
                                   RulingGameRequestId(dispute_id))
                 .status();
  }
  // A voided game stays voided: FailedPrecondition is no error here.
  if (absl::IsFailedPrecondition(status)) return absl::OkStatus();
  return status;
}

absl::Status DisputeWriter::RecordInTournament(const access::Caller& caller,
                                               const TournamentLog& log,
                                               const v1::RulingRecorded& recorded) {
  store::StreamAppendRequest append;
  append.stream_id = common::NameOf(common::IdKind::kTournament, log.id);
  append.expected_sequence = log.stream.last_sequence;
  append.request_id = absl::StrCat("tournament-ruling-", recorded.dispute());
  append.recorded_by = caller.principal;
  append.type = kTypeRulingRecorded;
  recorded.SerializeToString(&append.payload);
  return streams_.Append(append).status();
}

absl::Status DisputeWriter::RecordInDispute(const access::Caller& caller,
                                            const std::string& dispute_id,
                                            const v1::Dispute& dispute,
                                            const v1::RulingRecorded& recorded) {
  v1::DisputeRuled ruled;
  *ruled.mutable_ruling() = recorded.ruling();
  store::StreamAppendRequest append;
  append.stream_id = common::NameOf(common::IdKind::kDispute, dispute_id);
  append.expected_sequence = dispute.last_event();
  append.request_id = absl::StrCat("dispute-ruling-", dispute_id);
  append.recorded_by = caller.principal;
  append.type = kTypeDisputeRuled;
  ruled.SerializeToString(&append.payload);
  return streams_.Append(append).status();
}

absl::StatusOr<v1::Dispute> DisputeWriter::Answer(const std::string& dispute_id) {
  ARBITER_ASSIGN_OR_RETURN(v1::Dispute dispute, ReadDispute(streams_, dispute_id));
  ARBITER_RETURN_IF_ERROR(AddRatingChanges(events_, results_, streams_, dispute_id, dispute));
  return dispute;
}

}  // namespace arbiter::tournament
