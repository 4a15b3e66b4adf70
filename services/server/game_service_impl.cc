#include "services/server/game_service_impl.h"

#include <algorithm>

#include "engine/core/status_macros.h"
#include "services/common/page.h"
#include "services/common/resource_names.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "services/games/chained_game.h"
#include "services/games/dealt_game.h"
#include "services/games/event_words.h"
#include "services/games/game_events.h"
#include "services/server/rpc_common.h"
#include "services/games/game_loader.h"
#include "services/games/game_stream.h"
#include "services/games/official_result.h"
#include "services/server/status_mapping.h"
#include "services/transparency/transparency_proofs.h"
#include "services/store/internal/store_rules.h"

namespace arbiter::server {
namespace {

absl::StatusOr<store::GameStatus> StoreStatus(v1::GameStatus status) {
  switch (status) {
    case v1::GAME_STATUS_UNSPECIFIED:
      return store::GameStatus::kUnspecified;
    case v1::GAME_STATUS_ACTIVE:
      return store::GameStatus::kActive;
    case v1::GAME_STATUS_FINISHED:
      return store::GameStatus::kFinished;
    case v1::GAME_STATUS_VOIDED:
      return store::GameStatus::kVoided;
    default:
      break;
  }
  return common::FieldError("status", absl::StrCat("unknown status value ", static_cast<int>(status)));
}

// The game row, as its chain states it (chained_game.h), if the caller may
// read it. Permission before existence (AIP-211): a public token gets the
// same PERMISSION_DENIED for a game that does not exist as for one that is
// not finished.
absl::StatusOr<store::GameRecord> ReadableRecord(store::EventStore& store, const access::Caller& caller,
                                                 const std::string& game_id) {
  absl::StatusOr<store::GameRecord> record = games::ChainedRecord(store, game_id);
  if (!record.ok()) {
    if (absl::IsNotFound(record.status()) && !access::ReadsLiveGames(caller)) {
      return access::ReadDenied(caller, game_id);
    }
    return record.status();
  }
  ARBITER_RETURN_IF_ERROR(access::RequireRead(caller, *record));
  return record;
}

// The game row and its creation event, for answers about one game.
absl::StatusOr<v1::Game> ReadGame(store::EventStore& store, const access::Caller& caller,
                                  const std::string& game_id) {
  ARBITER_ASSIGN_OR_RETURN(store::GameRecord record, ReadableRecord(store, caller, game_id));
  ARBITER_ASSIGN_OR_RETURN(std::vector<store::StoredEvent> first, store.ReadGameEvents(game_id, 0, 1));
  if (first.empty()) return games::ToGame(record, nullptr, access::SeesSeed(caller, record));
  ARBITER_ASSIGN_OR_RETURN(v1::Event created, games::DecodeEvent(first.front()));
  v1::Game out = games::ToGame(record, &created.game_created(), access::SeesSeed(caller, record));
  if (games::IsDealt(created.game_created())) {
    // The seat values and the closing come before any action.
    ARBITER_ASSIGN_OR_RETURN(
        const std::vector<store::StoredEvent> opening,
        store.ReadGameEvents(game_id, 0, created.game_created().header().players_size() + 2));
    std::vector<v1::Event> decoded;
    for (const store::StoredEvent& e : opening) {
      ARBITER_ASSIGN_OR_RETURN(v1::Event event, games::DecodeEvent(e));
      decoded.push_back(std::move(event));
    }
    ARBITER_ASSIGN_OR_RETURN(const games::Deal deal, games::DealOfOpening(game_id, decoded));
    games::DescribeDeal(created.game_created(), deal, out);
  }
  return out;
}

// A violation's detail may describe hidden cards ("the top card of the deck
// is ..."): a caller who may not see the seed (docs/service.md, "Who sees the
// seed") gets the rule id and the event, and the detail once the game ends.
// The action's words tell nothing hidden, but a voided game's positions are
// not shown (access::ViewerOf), so neither are the words drawn from them.
void WithholdHiddenDetail(const access::Caller& caller, const store::GameRecord& record, v1::Adjudication& adjudication) {
  if (!adjudication.has_violation() || access::SeesSeed(caller, record)) return;
  if (record.status == store::GameStatus::kVoided) adjudication.mutable_violation()->clear_action_text();
  adjudication.mutable_violation()->set_detail(
      record.status == store::GameStatus::kVoided
          ? "withheld: the game was voided before its cards were revealed, and the detail may "
            "describe hidden cards (admins and auditors see it)"
          : "withheld while the game is live: the detail may describe hidden cards (admins and "
            "auditors see it)");
}

// The game opened for streaming (game_stream.h) if the caller may read it
// (and, with `seen_state`, see its positions): checked on the record of the
// same read that fixes which events are then streamed. Permission before
// existence, as ReadableRecord.
absl::StatusOr<games::OpenedGame> OpenReadable(store::EventStore& store, const access::Caller& caller,
                                        const std::string& game_id, bool seen_state = false) {
  absl::StatusOr<games::OpenedGame> game = games::OpenGame(store, game_id);
  if (!game.ok()) {
    if (absl::IsNotFound(game.status()) && !access::ReadsLiveGames(caller)) {
      return access::ReadDenied(caller, game_id);
    }
    return game.status();
  }
  if (!game->creation.ok()) return game->creation;
  ARBITER_RETURN_IF_ERROR(access::RequireRead(caller, game->record));
  if (seen_state) {
    ARBITER_RETURN_IF_ERROR(access::RequireReadState(caller, game->record));
  }
  return game;
}

}  // namespace

grpc::Status ArbiterServiceImpl::CreateGame(grpc::ServerContext* context,
                                            const v1::CreateGameRequest* request,
                                            v1::Game* response) {
  std::string label = request->game_id();
  return Serve(context, auth_, reads_, Route::kWrite, "CreateGame", label, request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 ARBITER_ASSIGN_OR_RETURN(v1::Game game, writer_.Create(caller, *request));
                 *response = std::move(game);
                 label = response->name();
                 return absl::OkStatus();
               });
}

grpc::Status ArbiterServiceImpl::AppendActions(grpc::ServerContext* context,
                                               const v1::AppendActionsRequest* request,
                                               v1::AppendActionsResponse* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "AppendActions", request->game(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 auto answer = writer_.Append(caller, *request, CancelOf(context));
                 if (!answer.ok()) return answer.status();
                 *response = *std::move(answer);
                 return absl::OkStatus();
               });
}

grpc::ServerBidiReactor<v1::AppendActionsRequest, v1::AppendActionsOutcome>*
ArbiterServiceImpl::StreamAppendActions(grpc::CallbackServerContext* context) {
  return AppendStreamReactor::Start(
      stream_workers_, append_streams_, [this, context](const v1::AppendActionsRequest& request) {
        v1::AppendActionsOutcome outcome;
        outcome.set_request_id(request.request_id());
        // As AppendActions, but on the primary without its read-after
        // headers: a stream's metadata is sent once, before its first answer.
        const absl::Status status = ServeStatus(
            context, auth_, nullptr, Route::kPrimary, "StreamAppendActions", request.game(),
            request.request_id(), [&](const access::Caller& caller) -> absl::Status {
              ARBITER_ASSIGN_OR_RETURN(*outcome.mutable_appended(),
                                       writer_.Append(caller, request, CancelOf(context)));
              return absl::OkStatus();
            });
        if (!status.ok()) *outcome.mutable_refused() = ToRpcStatus(status);
        return outcome;
      });
}

grpc::Status ArbiterServiceImpl::SubmitGame(grpc::ServerContext* context,
                                            const v1::SubmitGameRequest* request,
                                            v1::SubmitGameResponse* response) {
  std::string label = request->game_id();
  return Serve(context, auth_, reads_, Route::kWrite, "SubmitGame", label, request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 auto answer = writer_.Submit(caller, *request, CancelOf(context));
                 if (!answer.ok()) return answer.status();
                 *response = *std::move(answer);
                 label = response->game().name();
                 return absl::OkStatus();
               });
}

grpc::Status ArbiterServiceImpl::RevealSeed(grpc::ServerContext* context,
                                            const v1::RevealSeedRequest* request,
                                            v1::RevealSeedResponse* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "RevealSeed", request->game(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 auto answer = writer_.Reveal(caller, *request, CancelOf(context));
                 if (!answer.ok()) return answer.status();
                 *response = *std::move(answer);
                 return absl::OkStatus();
               });
}

grpc::Status ArbiterServiceImpl::AddSeatValue(grpc::ServerContext* context,
                                              const v1::AddSeatValueRequest* request,
                                              v1::Game* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "AddSeatValue", request->game(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 auto answer = writer_.AddSeatValue(caller, *request, CancelOf(context));
                 if (!answer.ok()) return answer.status();
                 *response = *std::move(answer);
                 return absl::OkStatus();
               });
}

grpc::Status ArbiterServiceImpl::CloseDeal(grpc::ServerContext* context,
                                           const v1::CloseDealRequest* request,
                                           v1::Game* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "CloseDeal", request->game(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 auto answer = writer_.CloseDeal(caller, *request, CancelOf(context));
                 if (!answer.ok()) return answer.status();
                 *response = *std::move(answer);
                 return absl::OkStatus();
               });
}

grpc::Status ArbiterServiceImpl::VoidGame(grpc::ServerContext* context,
                                          const v1::VoidGameRequest* request, v1::Game* response) {
  return Serve(context, auth_, reads_, Route::kWrite, "VoidGame", request->name(), request->request_id(),
               [&](const access::Caller& caller) -> absl::Status {
                 auto answer = writer_.Void(caller, *request);
                 if (!answer.ok()) return answer.status();
                 *response = *std::move(answer);
                 return absl::OkStatus();
               });
}

grpc::Status ArbiterServiceImpl::GetGame(grpc::ServerContext* context,
                                         const v1::GetGameRequest* request, v1::Game* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "GetGame", request->name(), "",
               [&](const access::Caller& caller) -> absl::Status {
                 absl::StatusOr<std::string> game_id = common::ParseName(common::IdKind::kGame, request->name(), "name");
                 if (!game_id.ok()) {
                   return common::WithFieldViolation(game_id.status(), "name", "not a game name");
                 }
                 ARBITER_ASSIGN_OR_RETURN(v1::Game game, ReadGame(store_, caller, *game_id));
                 *response = std::move(game);
                 AddPlayersToAct(caller, *game_id, *response, CancelOf(context));
                 return absl::OkStatus();
               });
}

void ArbiterServiceImpl::AddPlayersToAct(const access::Caller& caller, const std::string& game_id,
                                         v1::Game& game, const games::CancelCheck& cancel) {
  // A sealed game's seed is nobody's yet; a dealt game's once its deal closed.
  const bool seed_known = game.deal() ? game.deal_closed() : game.seed_commitment().empty();
  if (game.status() != v1::GAME_STATUS_ACTIVE || !seed_known) return;
  absl::StatusOr<games::JudgementCache::Judgement> judged =
      CurrentJudgement(caller, game_id, true, cancel);
  if (!judged.ok() || judged->referee == nullptr) return;  // a sealed game: nobody knows yet
  for (engine::Seat seat : judged->referee->state().SeatsToAct()) {
    game.add_players_to_act(judged->referee->PlayerAt(seat));
  }
}

grpc::Status ArbiterServiceImpl::ListGames(grpc::ServerContext* context,
                                           const v1::ListGamesRequest* request,
                                           v1::ListGamesResponse* response) {
  return Serve(
      context, auth_, reads_, Route::kStandbyRead, "ListGames", "", "", [&](const access::Caller& caller) -> absl::Status {
        ARBITER_ASSIGN_OR_RETURN(int size, common::PageSizeOf(request->page_size()));
        ARBITER_ASSIGN_OR_RETURN(store::GameStatus status, StoreStatus(request->status()));
        // A player asking for its own games also gets the live ones its token
        // plays in (each checked below; a page may then hold fewer games).
        const bool own_games =
            caller.role == store::Role::kPlayer && request->player() == caller.principal;
        if (!access::ReadsLiveGames(caller) && !own_games) {
          if (status == store::GameStatus::kActive) {
            return absl::PermissionDeniedError(absl::StrCat(
                store::RoleName(caller.role), " tokens list finished and voided games only"));
          }
          if (status == store::GameStatus::kUnspecified) status = store::GameStatus::kFinished;
        }
        store::ListGamesFilter filter;
        filter.game = request->game_type();
        filter.status = status;
        filter.league_id = request->league();
        filter.tournament_id = request->tournament();
        filter.player = request->player();
        absl::StatusOr<store::ListGamesPage> page =
            store_.ListGames(filter, size, request->page_token());
        if (!page.ok()) {
          if (page.status().code() == absl::StatusCode::kInvalidArgument) {
            return common::WithFieldViolation(page.status(), "page_token",
                                              "not a page token of this list of games");
          }
          return page.status();
        }
        for (const store::GameRecord& record : page->games) {
          if (own_games && !access::RequireRead(caller, record).ok()) continue;
          *response->add_games() = games::ToGame(record, nullptr, access::SeesSeed(caller, record));
        }
        response->set_next_page_token(page->next_page_token);
        return absl::OkStatus();
      });
}

grpc::Status ArbiterServiceImpl::ListEvents(grpc::ServerContext* context,
                                            const v1::ListEventsRequest* request,
                                            v1::ListEventsResponse* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "ListEvents", request->parent(), "",
               [&](const access::Caller& caller) -> absl::Status {
                 absl::StatusOr<std::string> game_id = common::ParseName(common::IdKind::kGame, request->parent(), "parent");
                 if (!game_id.ok()) {
                   return common::WithFieldViolation(game_id.status(), "parent", "not a game name");
                 }
                 ARBITER_ASSIGN_OR_RETURN(int size, common::PageSizeOf(request->page_size()));
                 int64_t after = 0;
                 if (!request->page_token().empty() &&
                     (!absl::SimpleAtoi(request->page_token(), &after) || after < 1)) {
                   return common::FieldError("page_token", "not a page token of this list of events");
                 }
                 ARBITER_ASSIGN_OR_RETURN(store::GameRecord record, ReadableRecord(store_, caller, *game_id));
                 const bool sees_seed = access::SeesSeed(caller, record);
                 const games::HandSight hands =
                     games::HandSightOf(access::ViewerOf(caller, record), record.players);
                 const engine::Game* const game = engine::FindGame(record.game);
                 auto events = store_.ReadGameEvents(*game_id, after, size + 1);
                 if (!events.ok()) return events.status();
                 for (int i = 0; i < static_cast<int>(events->size()) && i < size; ++i) {
                   ARBITER_ASSIGN_OR_RETURN(v1::Event event, games::DecodeEvent((*events)[i]));
                   if (!sees_seed) games::HideSeed(event);
                   games::HideHand(event, game, hands);
                   *response->add_events() = std::move(event);
                 }
                 if (static_cast<int>(events->size()) > size) {
                   response->set_next_page_token(absl::StrCat((*events)[size - 1].sequence));
                 }
                 // One replay of the game for the page's words (event_words.h).
                 return games::AddEventTexts(store_, registry_, *game_id, *response->mutable_events(),
                                             access::ViewerOf(caller, record).has_value(), CancelOf(context));
               });
}

absl::Status ArbiterServiceImpl::AddInclusion(v1::Adjudication& adjudication) {
  if (transparency_ == nullptr) {
    adjudication.set_transparency_note("this server keeps no transparency log");
    return absl::OkStatus();
  }
  ARBITER_ASSIGN_OR_RETURN(std::string game_id, common::ParseName(common::IdKind::kGame, adjudication.game(), "game"));
  absl::StatusOr<v1::InclusionProof> proof = inclusions_.Prove(
      store_, *transparency_, game_id, adjudication.last_event(), adjudication.last_event_hash());
  if (proof.ok()) {
    *adjudication.mutable_last_event_inclusion() = *std::move(proof);
    return absl::OkStatus();
  }
  if (absl::IsFailedPrecondition(proof.status()) || absl::IsNotFound(proof.status())) {
    adjudication.set_transparency_note(std::string(proof.status().message()));
    return absl::OkStatus();
  }
  return proof.status();
}

absl::StatusOr<games::JudgementCache::Judgement> ArbiterServiceImpl::CurrentJudgement(
    const access::Caller& caller, const std::string& game_id, bool with_referee,
    const games::CancelCheck& cancel) {
  // A read from a standby (read_routing.h) may be older than what this
  // server's follower has heard of: it is remembered by its last hash only,
  // never as current. A read that waits for a write skips the current
  // entries (which know of another server's writes only once the follower
  // heard of them) and checks the cache by hash.
  const store::pg::StandbyReadScope* standby = store::pg::StandbyReadScope::OnThisThread();
  // A current entry (judgement_cache.h) needs no read at all. It holds the
  // chain's record, computed with it, for the permission check.
  if (standby == nullptr || !standby->waits_for_write()) {
    if (auto cached = judgements_.FindCurrent(game_id, store_.WrittenThrough())) {
      ARBITER_RETURN_IF_ERROR(access::RequireRead(caller, cached->chained));
      if (!with_referee || cached->referee != nullptr) return *std::move(cached);
    }
  }
  // Otherwise one statement reads the row, the first events and the last
  // one (game_stream.h): the permission check, a cache entry checked by the
  // last event's hash, and on a miss the start of the stream all come from
  // it.
  const games::JudgementCache::ReadTicket ticket =
      standby == nullptr ? judgements_.BeginRead() : games::JudgementCache::ReadTicket{};
  ARBITER_ASSIGN_OR_RETURN(games::OpenedGame game, OpenReadable(store_, caller, game_id));
  if (game.last.has_value()) {
    if (auto cached = judgements_.Find(game_id, game.last->hash)) {
      ARBITER_RETURN_IF_ERROR(access::RequireRead(caller, cached->chained));
      if (!with_referee || cached->referee != nullptr) {
        // Checked against the store just now: current again (not from a
        // standby, which may be behind).
        if (standby == nullptr) {
          judgements_.Store(game_id, game.last->hash, game.last->position, ticket, *cached);
        }
        return *std::move(cached);
      }
    }
  }
  ARBITER_ASSIGN_OR_RETURN(replay::Referee referee,
                           games::JudgeStored(store_, registry_, game, 0, cancel));
  games::JudgementCache::Judgement judged;
  judged.adjudication =
      games::ToAdjudication(game.record.game_id, referee, game.record.last_sequence);
  judged.adjudication.set_last_event_hash(game.last->hash);
  ARBITER_ASSIGN_OR_RETURN(*judged.adjudication.mutable_official(),
                           games::OfficialResultOf(*game.last));
  judged.chained = game.record;
  // Live games keep their position for the players' next questions; an
  // ended game's only while someone asks for it.
  if (with_referee || game.record.status == store::GameStatus::kActive) {
    judged.referee = std::make_shared<const replay::Referee>(std::move(referee));
  }
  judgements_.Store(game_id, game.last->hash, game.last->position, ticket, judged);
  return judged;
}

grpc::Status ArbiterServiceImpl::AdjudicateGame(grpc::ServerContext* context,
                                                const v1::AdjudicateGameRequest* request,
                                                v1::Adjudication* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "AdjudicateGame", request->name(), "",
               [&](const access::Caller& caller) -> absl::Status {
                 absl::StatusOr<std::string> game_id = common::ParseName(common::IdKind::kGame, request->name(), "name");
                 if (!game_id.ok()) {
                   return common::WithFieldViolation(game_id.status(), "name", "not a game name");
                 }
                 ARBITER_ASSIGN_OR_RETURN(
                     games::JudgementCache::Judgement judged,
                     CurrentJudgement(caller, *game_id, false, CancelOf(context)));
                 *response = std::move(judged.adjudication);
                 WithholdHiddenDetail(caller, judged.chained, *response);
                 return AddInclusion(*response);
               });
}

grpc::Status ArbiterServiceImpl::GetGameState(grpc::ServerContext* context,
                                              const v1::GetGameStateRequest* request,
                                              v1::GameState* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "GetGameState", request->name(), "",
               [&](const access::Caller& caller) -> absl::Status {
                 const games::CancelCheck cancel = CancelOf(context);
                 absl::StatusOr<std::string> game_id = common::ParseName(common::IdKind::kGame, request->name(), "name");
                 if (!game_id.ok()) {
                   return common::WithFieldViolation(game_id.status(), "name", "not a game name");
                 }
                 if (request->event() == 0) {
                   // The last position: from the judgement of the whole game.
                   ARBITER_ASSIGN_OR_RETURN(const games::JudgementCache::Judgement judged,
                                            CurrentJudgement(caller, *game_id, true, cancel));
                   ARBITER_RETURN_IF_ERROR(access::RequireReadState(caller, judged.chained));
                   *response = games::ToGameState(judged.chained.game_id, *judged.referee,
                                                  judged.chained.last_sequence,
                                                  *access::ViewerOf(caller, judged.chained));
                   return absl::OkStatus();
                 }
                 ARBITER_ASSIGN_OR_RETURN(games::OpenedGame game, OpenReadable(store_, caller, *game_id, true));
                 const int64_t last = game.record.last_sequence;
                 const int64_t event = request->event();
                 if (event < 1 || event > last) {
                   return common::FieldError("event", absl::StrCat("event must be 1-", last,
                                                           " (0: the last), not ", event));
                 }
                 ARBITER_ASSIGN_OR_RETURN(replay::Referee referee, games::JudgeStored(store_, registry_, game, event, cancel));
                 *response = games::ToGameState(game.record.game_id, referee, event,
                                                *access::ViewerOf(caller, game.record));
                 return absl::OkStatus();
               });
}

grpc::Status ArbiterServiceImpl::ListLegalActions(grpc::ServerContext* context,
                                                  const v1::ListLegalActionsRequest* request,
                                                  v1::ListLegalActionsResponse* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "ListLegalActions", request->game(), "",
               [&](const access::Caller& caller) -> absl::Status {
                 absl::StatusOr<std::string> game_id =
                     common::ParseName(common::IdKind::kGame, request->game(), "game");
                 if (!game_id.ok()) {
                   return common::WithFieldViolation(game_id.status(), "game", "not a game name");
                 }
                 std::string player = request->player();
                 if (player.empty() && caller.role == store::Role::kPlayer) player = caller.principal;
                 if (player.empty()) {
                   return common::FieldError("player", "player is required: the player id of the "
                                                       "seat whose moves to list");
                 }
                 ARBITER_ASSIGN_OR_RETURN(
                     const games::JudgementCache::Judgement judged,
                     CurrentJudgement(caller, *game_id, true, CancelOf(context)));
                 const std::vector<std::string>& seats = judged.chained.players;
                 const auto seat = std::find(seats.begin(), seats.end(), player);
                 if (seat == seats.end()) {
                   return common::FieldError("player", absl::StrCat("game \"", *game_id,
                                                                    "\" seats no player \"",
                                                                    player, "\""));
                 }
                 ARBITER_RETURN_IF_ERROR(access::RequireSeesHand(
                     caller, judged.chained, static_cast<int>(seat - seats.begin())));
                 ARBITER_ASSIGN_OR_RETURN(
                     *response, games::ToLegalActions(judged.chained.game_id, *judged.referee,
                                                      judged.chained.last_sequence, player));
                 return absl::OkStatus();
               });
}

absl::StatusOr<WatchRequest> ArbiterServiceImpl::CheckWatch(grpc::CallbackServerContext* context,
                                                              const v1::WatchGameRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(const access::Caller caller, auth_.Authenticate(AuthorizationOf(context)));
  ARBITER_RETURN_IF_ERROR(TakeOversizeNote(context));
  if (follower_ == nullptr) {
    return absl::UnimplementedError(
        "this server's store cannot be followed: following a game live needs arbiterd on PostgreSQL");
  }
  absl::StatusOr<std::string> game_id = common::ParseName(common::IdKind::kGame, request.game(), "game");
  if (!game_id.ok()) return common::WithFieldViolation(game_id.status(), "game", "not a game name");
  if (request.from_event() < 0) {
    return common::FieldError("from_event", "from_event must be 0 (the whole game) or the number "
                                            "of the last event received");
  }
  ARBITER_ASSIGN_OR_RETURN(store::GameRecord record, ReadableRecord(store_, caller, *game_id));
  if (request.from_event() > record.last_sequence) {
    return common::FieldError(
        "from_event", absl::StrCat("game \"", *game_id, "\" has ", record.last_sequence,
                                   " events; from_event ", request.from_event(),
                                   " is past its end (give the last event received, or 0)"));
  }
  const std::optional<engine::Viewer> viewer = access::ViewerOf(caller, record);
  return WatchRequest{*game_id, request.from_event(), access::SeesSeed(caller, record),
                      viewer.has_value(), caller.principal, games::HandSightOf(viewer, record.players),
                      engine::FindGame(record.game)};
}

grpc::ServerWriteReactor<v1::GameUpdate>* ArbiterServiceImpl::WatchGame(
    grpc::CallbackServerContext* context, const v1::WatchGameRequest* request) {
  return WatchReactor::Start(context, feeds_, CheckWatch(context, *request));
}

grpc::Status ArbiterServiceImpl::VerifyGame(grpc::ServerContext* context,
                                            const v1::VerifyGameRequest* request,
                                            v1::VerifyGameResponse* response) {
  return Serve(context, auth_, reads_, Route::kStandbyRead, "VerifyGame", request->name(), "",
               [&](const access::Caller& caller) -> absl::Status {
                 absl::StatusOr<std::string> game_id = common::ParseName(common::IdKind::kGame, request->name(), "name");
                 if (!game_id.ok()) {
                   return common::WithFieldViolation(game_id.status(), "name", "not a game name");
                 }
                 ARBITER_ASSIGN_OR_RETURN(games::OpenedGame game,
                                          OpenReadable(store_, caller, *game_id));
                 auto report = games::VerifyOpenedGame(store_, results_, registry_, game,
                                                       CancelOf(context));
                 if (!report.ok()) return report.status();
                 *response = *std::move(report);
                 // The row was read with the events (one snapshot): a game
                 // that ended meanwhile is not in this read at all.
                 if (response->intact()) games::VerifyRowAgainstChain(game.row, game.record, *response);
                 return absl::OkStatus();
               });
}

}  // namespace arbiter::server
