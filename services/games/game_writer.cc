#include "services/games/game_writer.h"

#include "services/common/resource_names.h"
#include "services/common/proto_time.h"

#include <openssl/rand.h>

#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/core/seed_derivation.h"
#include "engine/core/sha256.h"
#include "services/store/event_hash.h"
#include "services/log/log_file.h"
#include "services/games/chained_game.h"
#include "services/games/game_events.h"
#include "services/common/status_details.h"
#include "absl/strings/str_join.h"

namespace arbiter::games {
namespace {

constexpr char kGameField[] = "game";
constexpr absl::Duration kDefaultRevealWithin = absl::Hours(7 * 24);
constexpr absl::Duration kMaxRevealWithin = absl::Hours(366 * 24);

using google::protobuf::util::TimeUtil;

// The sealed part of event 1: the server's random bytes, drawn now that the
// commitment is in hand, and the reveal deadline.
absl::Status Seal(const v1::CreateGameRequest& request, v1::GameCreated& created) {
  absl::Duration within = kDefaultRevealWithin;
  if (request.has_reveal_within()) {
    within = common::DurationOf(request.reveal_within());
    if (within <= absl::ZeroDuration() || within > kMaxRevealWithin) {
      return common::FieldError("reveal_within",
                        absl::StrCat("reveal_within must be more than 0 and at most 366 days, not ",
                                     absl::FormatDuration(within)));
    }
  }
  std::string random(engine::kServerRandomBytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(random.data()), engine::kServerRandomBytes) !=
      1) {
    return absl::InternalError("the server could not draw random bytes for the sealed seed");
  }
  created.set_server_random(random);
  *created.mutable_reveal_deadline() = common::PreciseTimestampOf(absl::Now() + within);
  return absl::OkStatus();
}

// True if `stored` is the event 1 a request that prepared `created` wrote
// (a retry of a sealed creation: all but the server's draw and the deadline
// agree).
bool SameSealedCreation(v1::GameCreated stored, v1::GameCreated created) {
  for (v1::GameCreated* one : {&stored, &created}) {
    one->clear_server_random();
    one->clear_reveal_deadline();
  }
  std::string a;
  std::string b;
  stored.SerializeToString(&a);
  created.SerializeToString(&b);
  return !created.seed_commitment().empty() && a == b;
}

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
  return common::FieldError(field, absl::StrCat(field, " must be 1-100 characters of A-Z a-z 0-9 _ . @ -"));
}

// A referee's header error ("line 1: ...") reworded for a request field.
absl::Status HeaderError(const absl::Status& status, const std::string& field, bool keep_line) {
  std::string message(status.message());
  if (!keep_line && absl::StartsWith(message, "line 1: ")) message = message.substr(8);
  return common::WithFieldViolation(absl::Status(status.code(), message), field, message);
}

// The checks Referee::Apply makes before judging, for games whose seed is
// hidden: the player is in the game, the action is of this game, and its
// fields lie in their domains.
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

absl::Status Stale(int64_t expected, int64_t current) {
  return common::WithErrorInfo(absl::AbortedError(absl::StrCat(
                           "expected_last_event is ", expected, " but the game is at event ",
                           current, "; read the new events and decide again")),
                       "STALE_EXPECTED_EVENT",
                       {{"expected_last_event", absl::StrCat(expected)},
                        {"last_event", absl::StrCat(current)}});
}

}  // namespace

absl::Status GameWriter::RecordFinished(const std::string& game_id,
                                        const v1::GameCreated& created,
                                        const v1::Adjudication& judged, int64_t last_sequence) {
  absl::StatusOr<store::NewEvent> event =
      EncodeGameFinished(game_id, last_sequence + 1, FinishedBody(created, judged));
  if (!event.ok()) return event.status();
  store::AppendRequest append;
  append.game_id = game_id;
  append.expected_sequence = last_sequence;
  append.request_id = StoreRequestId("finish", game_id, kRefereePrincipal, "");
  append.recorded_by = kRefereePrincipal;
  append.events.push_back(*std::move(event));
  absl::StatusOr<store::AppendResult> result = store_.Append(append);
  if (result.ok()) return absl::OkStatus();
  absl::StatusOr<store::GameRecord> record = store_.GetGame(game_id);
  if (record.ok() && record->status == store::GameStatus::kFinished) return absl::OkStatus();
  return result.status();
}

absl::StatusOr<int64_t> GameWriter::RecordCorrection(const access::Caller& caller,
                                                     const std::string& game_id,
                                                     const v1::Standings& standings,
                                                     const std::string& correction,
                                                     const std::string& request_id) {
  LiveGames::Locked live = live_.Lock(game_id);
  absl::StatusOr<store::GameRecord> record = Writable(caller, game_id);
  if (!record.ok()) return record.status();
  store::AppendRequest append;
  append.game_id = game_id;
  append.request_id = StoreRequestId("correct", game_id, caller.principal, request_id);
  append.recorded_by = caller.principal;
  absl::StatusOr<std::vector<store::StoredEvent>> first = store_.ReadGameEvents(game_id, 0, 1);
  if (!first.ok()) return first.status();
  v1::GameCreated created;
  if (first->empty() || !created.ParseFromString(first->front().payload)) {
    return absl::DataLossError(absl::StrCat("game \"", game_id, "\" has no readable event 1"));
  }
  v1::Adjudication judged;
  judged.set_verdict(v1::VERDICT_LEGAL);
  *judged.mutable_standings() = standings;
  v1::GameFinished finished = FinishedBody(created, judged);
  finished.set_correction(correction);
  // A retry finds its event stored: the store answers it again whatever the
  // game's last sequence now is, so ask for the one it was written after.
  append.expected_sequence = record->last_sequence;
  for (int attempt = 0; attempt < 2; ++attempt) {
    absl::StatusOr<store::NewEvent> event =
        EncodeGameFinished(game_id, append.expected_sequence + 1, finished);
    if (!event.ok()) return event.status();
    append.events.assign(1, *std::move(event));
    absl::StatusOr<store::AppendResult> result = store_.Append(append);
    if (result.ok()) {
      live->Forget();
      return result->last_sequence;
    }
    if (!absl::IsInvalidArgument(result.status()) || record->last_sequence < 2) {
      return result.status();
    }
    // The same request id with other content: written before, after what
    // was then the game's last event.
    append.expected_sequence = record->last_sequence - 1;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "request id \"", request_id, "\" was already used for a different correction"));
}

absl::StatusOr<store::GameRecord> GameWriter::Writable(const access::Caller& caller,
                                                        const std::string& game_id) {
  // Permission before existence (AIP-211): a caller who could not write to
  // the game gets the same answer whether or not it exists.
  if (absl::Status s = access::RequireWriteRole(caller); !s.ok()) return s;
  absl::StatusOr<store::GameRecord> record = ChainedRecord(store_, game_id);
  if (!record.ok()) {
    if (absl::IsNotFound(record.status()) && caller.role != store::Role::kAdmin) {
      return access::WriteDenied(caller, game_id);
    }
    return record.status();
  }
  if (caller.role == store::Role::kAdmin || access::InScope(caller, *record)) return record;
  absl::StatusOr<std::string> creator = CreatorTokenOf(store_, game_id);
  if (!creator.ok()) return creator.status();
  if (absl::Status s = access::RequireWrite(caller, *record, *creator); !s.ok()) return s;
  return record;
}

absl::StatusOr<v1::Game> GameWriter::Void(const access::Caller& caller, const v1::VoidGameRequest& request) {
  absl::StatusOr<std::string> game_id = common::ParseName(common::IdKind::kGame, request.name(), "name");
  if (!game_id.ok()) return common::WithFieldViolation(game_id.status(), "name", "not a game name");
  if (absl::Status s = CheckRequestId(request.request_id()); !s.ok()) return s;
  if (request.reason().empty() || request.reason().size() > 1000) {
    return common::FieldError("reason", "reason is required: 1-1000 bytes saying why the game is voided");
  }
  LiveGames::Locked live = live_.Lock(*game_id);
  absl::StatusOr<store::GameRecord> record = Writable(caller, *game_id);
  if (!record.ok()) return record.status();
  v1::GameVoided voided;
  voided.set_reason(request.reason());
  voided.set_league(record->league_id);
  voided.set_tournament(record->tournament_id);
  store::AppendRequest append;
  append.game_id = *game_id;
  append.request_id = StoreRequestId("void", *game_id, caller.principal, request.request_id());
  append.recorded_by = caller.principal;
  absl::StatusOr<store::NewEvent> event =
      EncodeGameVoided(*game_id, record->last_sequence + 1, voided);
  if (!event.ok()) return event.status();
  append.expected_sequence = record->last_sequence;
  append.events.push_back(*std::move(event));
  live->Forget();
  absl::StatusOr<store::AppendResult> result = store_.Append(append);
  if (!result.ok() && record->status == store::GameStatus::kVoided) {
    // Perhaps a retry: the void is the game's last event.
    append.expected_sequence = record->last_sequence - 1;
    absl::StatusOr<store::NewEvent> again =
        EncodeGameVoided(*game_id, record->last_sequence, voided);
    if (!again.ok()) return again.status();
    append.events[0] = *std::move(again);
    result = store_.Append(append);
    if (!result.ok()) {
      return absl::FailedPreconditionError(
          absl::StrCat("game \"", *game_id, "\" is already voided"));
    }
  }
  if (!result.ok()) return result.status();
  absl::StatusOr<LoadedGame> game = LoadGame(store_, *game_id, [] { return absl::OkStatus(); });
  if (!game.ok()) return game.status();
  return ToGame(game->record, &game->created, access::SeesSeed(caller, game->record));
}

absl::StatusOr<v1::Game> GameWriter::Create(const access::Caller& caller,
                                            const v1::CreateGameRequest& request) {
  absl::StatusOr<PreparedGame> prepared = PrepareCreate(caller, request, nullptr);
  if (!prepared.ok()) return prepared.status();
  absl::StatusOr<store::GameRecord> stored = store_.CreateGame(prepared->create);
  if (!stored.ok() && IsSealed(prepared->created) &&
      (absl::IsInvalidArgument(stored.status()) || absl::IsAlreadyExists(stored.status()))) {
    // A retry draws other server bytes: the game it created is recognised
    // by its event 1, and answered again.
    const std::string& game_id = prepared->create.game.game_id;
    absl::StatusOr<std::vector<store::StoredEvent>> first = store_.ReadGameEvents(game_id, 0, 1);
    v1::GameCreated earlier;
    if (first.ok() && !first->empty() && first->front().recorded_by == caller.principal &&
        earlier.ParseFromString(first->front().payload) &&
        SameSealedCreation(earlier, prepared->created)) {
      absl::StatusOr<store::GameRecord> record = ChainedRecord(store_, game_id);
      if (!record.ok()) return record.status();
      return ToGame(*record, &earlier, true);
    }
  }
  if (!stored.ok()) return stored.status();
  return ToGame(*stored, &prepared->created, true);
}

std::vector<absl::StatusOr<v1::Game>> GameWriter::CreateMany(
    const access::Caller& caller, const std::vector<v1::CreateGameRequest>& requests) {
  std::vector<absl::StatusOr<v1::Game>> out;
  out.reserve(requests.size());
  std::vector<PreparedGame> prepared;
  std::vector<size_t> index;  // prepared[i] answers requests[index[i]]
  std::set<std::pair<std::string, std::string>> leagues_checked;
  for (size_t i = 0; i < requests.size(); ++i) {
    absl::StatusOr<PreparedGame> one = PrepareCreate(caller, requests[i], &leagues_checked);
    if (!one.ok()) {
      out.push_back(one.status());
      continue;
    }
    out.push_back(absl::UnknownError("not written"));
    prepared.push_back(*std::move(one));
    index.push_back(i);
  }
  std::vector<store::CreateGameRequest> creates;
  creates.reserve(prepared.size());
  for (PreparedGame& one : prepared) creates.push_back(std::move(one.create));
  std::vector<absl::StatusOr<store::GameRecord>> stored = store_.CreateGames(creates);
  for (size_t i = 0; i < prepared.size(); ++i) {
    if (!stored[i].ok()) {
      out[index[i]] = stored[i].status();
    } else {
      out[index[i]] = ToGame(*stored[i], &prepared[i].created, true);
    }
  }
  return out;
}

absl::StatusOr<GameWriter::PreparedGame> GameWriter::PrepareCreate(
    const access::Caller& caller, const v1::CreateGameRequest& request,
    std::set<std::pair<std::string, std::string>>* leagues_checked) {
  if (absl::Status s = CheckRequestId(request.request_id()); !s.ok()) return s;
  const std::string game_id = request.game_id().empty()
                                  ? DerivedGameId(caller.principal, request.request_id())
                                  : request.game_id();
  if (!common::IsValidId(common::IdKind::kGame, game_id)) {
    return common::FieldError("game_id", "game_id must be 1-63 characters of A-Z a-z 0-9 _ . -");
  }
  const v1::Game& game = request.game();
  if (absl::Status s = CheckScopeId(game.league(), "game.league"); !s.ok()) return s;
  if (absl::Status s = CheckScopeId(game.tournament(), "game.tournament"); !s.ok()) return s;
  if (absl::Status s = access::RequireCreate(caller, game.league(), game.tournament()); !s.ok()) return s;
  if (leagues_checked == nullptr ||
      !leagues_checked->contains({game.league(), game.game_type()})) {
    if (absl::Status s = CheckLeague(game.league(), game.game_type(), "game.league"); !s.ok()) {
      return s;
    }
    if (leagues_checked != nullptr) leagues_checked->insert({game.league(), game.game_type()});
  }

  PreparedGame prepared;
  v1::GameCreated& created = prepared.created;
  v1::LogHeader& header = *created.mutable_header();
  header.set_game(game.game_type());
  header.set_ruleset_id(game.ruleset_id());
  header.set_ruleset_hash(game.ruleset_hash());
  if (engine::FindGame(game.game_type()) != nullptr) {
    const engine::RegisteredRuleset* ruleset = nullptr;
    if (game.ruleset_id().empty() && game.ruleset_hash().empty()) {
      ruleset = registry_.DefaultFor(game.game_type());
    } else if (game.ruleset_hash().empty()) {
      ruleset = registry_.FindById(game.ruleset_id());
    }
    if (ruleset != nullptr) {
      header.set_ruleset_id(ruleset->ruleset.id());
      header.set_ruleset_hash(ruleset->hash);
    }
  }
  *header.mutable_players() = game.players();
  header.mutable_options()->insert(game.options().begin(), game.options().end());
  switch (game.seed_source_case()) {
    case v1::Game::kSeed:
      header.set_seed(game.seed());
      break;
    case v1::Game::kSeedCommitment:
      if (!engine::IsSha256Hex(game.seed_commitment())) {
        return common::FieldError("game.seed_commitment",
                          "seed_commitment must be a SHA-256 as 64 lowercase hex digits");
      }
      if (request.game_id().empty()) {
        return common::FieldError("game_id",
                          "a game created with a seed_commitment is sealed: give its game_id, "
                          "to which the commitment is bound (SHA-256 of "
                          "\"arbiter-seed-v2:<game_id>:<seed>:<nonce>\")");
      }
      created.set_seed_commitment(game.seed_commitment());
      if (absl::Status s = Seal(request, created); !s.ok()) return s;
      break;
    case v1::Game::SEED_SOURCE_NOT_SET:
      return common::FieldError("game.seed", "give the game's seed or a seed_commitment to it");
  }
  if (request.has_reveal_within() && !game.has_seed_commitment()) {
    return common::FieldError("reveal_within",
                      "reveal_within applies only to games created with a seed_commitment");
  }
  auto referee = replay::Referee::Start(header, registry_);
  if (!referee.ok()) return HeaderError(referee.status(), kGameField, false);
  created.set_league(game.league());
  created.set_tournament(game.tournament());
  created.set_creator_token_id(caller.token_id);
  absl::StatusOr<store::NewEvent> event = EncodeCreated(game_id, created);
  if (!event.ok()) return event.status();

  store::CreateGameRequest& create = prepared.create;
  create.request_id = StoreRequestId("create", game_id, caller.principal, request.request_id());
  store::GameRecord& record = create.game;
  record.game_id = game_id;
  record.game = header.game();
  record.ruleset_id = header.ruleset_id();
  record.ruleset_hash = header.ruleset_hash();
  if (game.has_seed()) {
    record.seed = game.seed();
  } else {
    record.seed_commitment = game.seed_commitment();
  }
  for (const v1::Player& player : header.players()) record.players.push_back(player.id());
  record.created_by = caller.principal;
  record.league_id = game.league();
  record.tournament_id = game.tournament();
  create.events.push_back(*std::move(event));
  return prepared;
}

absl::Status GameWriter::Refresh(LiveGame& live, const store::GameRecord& record,
                                 const CancelCheck& cancel) {
  if (live.referee.has_value() && live.last_event == record.last_sequence) {
    return absl::OkStatus();
  }
  live.Forget();
  absl::StatusOr<LoadedGame> game = LoadGame(store_, record, cancel);
  if (!game.ok()) return game.status();
  if (game->seed.has_value()) {
    absl::StatusOr<replay::Referee> referee = Judge(*game, registry_, 0, cancel);
    if (!referee.ok()) return referee.status();
    live.referee.emplace(*std::move(referee));
    live.seed_known = true;
  } else {
    auto referee = replay::Referee::Start(game->created.header(), registry_);
    if (!referee.ok()) {
      return absl::DataLossError(absl::StrCat("the stored header of game \"", record.game_id,
                                              "\" does not start a game: ",
                                              referee.status().message()));
    }
    live.referee.emplace(*std::move(referee));
    live.seed_known = false;
  }
  live.last_event = game->record.last_sequence;
  live.created = game->created;
  return absl::OkStatus();
}

absl::StatusOr<v1::AppendActionsResponse> GameWriter::Append(
    const access::Caller& caller, const v1::AppendActionsRequest& request, const CancelCheck& cancel) {
  absl::StatusOr<std::string> game_id = common::ParseName(common::IdKind::kGame, request.game(), "game");
  if (!game_id.ok()) return common::WithFieldViolation(game_id.status(), "game", "not a game name");
  if (absl::Status s = CheckRequestId(request.request_id()); !s.ok()) return s;
  if (request.expected_last_event() < 1) {
    return common::FieldError("expected_last_event",
                      "expected_last_event is required: the number of the last event you have "
                      "seen (1 for a game without actions)");
  }
  const int count = request.actions_size();
  if (count < 1 || count > store::kMaxEventsPerAppend) {
    return common::FieldError("actions", absl::StrCat("give 1-", store::kMaxEventsPerAppend,
                                              " actions, not ", count));
  }

  LiveGames::Locked live = live_.Lock(*game_id);
  absl::StatusOr<store::GameRecord> record = Writable(caller, *game_id);
  if (!record.ok()) return record.status();

  store::AppendRequest append;
  append.game_id = *game_id;
  append.expected_sequence = request.expected_last_event();
  append.request_id = StoreRequestId("append", *game_id, caller.principal, request.request_id());
  append.recorded_by = caller.principal;
  for (int i = 0; i < count; ++i) {
    absl::StatusOr<store::NewEvent> event =
        EncodeAction(*game_id, request.expected_last_event() + 1 + i, request.actions(i));
    if (!event.ok()) {
      return common::WithFieldViolation(event.status(), absl::StrCat("actions[", i, "]"), "too large");
    }
    append.events.push_back(*std::move(event));
  }

  // Without JSON copies for tournament tables, none in this request (the
  // same for its retries: the copy is part of the request the store keeps).
  const bool json = limits_.json_copy_for_tournament_games || record->tournament_id.empty();
  if (!json) {
    for (store::NewEvent& event : append.events) event.json.clear();
  }

  v1::AppendActionsResponse out;
  // The answer names the request's actions; an append that ends the game
  // stores its "game_finished" event after them in the same batch.
  const int64_t last_action = request.expected_last_event() + count;
  auto answer = [&](const store::AppendResult& result,
                    const std::string& last_action_hash) -> v1::AppendActionsResponse {
    out.set_first_event(result.first_sequence);
    out.set_last_event(last_action);
    out.set_last_event_hash(result.last_sequence == last_action ? result.last_hash
                                                                : last_action_hash);
    return out;
  };

  if (request.expected_last_event() != record->last_sequence) {
    // Either a retry of a request that was stored (the store answers it
    // again) or a stale view of the game (the store refuses it).
    absl::StatusOr<store::AppendResult> retried = store_.Append(append);
    std::optional<LoadedGame> game;
    if (!retried.ok() && absl::IsInvalidArgument(retried.status()) &&
        record->status == store::GameStatus::kFinished && record->last_sequence > last_action) {
      // The first request may have ended the game: it was stored with the
      // game's result after its actions, an event derived from the stored
      // actions alone. Ask again as the first request asked.
      absl::StatusOr<LoadedGame> loaded = LoadGame(store_, *game_id, cancel);
      if (!loaded.ok()) return loaded.status();
      game = *std::move(loaded);
      absl::StatusOr<std::optional<store::NewEvent>> finish =
          EndingEvent(*game_id, *game, last_action, cancel);
      if (!finish.ok()) return finish.status();
      if (finish->has_value()) {
        store::AppendRequest ending = append;
        if (!json) (*finish)->json.clear();
        ending.events.push_back(**std::move(finish));
        absl::StatusOr<store::AppendResult> again = store_.Append(ending);
        if (again.ok()) retried = again;
      }
    }
    if (retried.ok()) {
      // Answer as the first time: the verdict and standings through the
      // retried request's last action.
      if (!game.has_value()) {
        absl::StatusOr<LoadedGame> loaded = LoadGame(store_, *game_id, cancel);
        if (!loaded.ok()) return loaded.status();
        game = *std::move(loaded);
      }
      std::string last_action_hash;
      if (last_action >= 1 && last_action <= static_cast<int64_t>(game->stored.size())) {
        last_action_hash = game->stored[static_cast<size_t>(last_action - 1)].hash;
      }
      out.set_status(ToStatus(game->record.status));
      if (game->seed.has_value()) {
        absl::StatusOr<replay::Referee> judged = Judge(*game, registry_, last_action, cancel);
        if (!judged.ok()) return judged.status();
        out.set_verdict(ToVerdict(judged->verdict()));
        if (judged->state().IsTerminal()) {
          out.set_status(v1::GAME_STATUS_FINISHED);
          if (std::optional<v1::Standings> standings = judged->Standings()) {
            *out.mutable_standings() = *std::move(standings);
          }
        } else {
          out.set_status(v1::GAME_STATUS_ACTIVE);
        }
      }
      return answer(*retried, last_action_hash);
    }
    // Not a retry. A caller who saw every action of a game that is over
    // (all but its result event) is told it is over; otherwise its view is
    // stale: it should read the new events first.
    if (record->status != store::GameStatus::kActive &&
        request.expected_last_event() >= record->last_sequence - 1) {
      return absl::FailedPreconditionError(absl::StrCat("game \"", *game_id, "\" is ",
                                                        store::GameStatusName(record->status),
                                                        " and accepts no more actions"));
    }
    if (retried.status().code() == absl::StatusCode::kAborted ||
        retried.status().code() == absl::StatusCode::kFailedPrecondition) {
      return Stale(request.expected_last_event(), record->last_sequence);
    }
    return retried.status();
  }
  if (record->status != store::GameStatus::kActive) {
    return absl::FailedPreconditionError(absl::StrCat("game \"", *game_id, "\" is ",
                                                      store::GameStatusName(record->status),
                                                      " and accepts no more actions"));
  }
  if (record->last_sequence + count > limits_.max_events_per_game) {
    return TooManyEvents(record->last_sequence + count, limits_.max_events_per_game);
  }

  if (absl::Status s = Refresh(*live, *record, cancel); !s.ok()) return s;
  replay::Referee& referee = *live->referee;
  if (live->seed_known && referee.state().IsTerminal()) {
    // A previous append ended the game but could not record its end.
    if (absl::Status s = RecordFinished(*game_id, live->created,
                                        ToAdjudication(*game_id, referee, live->last_event),
                                        live->last_event);
        !s.ok()) {
      return s;
    }
    return absl::FailedPreconditionError(
        absl::StrCat("game \"", *game_id, "\" is over and accepts no more actions"));
  }
  for (int i = 0; i < count; ++i) {
    const int64_t event = request.expected_last_event() + 1 + i;
    const v1::Action& action = request.actions(i);
    if (!live->seed_known) {
      if (absl::Status s = CheckShape(referee, action, event); !s.ok()) {
        return common::WithFieldViolation(s, absl::StrCat("actions[", i, "]"), std::string(s.message()));
      }
      continue;
    }
    auto judged = referee.Apply(action, event);
    if (!judged.ok()) {
      live->Forget();
      return common::WithFieldViolation(judged.status(), absl::StrCat("actions[", i, "]"),
                                std::string(judged.status().message()));
    }
    if (judged->has_value()) {
      live->Forget();
      return IllegalAction(**judged, event, action.player(), i);
    }
  }
  if (absl::Status s = cancel(); !s.ok()) {
    live->Forget();
    return s;
  }
  // An append that ends the game carries the game's result as its last
  // event: the actions and the result are stored in one transaction (the
  // store moves the game to finished with it), or neither is.
  const bool ends = live->seed_known && referee.state().IsTerminal();
  std::string last_action_hash;
  if (ends) {
    absl::StatusOr<store::NewEvent> finished = EncodeGameFinished(
        *game_id, last_action + 1,
        FinishedBody(live->created, ToAdjudication(*game_id, referee, last_action)));
    if (!finished.ok()) {
      live->Forget();
      return finished.status();
    }
    if (!json) finished->json.clear();
    append.events.push_back(*std::move(finished));
    // The answer names the last action; its hash is the chain through it.
    last_action_hash = record->last_hash;
    for (int i = 0; i < count; ++i) {
      const store::NewEvent& e = append.events[static_cast<size_t>(i)];
      last_action_hash = store::EventHash(last_action_hash, record->last_sequence + 1 + i,
                                          *game_id, e.event_id, e.type, e.payload);
    }
  }
  absl::StatusOr<store::AppendResult> result = store_.Append(append);
  if (!result.ok()) {
    live->Forget();
    if (result.status().code() == absl::StatusCode::kAborted) {
      // Another server wrote to the game since it was read.
      return common::WithErrorInfo(result.status(), "STALE_EXPECTED_EVENT");
    }
    return result.status();
  }
  live->last_event = result->last_sequence;
  out.set_status(v1::GAME_STATUS_ACTIVE);
  if (live->seed_known) {
    out.set_verdict(ToVerdict(referee.verdict()));
    if (ends) {
      // The cached referee is one event behind the store (the result): the
      // next call that refreshes it reloads the game.
      live->last_event = last_action;
      out.set_status(v1::GAME_STATUS_FINISHED);
      if (std::optional<v1::Standings> standings = referee.Standings()) {
        *out.mutable_standings() = *std::move(standings);
      }
    }
  }
  return answer(*result, last_action_hash);
}

absl::StatusOr<std::optional<store::NewEvent>> GameWriter::EndingEvent(
    const std::string& game_id, const LoadedGame& game, int64_t last_action,
    const CancelCheck& cancel) {
  if (!game.seed.has_value()) return std::optional<store::NewEvent>();
  absl::StatusOr<replay::Referee> judged = Judge(game, registry_, last_action, cancel);
  if (!judged.ok()) return judged.status();
  if (!judged->state().IsTerminal() || judged->actions_applied() == 0) {
    return std::optional<store::NewEvent>();
  }
  absl::StatusOr<store::NewEvent> finished = EncodeGameFinished(
      game_id, last_action + 1,
      FinishedBody(game.created, ToAdjudication(game_id, *judged, last_action)));
  if (!finished.ok()) return finished.status();
  return std::optional<store::NewEvent>(*std::move(finished));
}

absl::StatusOr<v1::SubmitGameResponse> GameWriter::Submit(const access::Caller& caller,
                                                          const v1::SubmitGameRequest& request,
                                                          const CancelCheck& cancel) {
  if (absl::Status s = CheckRequestId(request.request_id()); !s.ok()) return s;
  const std::string game_id = request.game_id().empty()
                                  ? DerivedGameId(caller.principal, request.request_id())
                                  : request.game_id();
  if (!common::IsValidId(common::IdKind::kGame, game_id)) {
    return common::FieldError("game_id", "game_id must be 1-63 characters of A-Z a-z 0-9 _ . -");
  }
  if (absl::Status s = CheckScopeId(request.league(), "league"); !s.ok()) return s;
  if (absl::Status s = CheckScopeId(request.tournament(), "tournament"); !s.ok()) return s;
  if (absl::Status s = access::RequireCreate(caller, request.league(), request.tournament()); !s.ok()) {
    return s;
  }
  log::LogLimits log_limits;
  log_limits.max_file_bytes = static_cast<std::size_t>(limits_.max_log_bytes);
  // Parsing stops at the first action the game could not hold (the header
  // is event 1), so a long log costs no more than the server's limit.
  log_limits.max_actions =
      static_cast<std::size_t>(std::max<int64_t>(0, limits_.max_events_per_game - 1));
  absl::StatusOr<log::GameLog> parsed = log::ParseLog(request.log(), log_limits);
  if (!parsed.ok() && absl::StrContains(parsed.status().message(), "actions, the limit")) {
    return common::WithErrorInfo(
        absl::ResourceExhaustedError(absl::StrCat(
            "the log has more than ", log_limits.max_actions, " actions; this server allows ",
            limits_.max_events_per_game, " events per game, the header included")),
        "EVENT_LIMIT", {{"limit", absl::StrCat(limits_.max_events_per_game)}});
  }
  if (!parsed.ok()) {
    return common::WithFieldViolation(parsed.status(), "log", std::string(parsed.status().message()));
  }
  const int64_t events = 1 + static_cast<int64_t>(parsed->actions.size());
  if (events > limits_.max_events_per_game) {
    return TooManyEvents(events, limits_.max_events_per_game);
  }
  if (absl::Status s = CheckLeague(request.league(), parsed->header.game(), "league"); !s.ok()) {
    return s;
  }
  auto referee = replay::Referee::Start(parsed->header, registry_);
  if (!referee.ok()) return HeaderError(referee.status(), "log", true);
  for (std::size_t i = 0; i < parsed->actions.size(); ++i) {
    const int64_t line = log::LineOfAction(i);
    if (line % 512 == 0) {
      if (absl::Status s = cancel(); !s.ok()) return s;
    }
    if (referee->violation().has_value()) {
      // Kept as evidence after the violation, but still well-formed.
      if (absl::Status s = CheckShape(*referee, parsed->actions[i], line); !s.ok()) {
        return common::WithFieldViolation(s, "log", std::string(s.message()));
      }
      continue;
    }
    auto judged = referee->Apply(parsed->actions[i], line);
    if (!judged.ok()) {
      return common::WithFieldViolation(judged.status(), "log", std::string(judged.status().message()));
    }
  }

  v1::GameCreated created;
  *created.mutable_header() = parsed->header;
  created.set_league(request.league());
  created.set_tournament(request.tournament());
  created.set_creator_token_id(caller.token_id);
  std::vector<store::NewEvent> stored_events;
  stored_events.reserve(static_cast<std::size_t>(events));
  absl::StatusOr<store::NewEvent> first = EncodeCreated(game_id, created);
  if (!first.ok()) return common::WithFieldViolation(first.status(), "log", "header too large");
  stored_events.push_back(*std::move(first));
  for (std::size_t i = 0; i < parsed->actions.size(); ++i) {
    absl::StatusOr<store::NewEvent> event =
        EncodeAction(game_id, log::LineOfAction(i), parsed->actions[i]);
    if (!event.ok()) return common::WithFieldViolation(event.status(), "log", "action too large");
    stored_events.push_back(*std::move(event));
  }
  // A game that is over ends with its result, in the same transaction as
  // its last action.
  const bool over = referee->verdict() != replay::Verdict::kUnfinished;
  const v1::Adjudication adjudication = ToAdjudication(game_id, *referee, events);
  if (over) {
    absl::StatusOr<store::NewEvent> finished =
        EncodeGameFinished(game_id, events + 1, FinishedBody(created, adjudication));
    if (!finished.ok()) return common::WithFieldViolation(finished.status(), "log", "result too large");
    stored_events.push_back(*std::move(finished));
  }
  if (absl::Status s = cancel(); !s.ok()) return s;

  store::CreateGameRequest create;
  create.request_id = StoreRequestId("submit", game_id, caller.principal, request.request_id());
  store::GameRecord& record = create.game;
  record.game_id = game_id;
  record.game = parsed->header.game();
  record.ruleset_id = parsed->header.ruleset_id();
  record.ruleset_hash = parsed->header.ruleset_hash();
  record.seed = parsed->header.seed();
  for (const v1::Player& player : parsed->header.players()) record.players.push_back(player.id());
  record.created_by = caller.principal;
  record.league_id = request.league();
  record.tournament_id = request.tournament();
  // The game and all its events in one transaction, already finished if the
  // log ends the game: no other writer can come between its parts.
  if (over) record.status = store::GameStatus::kFinished;
  create.events = std::move(stored_events);
  absl::StatusOr<store::GameRecord> stored = store_.CreateGame(create);
  if (!stored.ok()) return stored.status();
  v1::SubmitGameResponse out;
  *out.mutable_game() = ToGame(*stored, &created, true);
  *out.mutable_adjudication() = adjudication;
  return out;
}

absl::StatusOr<v1::RevealSeedResponse> GameWriter::Reveal(const access::Caller& caller,
                                                          const v1::RevealSeedRequest& request,
                                                          const CancelCheck& cancel) {
  absl::StatusOr<std::string> game_id = common::ParseName(common::IdKind::kGame, request.game(), "game");
  if (!game_id.ok()) return common::WithFieldViolation(game_id.status(), "game", "not a game name");
  if (absl::Status s = CheckRequestId(request.request_id()); !s.ok()) return s;
  absl::StatusOr<std::string> commitment = SeedCommitment(request.seed(), request.nonce());
  if (!commitment.ok()) {
    return common::WithFieldViolation(commitment.status(), "nonce", std::string(commitment.status().message()));
  }

  LiveGames::Locked live = live_.Lock(*game_id);
  if (absl::StatusOr<store::GameRecord> writable = Writable(caller, *game_id); !writable.ok()) {
    return writable.status();
  }
  absl::StatusOr<LoadedGame> game = LoadGame(store_, *game_id, cancel);
  if (!game.ok()) return game.status();
  // The commitment, its format and the deadline come from event 1.
  const v1::GameCreated& created = game->created;
  if (created.seed_commitment().empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("game \"", *game_id, "\" was created with its seed; there is nothing to reveal"));
  }
  const bool sealed = IsSealed(created);
  commitment = ExpectedCommitment(*game_id, created, request.seed(), request.nonce());
  if (!commitment.ok()) return commitment.status();
  if (*commitment != created.seed_commitment()) {
    absl::Status status = absl::InvalidArgumentError(absl::StrCat(
        "the seed and nonce do not match the commitment of game \"", *game_id, "\": SHA-256(\"",
        sealed ? absl::StrCat("arbiter-seed-v2:", *game_id, ":") : "arbiter-seed-v1:",
        "<seed>:<nonce>\") is ", *commitment, ", the commitment is ", created.seed_commitment()));
    status = common::WithErrorInfo(std::move(status), "SEED_MISMATCH",
                           {{"commitment", created.seed_commitment()}, {"computed", *commitment}});
    return common::WithFieldViolation(std::move(status), "seed", "does not match the commitment");
  }
  v1::RevealSeedResponse out;
  if (game->revealed.has_value()) {
    // The same seed again (the commitment matched): answer as the first time.
    absl::StatusOr<replay::Referee> referee = Judge(*game, registry_, 0, cancel);
    if (!referee.ok()) return referee.status();
    *out.mutable_game() = ToGame(game->record, &game->created, true);
    *out.mutable_adjudication() = ToAdjudication(*game_id, *referee, game->record.last_sequence);
    return out;
  }
  if (game->record.status != store::GameStatus::kActive) {
    return absl::FailedPreconditionError(absl::StrCat("game \"", *game_id, "\" is ",
                                                      store::GameStatusName(game->record.status)));
  }
  if (sealed && created.has_reveal_deadline()) {
    const absl::Time deadline = common::TimeOf(created.reveal_deadline());
    if (absl::Now() > deadline) {
      return common::WithErrorInfo(
          absl::FailedPreconditionError(absl::StrCat(
              "the seed of game \"", *game_id, "\" had to be revealed by ",
              absl::FormatTime(absl::RFC3339_sec, deadline, absl::UTCTimeZone()),
              "; a late reveal is refused and the game is voided")),
          "REVEAL_DEADLINE_PASSED",
          {{"reveal_deadline", absl::FormatTime(absl::RFC3339_sec, deadline, absl::UTCTimeZone())}});
    }
  }
  v1::SeedRevealed revealed;
  revealed.set_seed(request.seed());
  revealed.set_nonce(request.nonce());
  game->revealed = revealed;
  game->seed = EngineSeed(*game_id, created, game->revealed);
  absl::StatusOr<replay::Referee> referee = Judge(*game, registry_, 0, cancel);
  if (!referee.ok()) return referee.status();

  const int64_t number = game->record.last_sequence + 1;
  absl::StatusOr<store::NewEvent> event = EncodeSeedRevealed(*game_id, number, revealed);
  if (!event.ok()) return event.status();
  store::AppendRequest append;
  append.game_id = *game_id;
  append.expected_sequence = game->record.last_sequence;
  append.request_id = StoreRequestId("reveal", *game_id, caller.principal, request.request_id());
  append.recorded_by = caller.principal;
  append.events.push_back(*std::move(event));
  live->Forget();
  absl::StatusOr<store::AppendResult> result = store_.Append(append);
  if (!result.ok()) return result.status();
  if (referee->verdict() != replay::Verdict::kUnfinished) {
    if (absl::Status s = RecordFinished(*game_id, game->created,
                                        ToAdjudication(*game_id, *referee, result->last_sequence),
                                        result->last_sequence);
        !s.ok()) {
      return s;
    }
  }
  absl::StatusOr<store::GameRecord> now = ChainedRecord(store_, *game_id);
  if (!now.ok()) return now.status();
  *out.mutable_game() = ToGame(*now, &game->created, true);
  *out.mutable_adjudication() = ToAdjudication(*game_id, *referee, result->last_sequence);
  return out;
}

}  // namespace arbiter::games
