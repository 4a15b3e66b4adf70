// The gRPC service ArbiterService, implemented thinly.
//
// Each RPC authenticates the caller, hands the request to GameWriter (writes)
// or game_reader.h (reads), turns the result into a grpc::Status
// (status_mapping.h) and logs one line with spdlog: method, game, request id,
// principal, status and time. The deadline of a call is checked between the
// steps of long work, and before anything is written.
// Thread-safe: gRPC calls these from many threads.
#ifndef ARBITER_SERVICES_SERVER_GAME_SERVICE_IMPL_H_
#define ARBITER_SERVICES_SERVER_GAME_SERVICE_IMPL_H_

#include <memory>

#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/access/authenticator.h"
#include "services/server/read_routing.h"
#include "services/access/permissions.h"
#include "services/games/game_writer.h"
#include "services/games/game_feeds.h"
#include "services/games/judgement_cache.h"
#include "services/server/append_stream.h"
#include "services/server/watch_game.h"
#include "services/store/follower_progress.h"
#include "services/store/listener_fan_out.h"
#include "services/transparency/transparency_proofs.h"
#include "services/store/token_store.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"
#include "services/transparency/transparency_log.h"

namespace arbiter::server {

// The generated service with WatchGame and StreamAppendActions in gRPC's
// callback form.
using ArbiterServiceBase = v1::ArbiterService::WithCallbackMethod_WatchGame<
    v1::ArbiterService::WithCallbackMethod_StreamAppendActions<v1::ArbiterService::Service>>;

// WatchGame and StreamAppendActions use gRPC's callback API (a stream holds
// no thread while it waits); every other method is synchronous.
class ArbiterServiceImpl final : public ArbiterServiceBase {
 public:
  ArbiterServiceImpl(store::EventStore& store, store::ResultIndex& results,
                     const engine::RulesetRegistry& registry, access::Authenticator& auth,
                     games::GameWriter& writer, games::FeedLimits feed_limits = {},
                     const ReadRouting* reads = nullptr, AppendStreamLimits streams = {})
      : store_(store),
        results_(results),
        registry_(registry),
        auth_(auth),
        reads_(reads),
        writer_(writer),
        feeds_(store, registry, feed_limits),
        follower_(store.Follow(listeners_)),
        stream_workers_(streams.threads),
        append_streams_(streams.max_streams) {
    writer_.RememberJudgementsIn(&judgements_);
  }
  ~ArbiterServiceImpl() override { writer_.RememberJudgementsIn(nullptr); }

  // The transparency log AdjudicateGame proves the last event against
  // (none: its answers carry no proof). Set before the server starts.
  void set_transparency(transparency::TransparencyLog* log) { transparency_ = log; }

  grpc::Status CreateGame(grpc::ServerContext* context, const v1::CreateGameRequest* request,
                          v1::Game* response) override;
  grpc::Status AppendActions(grpc::ServerContext* context, const v1::AppendActionsRequest* request,
                             v1::AppendActionsResponse* response) override;
  grpc::ServerBidiReactor<v1::AppendActionsRequest, v1::AppendActionsOutcome>*
  StreamAppendActions(grpc::CallbackServerContext* context) override;
  grpc::Status SubmitGame(grpc::ServerContext* context, const v1::SubmitGameRequest* request,
                          v1::SubmitGameResponse* response) override;
  grpc::Status RevealSeed(grpc::ServerContext* context, const v1::RevealSeedRequest* request,
                          v1::RevealSeedResponse* response) override;
  grpc::Status AddSeatValue(grpc::ServerContext* context, const v1::AddSeatValueRequest* request,
                            v1::Game* response) override;
  grpc::Status CloseDeal(grpc::ServerContext* context, const v1::CloseDealRequest* request,
                         v1::Game* response) override;
  grpc::Status GetGame(grpc::ServerContext* context, const v1::GetGameRequest* request,
                       v1::Game* response) override;
  grpc::Status ListGames(grpc::ServerContext* context, const v1::ListGamesRequest* request,
                         v1::ListGamesResponse* response) override;
  grpc::Status ListEvents(grpc::ServerContext* context, const v1::ListEventsRequest* request,
                          v1::ListEventsResponse* response) override;
  grpc::Status AdjudicateGame(grpc::ServerContext* context,
                              const v1::AdjudicateGameRequest* request,
                              v1::Adjudication* response) override;
  grpc::Status GetGameState(grpc::ServerContext* context, const v1::GetGameStateRequest* request,
                            v1::GameState* response) override;
  grpc::Status ListLegalActions(grpc::ServerContext* context,
                                const v1::ListLegalActionsRequest* request,
                                v1::ListLegalActionsResponse* response) override;
  // The generated synchronous forms, disabled by the callback ones.
  using ArbiterServiceBase::WatchGame;
  using ArbiterServiceBase::StreamAppendActions;
  grpc::ServerWriteReactor<v1::GameUpdate>* WatchGame(grpc::CallbackServerContext* context,
                                                      const v1::WatchGameRequest* request) override;
  grpc::Status VerifyGame(grpc::ServerContext* context, const v1::VerifyGameRequest* request,
                          v1::VerifyGameResponse* response) override;
  grpc::Status VoidGame(grpc::ServerContext* context, const v1::VoidGameRequest* request,
                        v1::Game* response) override;

  // The live feeds' counts (tests, benchmarks).
  games::FeedStats FeedStats() { return feeds_.Stats(); }
  // How far the store's follower has reported.
  const store::FollowerProgress& follower_progress() const { return progress_; }

 private:
  store::EventStore& store_;
  store::ResultIndex& results_;  // VerifyGame compares its rows with the events
  const engine::RulesetRegistry& registry_;
  access::Authenticator& auth_;
  const ReadRouting* const reads_;  // null: every call on the primary
  // Sets the answer's inclusion proof of its last event, or says why there
  // is none. Fails only if the log cannot be read.
  absl::Status AddInclusion(v1::Adjudication& adjudication);

  games::GameWriter& writer_;
  transparency::TransparencyLog* transparency_ = nullptr;
  transparency::InclusionCache inclusions_;
  // What WatchGame may answer, checked: the caller may read the game.
  absl::StatusOr<WatchRequest> CheckWatch(grpc::CallbackServerContext* context,
                                          const v1::WatchGameRequest& request);

  // The judgement of `game_id` through its last event, if `caller` may read
  // it: from judgements_ without a read while an entry is current, else
  // from one read (and a replay unless the last event's hash is known), and
  // remembered. `with_referee`: the answer holds the referee (the position).
  absl::StatusOr<games::JudgementCache::Judgement> CurrentJudgement(
      const access::Caller& caller, const std::string& game_id, bool with_referee,
      const games::CancelCheck& cancel);

  // Game.players_to_act of a live game whose position the server can
  // compute; nothing (and no error) otherwise.
  void AddPlayersToAct(const access::Caller& caller, const std::string& game_id, v1::Game& game,
                       const games::CancelCheck& cancel);

  games::JudgementCache judgements_;
  games::GameFeeds feeds_;  // WatchGame's
  // How far the follower has reported (the figures of /metrics); last, so
  // that what it shows has reached the other two.
  store::FollowerProgress progress_;
  store::ListenerFanOut listeners_{{&judgements_, &feeds_, &progress_}};
  // Keeps judgements_ and feeds_ current (judgement_cache.h, game_feeds.h);
  // null for a store that cannot be followed. Declared last: stops before
  // the listeners go.
  std::unique_ptr<store::StoreFollower> follower_;
  // StreamAppendActions' appends run on these (append_stream.h).
  AppendWorkers stream_workers_;
  StreamCount append_streams_;
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_GAME_SERVICE_IMPL_H_
