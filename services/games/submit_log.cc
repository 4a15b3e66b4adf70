// GameWriter's SubmitGame flow (Submit): a whole game from its log,
// parsed within the server's limits, judged, and stored with its result in
// one transaction.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/common/status_details.h"
#include "services/games/game_events.h"
#include "services/games/game_views.h"
#include "services/games/game_writer.h"
#include "services/games/played_game.h"
#include "services/games/write_checks.h"
#include "services/log/log_file.h"

namespace arbiter::games {
namespace {

// The submitted log, parsed within the server's limits: parsing stops at
// the first action the game could not hold (the header is event 1), so a
// long log costs no more than the limit. ResourceExhausted (EVENT_LIMIT)
// for a log with too many actions; InvalidArgument on "log" for one that
// does not parse.
absl::StatusOr<log::GameLog> ParseSubmittedLog(const std::string& text, const WriteLimits& limits) {
  log::LogLimits log_limits;
  log_limits.max_file_bytes = static_cast<std::size_t>(limits.max_log_bytes);
  log_limits.max_actions =
      static_cast<std::size_t>(std::max<int64_t>(0, limits.max_events_per_game - 1));
  absl::StatusOr<log::GameLog> parsed = log::ParseLog(text, log_limits);
  if (!parsed.ok() && absl::StrContains(parsed.status().message(), "actions, the limit")) {
    return common::WithErrorInfo(
        absl::ResourceExhaustedError(absl::StrCat(
            "the log has more than ", log_limits.max_actions, " actions; this server allows ",
            limits.max_events_per_game, " events per game, the header included")),
        "EVENT_LIMIT", {{"limit", absl::StrCat(limits.max_events_per_game)}});
  }
  if (!parsed.ok()) {
    return common::WithFieldViolation(parsed.status(), "log", std::string(parsed.status().message()));
  }
  const int64_t events = 1 + static_cast<int64_t>(parsed->actions.size());
  if (events > limits.max_events_per_game) {
    return TooManyEvents(events, limits.max_events_per_game);
  }
  return parsed;
}

// The referee after the log's actions: judged up to the first violation,
// the actions after it (kept as evidence) only checked for shape.
// InvalidArgument on "log" for a header that does not start a game or a
// malformed action; the cancel check's status.
absl::StatusOr<replay::Referee> JudgeLog(const engine::RulesetRegistry& registry,
                                         const log::GameLog& parsed, const CancelCheck& cancel) {
  absl::StatusOr<replay::Referee> referee = replay::Referee::Start(parsed.header, registry);
  if (!referee.ok()) return HeaderError(referee.status(), "log", true);
  for (std::size_t i = 0; i < parsed.actions.size(); ++i) {
    const int64_t line = log::LineOfAction(i);
    if (line % 512 == 0) ARBITER_RETURN_IF_ERROR(cancel());
    if (referee->violation().has_value()) {
      // Kept as evidence after the violation, but still well-formed.
      if (absl::Status s = CheckShape(*referee, parsed.actions[i], line); !s.ok()) {
        return common::WithFieldViolation(s, "log", std::string(s.message()));
      }
      continue;
    }
    auto judged = referee->Apply(parsed.actions[i], line);
    if (!judged.ok()) {
      return common::WithFieldViolation(judged.status(), "log",
                                        std::string(judged.status().message()));
    }
  }
  return referee;
}

// The stored events of a submitted game: event 1 (`created`), the log's
// actions, and when `result` is given (the log ends the game) the game's
// result after them. InvalidArgument on "log" for an event too large.
absl::StatusOr<std::vector<store::NewEvent>> EventsOfLog(const std::string& game_id,
                                                         const v1::GameCreated& created,
                                                         const log::GameLog& parsed,
                                                         const v1::Adjudication* result) {
  std::vector<store::NewEvent> events;
  events.reserve(parsed.actions.size() + 2);
  absl::StatusOr<store::NewEvent> first = EncodeCreated(game_id, created);
  if (!first.ok()) return common::WithFieldViolation(first.status(), "log", "header too large");
  events.push_back(*std::move(first));
  for (std::size_t i = 0; i < parsed.actions.size(); ++i) {
    absl::StatusOr<store::NewEvent> event =
        EncodeAction(game_id, log::LineOfAction(i), parsed.actions[i]);
    if (!event.ok()) return common::WithFieldViolation(event.status(), "log", "action too large");
    events.push_back(*std::move(event));
  }
  if (result != nullptr) {
    const int64_t number = static_cast<int64_t>(events.size()) + 1;
    absl::StatusOr<store::NewEvent> finished =
        EncodeGameFinished(game_id, number, FinishedBody(created, *result));
    if (!finished.ok()) {
      return common::WithFieldViolation(finished.status(), "log", "result too large");
    }
    events.push_back(*std::move(finished));
  }
  return events;
}

// The id of the stored game that a log with `key` repeats, for a submission
// that allows duplicates ("" otherwise, and when nothing, or only the game
// this request stores, holds the key: a retry).
absl::StatusOr<std::string> DuplicateToMark(store::EventStore& store, bool allow_duplicate,
                                            const std::string& key, const std::string& game_id) {
  if (!allow_duplicate) return std::string();
  ARBITER_ASSIGN_OR_RETURN(const std::optional<std::string> holder, store.FindPlayedGame(key));
  if (!holder.has_value() || *holder == game_id) return std::string();
  return *holder;
}

// The store's answer, with a refused duplicate said in the submitter's
// words (which flag stores it anyway).
absl::StatusOr<store::GameRecord> Stored(absl::StatusOr<store::GameRecord> stored) {
  if (stored.ok()) return stored;
  const std::optional<google::rpc::ErrorInfo> info = common::ErrorInfoOf(stored.status());
  if (info.has_value() && info->reason() == "DUPLICATE_GAME") {
    return DuplicateOf(info->metadata().at("game"));
  }
  return stored;
}

}  // namespace

absl::StatusOr<v1::SubmitGameResponse> GameWriter::Submit(const access::Caller& caller,
                                                          const v1::SubmitGameRequest& request,
                                                          const CancelCheck& cancel) {
  ARBITER_RETURN_IF_ERROR(CheckRequestId(request.request_id()));
  ARBITER_ASSIGN_OR_RETURN(
      const std::string game_id,
      GameIdToCreate(request.game_id(), caller.principal, request.request_id()));
  ARBITER_RETURN_IF_ERROR(CheckScopeId(request.league(), "league"));
  ARBITER_RETURN_IF_ERROR(CheckScopeId(request.tournament(), "tournament"));
  ARBITER_RETURN_IF_ERROR(RequireCreate(caller, request.league(), request.tournament(), nullptr));
  ARBITER_ASSIGN_OR_RETURN(const log::GameLog parsed, ParseSubmittedLog(request.log(), limits_));
  ARBITER_RETURN_IF_ERROR(CheckLeague(request.league(), parsed.header.game(), "league"));
  ARBITER_ASSIGN_OR_RETURN(const replay::Referee referee, JudgeLog(registry_, parsed, cancel));

  v1::GameCreated created;
  *created.mutable_header() = parsed.header;
  created.set_league(request.league());
  created.set_tournament(request.tournament());
  created.set_creator_token_id(caller.token_id);
  const std::string played_key = PlayedGameKey(parsed.header, parsed.actions);
  ARBITER_ASSIGN_OR_RETURN(
      const std::string duplicate_of,
      DuplicateToMark(store_, request.allow_duplicate(), played_key, game_id));
  created.set_duplicate_of(duplicate_of);
  const int64_t events = 1 + static_cast<int64_t>(parsed.actions.size());
  const v1::Adjudication adjudication = ToAdjudication(game_id, referee, events);
  // A game that is over ends with its result, in the same transaction as
  // its last action.
  const bool over = referee.verdict() != replay::Verdict::kUnfinished;
  store::CreateGameRequest create;
  ARBITER_ASSIGN_OR_RETURN(create.events,
                           EventsOfLog(game_id, created, parsed, over ? &adjudication : nullptr));
  ARBITER_RETURN_IF_ERROR(cancel());

  create.request_id = StoreRequestId("submit", game_id, caller.principal, request.request_id());
  create.game = NewGameRecord(game_id, created, caller.principal);
  // The game and all its events in one transaction, already finished if the
  // log ends the game: no other writer can come between its parts.
  if (over) create.game.status = store::GameStatus::kFinished;
  // A duplicate stored on purpose holds no key: the original keeps it.
  if (duplicate_of.empty()) create.played_key = played_key;
  ARBITER_ASSIGN_OR_RETURN(const store::GameRecord stored, Stored(store_.CreateGame(create)));
  v1::SubmitGameResponse out;
  *out.mutable_game() = ToGame(stored, &created, true);
  *out.mutable_adjudication() = adjudication;
  return out;
}

}  // namespace arbiter::games
