// GameWriter's AppendActions flow (Append), in steps: check the request,
// turn its actions into a store request, then either answer a retry (or
// refuse a stale view) or judge the batch, add the game's result when the
// batch ends the game, and store. Also the result event of a game that has
// ended (RecordFinished, shared with Reveal).
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/common/status_details.h"
#include "services/games/chained_game.h"
#include "services/games/dealer_reveal.h"
#include "services/games/dealt_game.h"
#include "services/games/game_events.h"
#include "services/games/game_views.h"
#include "services/games/game_writer.h"
#include "services/games/write_checks.h"
#include "services/store/event_hash.h"

namespace arbiter::games {
namespace {

// One append on its way to the store.
struct PendingAppend {
  std::string game_id;
  store::GameRecord record;  // the game as its chain stated it when locked
  // The request's actions as stored events after its expected_last_event
  // (append.expected_sequence); an append that ends the game adds the
  // game's result after them.
  store::AppendRequest append;
  int count = 0;             // the request's actions
  int64_t last_action = 0;   // the event number of the last of them
  bool json = true;          // whether the stored events keep their JSON copy
  bool ends = false;         // whether the actions end the game
};

// The request's own checks (no store read). InvalidArgument naming the
// field. Returns the game id.
absl::StatusOr<std::string> CheckAppendRequest(const v1::AppendActionsRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(std::string game_id, GameIdOfName(request.game(), "game"));
  ARBITER_RETURN_IF_ERROR(CheckRequestId(request.request_id()));
  if (request.expected_last_event() < 1) {
    return common::FieldError("expected_last_event",
                              "expected_last_event is required: the number of the last event you "
                              "have seen (1 for a game without actions)");
  }
  const int count = request.actions_size();
  if (count < 1 || count > store::kMaxEventsPerAppend) {
    return common::FieldError(
        "actions", absl::StrCat("give 1-", store::kMaxEventsPerAppend, " actions, not ", count));
  }
  return game_id;
}

// The store request of `request`'s actions (without JSON copies for a
// tournament's tables when the limits say so: the same for every retry, as
// the copy is part of the request the store keeps). InvalidArgument on
// "actions[i]" for an action too large to store.
absl::StatusOr<PendingAppend> ActionsToStore(const access::Caller& caller,
                                             const v1::AppendActionsRequest& request,
                                             std::string game_id, store::GameRecord record,
                                             const WriteLimits& limits) {
  PendingAppend pending;
  pending.count = request.actions_size();
  pending.last_action = request.expected_last_event() + pending.count;
  pending.append = AppendTo(game_id, request.expected_last_event(), "append", caller.principal,
                            request.request_id());
  for (int i = 0; i < pending.count; ++i) {
    absl::StatusOr<store::NewEvent> event =
        EncodeAction(game_id, request.expected_last_event() + 1 + i, request.actions(i));
    if (!event.ok()) {
      return common::WithFieldViolation(event.status(), absl::StrCat("actions[", i, "]"),
                                        "too large");
    }
    pending.append.events.push_back(*std::move(event));
  }
  pending.json = limits.json_copy_for_tournament_games || record.tournament_id.empty();
  if (!pending.json) {
    for (store::NewEvent& event : pending.append.events) event.json.clear();
  }
  pending.game_id = std::move(game_id);
  pending.record = std::move(record);
  return pending;
}

// The answer to `pending` once the store holds it as `result`: it names
// the request's actions (an ending append's result event comes after them;
// `last_action_hash` is then the chain's hash through the last action).
v1::AppendActionsResponse Answered(v1::AppendActionsResponse out, const PendingAppend& pending,
                                   const store::AppendResult& result,
                                   const std::string& last_action_hash) {
  out.set_first_event(result.first_sequence);
  out.set_last_event(pending.last_action);
  out.set_last_event_hash(result.last_sequence == pending.last_action ? result.last_hash
                                                                      : last_action_hash);
  return out;
}

// The events an append ending at `last_action` stored after its actions
// (a dealt game's reveal, then "game_finished"), if the game's stored
// actions end the game there (none if they do not, or the seed is hidden):
// how a retry of that append asks again exactly as it was first asked.
absl::StatusOr<std::vector<store::NewEvent>> EndingOfStoredActions(
    store::EventStore& store, const engine::RulesetRegistry& registry,
    const LoadedGame& game, int64_t last_action, const CancelCheck& cancel) {
  if (!game.seed.has_value()) return std::vector<store::NewEvent>();
  ARBITER_ASSIGN_OR_RETURN(const replay::Referee judged, Judge(game, registry, last_action, cancel));
  if (!judged.state().IsTerminal() || judged.actions_applied() == 0) {
    return std::vector<store::NewEvent>();
  }
  const std::string& game_id = game.record.game_id;
  const v1::GameFinished body =
      FinishedBody(game.created, ToAdjudication(game_id, judged, last_action));
  return EndingEvents(store, game_id, game.created, last_action, [&](int64_t number) {
    return EncodeGameFinished(game_id, number, body);
  });
}

// A retry of an append that may have ended the game (stored with the
// game's result after its actions, an event derived from the stored actions
// alone): asks the store again as the first request asked. The store's
// answer, or nullopt if that is not what was stored.
absl::StatusOr<std::optional<store::AppendResult>> AskAgainWithEnding(
    store::EventStore& store, const engine::RulesetRegistry& registry,
    const PendingAppend& pending, const LoadedGame& game, const CancelCheck& cancel) {
  ARBITER_ASSIGN_OR_RETURN(std::vector<store::NewEvent> finish,
                           EndingOfStoredActions(store, registry, game, pending.last_action, cancel));
  if (finish.empty()) return std::optional<store::AppendResult>();
  store::AppendRequest ending = pending.append;
  for (store::NewEvent& event : finish) {
    if (!pending.json) event.json.clear();
    ending.events.push_back(std::move(event));
  }
  absl::StatusOr<store::AppendResult> again = store.Append(ending);
  if (!again.ok()) return std::optional<store::AppendResult>();
  return std::optional<store::AppendResult>(*std::move(again));
}

// The answer to a retried append the store recognised (`result`), as the
// first time: the verdict and standings through its last action.
absl::StatusOr<v1::AppendActionsResponse> AnswerAgain(const engine::RulesetRegistry& registry,
                                                      const PendingAppend& pending,
                                                      const LoadedGame& game,
                                                      const store::AppendResult& result,
                                                      const CancelCheck& cancel) {
  std::string last_action_hash;
  if (pending.last_action >= 1 &&
      pending.last_action <= static_cast<int64_t>(game.stored.size())) {
    last_action_hash = game.stored[static_cast<size_t>(pending.last_action - 1)].hash;
  }
  v1::AppendActionsResponse out;
  out.set_status(ToStatus(game.record.status));
  if (game.seed.has_value()) {
    ARBITER_ASSIGN_OR_RETURN(const replay::Referee judged,
                             Judge(game, registry, pending.last_action, cancel));
    out.set_verdict(ToVerdict(judged.verdict()));
    if (judged.state().IsTerminal()) {
      out.set_status(v1::GAME_STATUS_FINISHED);
      if (std::optional<v1::Standings> standings = judged.Standings()) {
        *out.mutable_standings() = *std::move(standings);
      }
    } else {
      out.set_status(v1::GAME_STATUS_ACTIVE);
    }
  }
  return Answered(std::move(out), pending, result, last_action_hash);
}

// The refusal of an append that expected another last event and is not a
// retry (`refused`: the store's answer). A caller who saw every action of a
// game that is over (all but its result event) is told it is over;
// otherwise its view is stale: it should read the new events first.
absl::Status RefuseAppend(const PendingAppend& pending, const absl::Status& refused) {
  const int64_t expected = pending.append.expected_sequence;
  const store::GameRecord& record = pending.record;
  if (record.status != store::GameStatus::kActive && expected >= record.last_sequence - 1) {
    return AcceptsNoMoreActions(pending.game_id, record.status);
  }
  if (refused.code() == absl::StatusCode::kAborted ||
      refused.code() == absl::StatusCode::kFailedPrecondition) {
    return StaleExpectedEvent(expected, record.last_sequence);
  }
  return refused;
}

// An append whose expected_last_event is not the game's last event: either
// a retry of a request that was stored (the store answers it again, and so
// does this) or a stale view of the game (refused).
absl::StatusOr<v1::AppendActionsResponse> AnswerRetryOrRefuse(
    store::EventStore& store, const engine::RulesetRegistry& registry,
    const PendingAppend& pending, const CancelCheck& cancel) {
  absl::StatusOr<store::AppendResult> retried = store.Append(pending.append);
  std::optional<LoadedGame> game;
  if (!retried.ok() && absl::IsInvalidArgument(retried.status()) &&
      pending.record.status == store::GameStatus::kFinished &&
      pending.record.last_sequence > pending.last_action) {
    // The first request may have ended the game.
    ARBITER_ASSIGN_OR_RETURN(game, LoadGame(store, pending.game_id, cancel));
    ARBITER_ASSIGN_OR_RETURN(std::optional<store::AppendResult> again,
                             AskAgainWithEnding(store, registry, pending, *game, cancel));
    if (again.has_value()) retried = *std::move(again);
  }
  if (!retried.ok()) return RefuseAppend(pending, retried.status());
  if (!game.has_value()) {
    ARBITER_ASSIGN_OR_RETURN(game, LoadGame(store, pending.game_id, cancel));
  }
  return AnswerAgain(registry, pending, *game, *retried, cancel);
}

// OK if the game, at the request's expected event, takes `pending`'s
// actions: it is active and stays within the server's event limit.
absl::Status CheckAcceptsActions(const PendingAppend& pending, const WriteLimits& limits) {
  const store::GameRecord& record = pending.record;
  if (record.status != store::GameStatus::kActive) {
    return AcceptsNoMoreActions(pending.game_id, record.status);
  }
  if (record.last_sequence + pending.count > limits.max_events_per_game) {
    return TooManyEvents(record.last_sequence + pending.count, limits.max_events_per_game);
  }
  return absl::OkStatus();
}

// Brings the cached referee of a locked game up to the store's last event:
// judged through it when the seed is known, the header alone while it is
// hidden. DataLoss if the stored game cannot be replayed.
absl::Status Refresh(store::EventStore& store, const engine::RulesetRegistry& registry,
                     LiveGame& live, const store::GameRecord& record, const CancelCheck& cancel) {
  if (live.referee.has_value() && live.last_event == record.last_sequence) {
    return absl::OkStatus();
  }
  live.Forget();
  ARBITER_ASSIGN_OR_RETURN(const LoadedGame game, LoadGame(store, record, cancel));
  if (IsDealt(game.created) && !game.seed.has_value()) {
    return DealStillOpen(record.game_id, game.created, game.deal);
  }
  if (game.seed.has_value()) {
    ARBITER_ASSIGN_OR_RETURN(replay::Referee referee, Judge(game, registry, 0, cancel));
    live.referee.emplace(std::move(referee));
    live.seed_known = true;
  } else {
    absl::StatusOr<replay::Referee> referee = replay::Referee::Start(game.created.header(), registry);
    if (!referee.ok()) {
      return absl::DataLossError(absl::StrCat("the stored header of game \"", record.game_id,
                                              "\" does not start a game: ",
                                              referee.status().message()));
    }
    live.referee.emplace(*std::move(referee));
    live.seed_known = false;
  }
  live.last_event = game.record.last_sequence;
  live.created = game.created;
  return absl::OkStatus();
}

// Judges the request's actions in order with the cached referee (which
// moves on), or only checks their shape while the seed is hidden. The
// refusal names "actions[i]": InvalidArgument for a malformed action,
// ILLEGAL_ACTION for one that breaks a rule; the cancel check's status.
// The cache is forgotten once the referee has moved and the append fails.
absl::Status JudgeActions(LiveGame& live, const v1::AppendActionsRequest& request,
                          const CancelCheck& cancel) {
  replay::Referee& referee = *live.referee;
  for (int i = 0; i < request.actions_size(); ++i) {
    const int64_t event = request.expected_last_event() + 1 + i;
    const v1::Action& action = request.actions(i);
    if (!live.seed_known) {
      if (absl::Status s = CheckShape(referee, action, event); !s.ok()) {
        return common::WithFieldViolation(s, absl::StrCat("actions[", i, "]"),
                                          std::string(s.message()));
      }
      continue;
    }
    auto judged = referee.Apply(action, event);
    if (!judged.ok()) {
      live.Forget();
      return common::WithFieldViolation(judged.status(), absl::StrCat("actions[", i, "]"),
                                        std::string(judged.status().message()));
    }
    if (judged->has_value()) {
      live.Forget();
      return IllegalAction(**judged, event, action.player(), i);
    }
  }
  if (absl::Status s = cancel(); !s.ok()) {
    live.Forget();
    return s;
  }
  return absl::OkStatus();
}

// An append that ends the game carries the game's result as its last
// event (after a dealt game's reveal, dealer_reveal.h): the actions and the
// result are stored in one transaction (the
// store moves the game to finished with it), or neither is. Adds it when
// the judged actions end the game, and returns the chain's hash through the
// last action (which the answer names); empty if they do not end it.
absl::StatusOr<std::string> AddEndingEvent(store::EventStore& store, LiveGame& live,
                                           PendingAppend& pending) {
  const replay::Referee& referee = *live.referee;
  pending.ends = live.seed_known && referee.state().IsTerminal();
  if (!pending.ends) return std::string();
  const v1::GameFinished body =
      FinishedBody(live.created, ToAdjudication(pending.game_id, referee, pending.last_action));
  absl::StatusOr<std::vector<store::NewEvent>> ending =
      EndingEvents(store, pending.game_id, live.created, pending.last_action,
                   [&](int64_t number) { return EncodeGameFinished(pending.game_id, number, body); });
  if (!ending.ok()) {
    live.Forget();
    return ending.status();
  }
  for (store::NewEvent& event : *ending) {
    if (!pending.json) event.json.clear();
    pending.append.events.push_back(std::move(event));
  }
  std::string last_action_hash = pending.record.last_hash;
  for (int i = 0; i < pending.count; ++i) {
    const store::NewEvent& e = pending.append.events[static_cast<size_t>(i)];
    last_action_hash = store::EventHash(last_action_hash, pending.record.last_sequence + 1 + i,
                                        pending.game_id, e.event_id, e.type, e.payload);
  }
  return last_action_hash;
}

// Whether the store's answer to an append judged at the live game's cached
// head says that head was not the game's: the game moved on (Aborted), is
// over (FailedPrecondition), or the request was stored already (replayed).
bool HeadWasStale(const absl::StatusOr<store::AppendResult>& result) {
  if (result.ok()) return result->replayed;
  return result.status().code() == absl::StatusCode::kAborted ||
         result.status().code() == absl::StatusCode::kFailedPrecondition;
}

// Stores the judged append (what the store answered in `stored`) and
// answers it; nullopt, having forgotten the live game, if it was judged at
// the cached head (`at_known_head`) and the store says that head was stale
// (the caller reads the game and starts again). Aborted with
// STALE_EXPECTED_EVENT if another server wrote to the game since it was
// read; the store's other errors as they are.
absl::StatusOr<std::optional<v1::AppendActionsResponse>> StoreJudgedAppend(
    store::EventStore& store, LiveGame& live, const PendingAppend& pending,
    const std::string& last_action_hash, bool at_known_head, store::AppendResult& stored) {
  absl::StatusOr<store::AppendResult> result = store.Append(pending.append);
  if (at_known_head && HeadWasStale(result)) {
    live.Forget();
    return std::optional<v1::AppendActionsResponse>();
  }
  if (!result.ok()) {
    live.Forget();
    if (result.status().code() == absl::StatusCode::kAborted) {
      return common::WithErrorInfo(result.status(), "STALE_EXPECTED_EVENT");
    }
    return result.status();
  }
  stored = *result;
  live.last_event = result->last_sequence;
  live.head.reset();
  v1::AppendActionsResponse out;
  out.set_status(v1::GAME_STATUS_ACTIVE);
  if (live.seed_known) {
    const replay::Referee& referee = *live.referee;
    out.set_verdict(ToVerdict(referee.verdict()));
    if (pending.ends) {
      // The cached referee is one event behind the store (the result): the
      // next call that refreshes it reloads the game.
      live.last_event = pending.last_action;
      out.set_status(v1::GAME_STATUS_FINISHED);
      if (std::optional<v1::Standings> standings = referee.Standings()) {
        *out.mutable_standings() = *std::move(standings);
      }
    }
  }
  if (!pending.ends && !result->replayed) {
    live.head = pending.record;
    live.head->last_sequence = result->last_sequence;
    live.head->last_hash = result->last_hash;
  }
  return std::optional<v1::AppendActionsResponse>(
      Answered(std::move(out), pending, *result, last_action_hash));
}

// The live game's cached head, if it is the one `request` expects and the
// cached referee has judged through it: the game as the last append this
// server stored left it.
std::optional<store::GameRecord> KnownHead(const LiveGame& live,
                                           const v1::AppendActionsRequest& request) {
  if (!live.head.has_value() || !live.referee.has_value() ||
      live.last_event != live.head->last_sequence ||
      live.head->last_sequence != request.expected_last_event()) {
    return std::nullopt;
  }
  return live.head;
}

// OK if every action of `request` is for a seat the player token `caller`
// holds in `record`; PERMISSION_DENIED naming the seat otherwise.
absl::Status RequireOwnSeats(const access::Caller& caller, const store::GameRecord& record,
                             const v1::AppendActionsRequest& request) {
  for (int i = 0; i < request.actions_size(); ++i) {
    ARBITER_RETURN_IF_ERROR(access::RequireOwnSeat(caller, record, request.actions(i).player(), i));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<store::GameRecord> GameWriter::Appendable(const access::Caller& caller,
                                                          const std::string& game_id,
                                                          const v1::AppendActionsRequest& request) {
  if (caller.role != store::Role::kPlayer) return Writable(caller, game_id);
  // Permission before existence, as Writable; a token that cannot play in
  // the game is denied without a read (nor a confirmed one: no commit).
  if (!access::MayPlayIn(caller, game_id)) {
    return access::RequirePlayerWrite(caller, game_id, nullptr);
  }
  absl::StatusOr<store::GameRecord> record = ConfirmedChainedRecord(store_, game_id);
  if (!record.ok() && !absl::IsNotFound(record.status())) return record.status();
  ARBITER_RETURN_IF_ERROR(
      access::RequirePlayerWrite(caller, game_id, record.ok() ? &*record : nullptr));
  ARBITER_RETURN_IF_ERROR(RequireOwnSeats(caller, *record, request));
  return record;
}

absl::Status GameWriter::AppendAllowed(const access::Caller& caller, const store::GameRecord& record,
                                       const v1::AppendActionsRequest& request) {
  if (caller.role != store::Role::kPlayer) {
    ARBITER_RETURN_IF_ERROR(access::RequireWriteRole(caller));
    if (caller.role == store::Role::kAdmin || access::InScope(caller, record)) {
      return absl::OkStatus();
    }
    return access::RequireWrite(caller, record, record.creator_token_id);
  }
  ARBITER_RETURN_IF_ERROR(access::RequirePlayerWrite(caller, record.game_id, &record));
  return RequireOwnSeats(caller, record, request);
}

absl::StatusOr<v1::AppendActionsResponse> GameWriter::Append(
    const access::Caller& caller, const v1::AppendActionsRequest& request, const CancelCheck& cancel) {
  ARBITER_ASSIGN_OR_RETURN(std::string game_id, CheckAppendRequest(request));
  LiveGames::Locked live = live_.Lock(game_id);
  if (std::optional<store::GameRecord> head = KnownHead(*live, request)) {
    // This server stored the game's last event: the permission checks read
    // the head it kept, with the same immutable fields a read would give.
    ARBITER_RETURN_IF_ERROR(AppendAllowed(caller, *head, request));
    ARBITER_ASSIGN_OR_RETURN(std::optional<v1::AppendActionsResponse> out,
                             AppendAtHead(caller, request, cancel, *live, *std::move(head), true));
    if (out.has_value()) return *std::move(out);
    // The game moved on elsewhere: read it, as any other append does.
  }
  ARBITER_ASSIGN_OR_RETURN(store::GameRecord record, Appendable(caller, game_id, request));
  ARBITER_ASSIGN_OR_RETURN(std::optional<v1::AppendActionsResponse> out,
                           AppendAtHead(caller, request, cancel, *live, std::move(record), false));
  if (!out.has_value()) return absl::InternalError("an append read from the store was called stale");
  return *std::move(out);
}

absl::StatusOr<std::optional<v1::AppendActionsResponse>> GameWriter::AppendAtHead(
    const access::Caller& caller, const v1::AppendActionsRequest& request, const CancelCheck& cancel,
    LiveGame& live, store::GameRecord record, bool at_known_head) {
  std::string game_id = record.game_id;
  ARBITER_ASSIGN_OR_RETURN(
      PendingAppend pending,
      ActionsToStore(caller, request, std::move(game_id), std::move(record), limits_));
  if (request.expected_last_event() != pending.record.last_sequence) {
    return AnswerRetryOrRefuse(store_, registry_, pending, cancel);
  }
  ARBITER_RETURN_IF_ERROR(CheckAcceptsActions(pending, limits_));
  ARBITER_RETURN_IF_ERROR(Refresh(store_, registry_, live, pending.record, cancel));
  if (live.seed_known && live.referee->state().IsTerminal()) {
    // A previous append ended the game but could not record its end.
    ARBITER_RETURN_IF_ERROR(RecordFinished(
        pending.game_id, live.created,
        ToAdjudication(pending.game_id, *live.referee, live.last_event), live.last_event));
    return absl::FailedPreconditionError(
        absl::StrCat("game \"", pending.game_id, "\" is over and accepts no more actions"));
  }
  ARBITER_RETURN_IF_ERROR(JudgeActions(live, request, cancel));
  ARBITER_ASSIGN_OR_RETURN(const std::string last_action_hash,
                           AddEndingEvent(store_, live, pending));
  const JudgementCache::ReadTicket ticket =
      judgements_ != nullptr ? judgements_->BeginRead() : JudgementCache::ReadTicket{};
  store::AppendResult stored;
  ARBITER_ASSIGN_OR_RETURN(std::optional<v1::AppendActionsResponse> out,
                           StoreJudgedAppend(store_, live, pending, last_action_hash,
                                             at_known_head, stored));
  if (out.has_value() && !pending.ends) RememberJudgement(pending.record, live, stored, ticket);
  return out;
}

void GameWriter::RememberJudgement(const store::GameRecord& before, const LiveGame& live,
                                   const store::AppendResult& stored,
                                   const JudgementCache::ReadTicket& ticket) {
  if (judgements_ == nullptr || stored.replayed || !live.seed_known || !live.referee.has_value() ||
      live.last_event != stored.last_sequence) {
    return;
  }
  JudgementCache::Judgement judged;
  judged.chained = before;
  judged.chained.last_sequence = stored.last_sequence;
  judged.chained.last_hash = stored.last_hash;
  // As AdjudicateGame would answer after reading the game again: the last
  // event is an action, so the referee's result is the official one.
  judged.adjudication = ToAdjudication(before.game_id, *live.referee, stored.last_sequence);
  judged.adjudication.set_last_event_hash(stored.last_hash);
  judged.adjudication.mutable_official()->set_source(v1::RESULT_SOURCE_REFEREE);
  judged.referee = std::make_shared<const replay::Referee>(live.referee->Copy());
  judgements_->Store(before.game_id, stored.last_hash, stored.last_position, ticket, judged);
}

absl::Status GameWriter::RecordFinished(const std::string& game_id,
                                        const v1::GameCreated& created,
                                        const v1::Adjudication& judged, int64_t last_sequence) {
  const v1::GameFinished body = FinishedBody(created, judged);
  store::AppendRequest append = AppendTo(game_id, last_sequence, "finish", kRefereePrincipal, "");
  ARBITER_ASSIGN_OR_RETURN(append.events,
                           EndingEvents(store_, game_id, created, last_sequence, [&](int64_t number) {
                             return EncodeGameFinished(game_id, number, body);
                           }));
  absl::StatusOr<store::AppendResult> result = store_.Append(append);
  if (result.ok()) return absl::OkStatus();
  absl::StatusOr<store::GameRecord> record = store_.GetGame(game_id);
  if (record.ok() && record->status == store::GameStatus::kFinished) return absl::OkStatus();
  return result.status();
}

}  // namespace arbiter::games
