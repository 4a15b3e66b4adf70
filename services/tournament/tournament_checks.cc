#include "services/tournament/tournament_checks.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "engine/core/status_macros.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"
#include "services/common/text_length.h"

namespace arbiter::tournament {

absl::Status SettingsError(const absl::Status& status) {
  const std::string message(status.message());
  return common::WithFieldViolation(
      status, absl::StrCat("settings.", message.substr(0, message.find(':'))), message);
}

absl::Status CheckNewPlayers(const std::vector<std::string>& registered,
                             const google::protobuf::RepeatedPtrField<std::string>& players) {
  std::set<std::string> seen(registered.begin(), registered.end());
  for (const std::string& p : players) {
    if (!common::IsValidId(common::IdKind::kPlayer, p)) {
      return common::FieldError("players", absl::StrCat("players: \"", p.substr(0, 80),
                                                        "\" is not a player id (1-64 characters of "
                                                        "A-Z a-z 0-9 _ . -)"));
    }
    if (!seen.insert(p).second) {
      return common::FieldError("players",
                                absl::StrCat("players: \"", p, "\" is already registered"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDisplayNames(const google::protobuf::RepeatedPtrField<std::string>& players,
                               const google::protobuf::RepeatedPtrField<std::string>& names) {
  if (names.empty()) return absl::OkStatus();
  if (names.size() != players.size()) {
    return common::FieldError(
        "display_names", absl::StrCat("display_names: ", names.size(), " names for ",
                                      players.size(), " players; give one per player, in order "
                                      "(\"\" for none), or none at all"));
  }
  for (int i = 0; i < names.size(); ++i) {
    ARBITER_RETURN_IF_ERROR(common::CheckPrintableText(absl::StrCat("display_names[", i, "]"),
                                                       names[i], 0, kMaxDisplayNameCharacters, ""));
  }
  return absl::OkStatus();
}

absl::Status CheckPlayersFit(const store::StreamAppendRequest& append, int players) {
  if (static_cast<int64_t>(append.payload.size()) <= store::kMaxStreamPayloadBytes) {
    return absl::OkStatus();
  }
  return common::WithErrorInfo(
      common::FieldError("players", absl::StrCat("players: ", players, " players take ",
                                                 append.payload.size(), " bytes; one request may hold ",
                                                 store::kMaxStreamPayloadBytes,
                                                 " (register the rest in further requests)")),
      "TOO_MANY_PLAYERS", {{"tournament", common::IdOf(common::IdKind::kTournament, append.stream_id)}});
}

absl::Status CheckOpenTable(const TournamentLog& log, int round, int table, bool closed) {
  const int started = static_cast<int>(log.rounds.size());
  if (round < 1 || round > started) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round ", round, " of tournament \"", log.id, "\" is not open (",
        started == 0 ? std::string("no round has started")
                     : absl::StrCat("round ", started, " is the latest"),
        ")"));
  }
  const int tables = static_cast<int>(log.rounds[static_cast<size_t>(round - 1)].tables.size());
  if (table < 1 || table > tables) {
    return absl::NotFoundError(
        absl::StrCat("round ", round, " has no table ", table, " (it has ", tables, ")"));
  }
  if (round != started || closed) {
    return absl::FailedPreconditionError(absl::StrCat("round ", round, " is closed"));
  }
  return absl::OkStatus();
}

absl::Status CheckNotConfirmedByAnother(const TournamentLog& log, int round, int table,
                                        const std::string& stream_request_id) {
  const TableState& state =
      log.rounds[static_cast<size_t>(round - 1)].tables[static_cast<size_t>(table - 1)];
  if (!state.confirmed.has_value() || state.confirmed_request_id == stream_request_id) {
    return absl::OkStatus();
  }
  return common::WithErrorInfo(
      absl::FailedPreconditionError(absl::StrCat(
          "round ", round, " table ", table, " is already confirmed (event ", state.confirmed_event,
          " of tournament \"", log.id, "\", ",
          absl::FormatTime(absl::RFC3339_sec, state.confirmed_at, absl::UTCTimeZone()),
          "); a confirmed result changes only through a dispute")),
      "RESULT_CONFIRMED",
      {{"tournament", log.id}, {"round", absl::StrCat(round)}, {"table", absl::StrCat(table)}});
}

absl::StatusOr<v1::ResultConfirmed> ConfirmationOf(const Outcomes& outcomes, int round,
                                                   const TableState& table) {
  const std::string game_id = common::IdOf(common::IdKind::kGame, table.table.game());
  const GameOutcome& outcome = OutcomeOf(outcomes, table.table.game());
  if (outcome.status == store::GameStatus::kVoided) {
    return absl::FailedPreconditionError(absl::StrCat("game \"", game_id, "\" is voided"));
  }
  if (!outcome.finished.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat("game \"", game_id, "\" has not finished"));
  }
  absl::StatusOr<engine::tournament::TableResult> result = ResultOf(
      *outcome.finished,
      std::vector<std::string>(table.table.players().begin(), table.table.players().end()));
  if (!result.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("game \"", game_id, "\": ", result.status().message()));
  }
  v1::ResultConfirmed confirmed;
  confirmed.set_round(round);
  confirmed.set_table(table.table.number());
  confirmed.set_game(table.table.game());
  confirmed.set_game_event(outcome.finished_event);
  return confirmed;
}

}  // namespace arbiter::tournament
