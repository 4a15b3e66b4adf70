#include "services/games/write_checks.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "services/common/resource_names.h"
#include "services/common/status_details.h"
#include "services/games/game_events.h"

namespace arbiter::games {

absl::Status CheckRequestId(const std::string& request_id) {
  if (request_id.empty() || static_cast<int>(request_id.size()) > store::kMaxIdBytes) {
    return common::FieldError("request_id",
                              absl::StrCat("request_id is required: 1-", store::kMaxIdBytes,
                                           " bytes, unique per write (a UUID will do)"));
  }
  return absl::OkStatus();
}

absl::Status CheckScopeId(const std::string& id, const char* field) {
  if (id.empty() || common::IsValidId(common::IdKind::kPrincipal, id)) return absl::OkStatus();
  return common::FieldError(
      field, absl::StrCat(field, " must be 1-100 characters of A-Z a-z 0-9 _ . @ -"));
}

absl::StatusOr<std::string> GameIdToCreate(const std::string& given, const std::string& principal,
                                           const std::string& request_id) {
  std::string game_id = given.empty() ? DerivedGameId(principal, request_id) : given;
  if (!common::IsValidId(common::IdKind::kGame, game_id)) {
    return common::FieldError("game_id", "game_id must be 1-63 characters of A-Z a-z 0-9 _ . -");
  }
  return game_id;
}

absl::StatusOr<std::string> GameIdOfName(const std::string& name, const std::string& field) {
  absl::StatusOr<std::string> game_id = common::ParseName(common::IdKind::kGame, name, field);
  if (!game_id.ok()) return common::WithFieldViolation(game_id.status(), field, "not a game name");
  return game_id;
}

absl::Status HeaderError(const absl::Status& status, const std::string& field, bool keep_line) {
  std::string message(status.message());
  if (!keep_line && absl::StartsWith(message, "line 1: ")) message = message.substr(8);
  return common::WithFieldViolation(absl::Status(status.code(), message), field, message);
}

absl::Status CheckShape(const replay::Referee& referee, const v1::Action& action, int64_t event) {
  if (referee.SeatOf(action.player()) < 0) {
    return absl::InvalidArgumentError(absl::StrCat("event ", event, ": unknown player '",
                                                   action.player().substr(0, 80), "'"));
  }
  if (action.game_case() != referee.game().action_case()) {
    return absl::InvalidArgumentError(absl::StrCat("event ", event,
                                                   ": the action is not an action of ",
                                                   std::string(referee.game().name())));
  }
  if (absl::Status shape = referee.game().CheckShape(action, referee.ruleset().ruleset);
      !shape.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("event ", event, ": ", shape.message()));
  }
  return absl::OkStatus();
}

absl::Status IllegalAction(const engine::Violation& violation, int64_t event,
                           const std::string& player, int index) {
  absl::Status status = absl::InvalidArgumentError(
      absl::StrCat("event ", event, " (actions[", index, "]) by ", player, " is illegal: ",
                   violation.rule, ": ", violation.detail));
  status = common::WithErrorInfo(std::move(status), "ILLEGAL_ACTION",
                                 {{"rule", violation.rule},
                                  {"event", absl::StrCat(event)},
                                  {"player", player},
                                  {"detail", violation.detail}});
  return common::WithFieldViolation(std::move(status), absl::StrCat("actions[", index, "]"),
                                    absl::StrCat(violation.rule, ": ", violation.detail));
}

absl::Status TooManyEvents(int64_t would_have, int64_t limit) {
  return common::WithErrorInfo(
      absl::ResourceExhaustedError(absl::StrCat("the game would have ", would_have,
                                                " events; this server allows ", limit, " per game")),
      "EVENT_LIMIT", {{"limit", absl::StrCat(limit)}});
}

absl::Status StaleExpectedEvent(int64_t expected, int64_t current) {
  return common::WithErrorInfo(
      absl::AbortedError(absl::StrCat("expected_last_event is ", expected,
                                      " but the game is at event ", current,
                                      "; read the new events and decide again")),
      "STALE_EXPECTED_EVENT",
      {{"expected_last_event", absl::StrCat(expected)}, {"last_event", absl::StrCat(current)}});
}

absl::Status AcceptsNoMoreActions(const std::string& game_id, store::GameStatus status) {
  return absl::FailedPreconditionError(absl::StrCat("game \"", game_id, "\" is ",
                                                    store::GameStatusName(status),
                                                    " and accepts no more actions"));
}

store::GameRecord NewGameRecord(const std::string& game_id, const v1::GameCreated& created,
                                const std::string& created_by) {
  const v1::LogHeader& header = created.header();
  store::GameRecord record;
  record.game_id = game_id;
  record.game = header.game();
  record.ruleset_id = header.ruleset_id();
  record.ruleset_hash = header.ruleset_hash();
  if (created.seed_commitment().empty()) {
    record.seed = header.seed();
  } else {
    record.seed_commitment = created.seed_commitment();
  }
  for (const v1::Player& player : header.players()) record.players.push_back(player.id());
  record.created_by = created_by;
  record.league_id = created.league();
  record.tournament_id = created.tournament();
  return record;
}

store::AppendRequest AppendTo(const std::string& game_id, int64_t expected_sequence,
                              const std::string& kind, const std::string& principal,
                              const std::string& client_request_id) {
  store::AppendRequest append;
  append.game_id = game_id;
  append.expected_sequence = expected_sequence;
  append.request_id = StoreRequestId(kind, game_id, principal, client_request_id);
  append.recorded_by = principal;
  return append;
}

}  // namespace arbiter::games
