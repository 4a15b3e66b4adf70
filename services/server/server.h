// ArbiterServer: the gRPC server with Arbiter's services, the standard health
// service and server reflection, over an EventStore and a TokenStore that the
// caller owns (arbiterd opens them; tests use their own).
// Start/Shutdown from one thread; the services themselves are thread-safe.
#ifndef ARBITER_SERVICES_SERVER_SERVER_H_
#define ARBITER_SERVICES_SERVER_SERVER_H_

#include "services/server/dispute_service_impl.h"
#include "services/server/league_service_impl.h"
#include "services/server/tournament_service_impl.h"
#include "services/server/transparency_service_impl.h"

#include <grpcpp/channel.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "engine/core/ruleset_registry.h"
#include "services/access/authenticator.h"
#include "services/access/permissions.h"
#include "services/server/append_stream.h"
#include "services/server/game_service_impl.h"
#include "services/server/read_routing.h"
#include "services/games/game_writer.h"
#include "services/server/token_service_impl.h"
#include "services/store/token_store.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"

namespace arbiter::server {

struct ServerOptions {
  // host:port; port 0 picks a free port (see ArbiterServer::port()).
  std::string listen = "127.0.0.1:50051";
  // PEM files; both empty: plaintext, which Start refuses on an address
  // other than loopback unless `insecure` is set (bearer tokens would cross
  // the network in clear).
  std::string tls_cert_file;
  std::string tls_key_file;
  bool insecure = false;
  // Largest request the server accepts (RESOURCE_EXHAUSTED beyond).
  int max_message_bytes = 64 << 20;
  // Threads that wait for calls between calls. gRPC's synchronous server
  // starts a thread for a call when no waiting thread is left and ends
  // threads beyond this number when their call is done; its default (2)
  // makes a server with more concurrent calls than that start and end a
  // thread for about every other call.
  int idle_threads = 16;
  // A grpc::ResourceQuota over the whole server: memory for buffers and
  // messages in flight, and threads. Beyond them calls wait or fail with
  // RESOURCE_EXHAUSTED instead of exhausting the machine.
  int64_t memory_quota_bytes = int64_t{1} << 30;
  int max_threads = 256;
  // StreamAppendActions: streamed appends run at once, and streams kept open
  // (append_stream.h).
  AppendStreamLimits append_streams;
  games::WriteLimits limits;
  // WatchGame: the most streams kept, and how far behind the newest event
  // a stream may fall before it is cut off (game_feeds.h).
  games::FeedLimits watch;
  // How long a read that names a store position (arbiter-after-position)
  // waits for the league projector to pass it (read_routing.h).
  int read_wait_ms = 200;
};

// The gRPC health service's name for readiness (a writable PostgreSQL
// answers): what a Kubernetes gRPC readiness probe names.
inline constexpr char kReadinessService[] = "arbiter.v1.Readiness";

// True if `listen` ("host:port", "[v6]:port" or "unix:path") can only be
// reached from this machine: a Unix socket, localhost, 127.0.0.0/8 or ::1.
bool IsLoopbackAddress(const std::string& listen);

// What the LeagueService needs; all owned by the caller. With these the
// server also serves TournamentService and DisputeService (on `streams`).
struct LeagueParts {
  store::StreamStore* streams = nullptr;
  league::ProjectionStore* projections = nullptr;
  league::LeagueProjector* projector = nullptr;
};

class ArbiterServer {
 public:
  // Builds and starts the server on `store` and its result index `results`
  // (the PostgreSQL and in-memory stores are both). InvalidArgument for
  // unreadable TLS files and for plaintext on a non-loopback address without
  // `insecure`;
  // Unavailable if the address cannot be bound.
  // With `transparency` (owned by the caller) the server also serves
  // TransparencyService, and AdjudicateGame answers carry inclusion proofs.
  // With `standby_reads` (owned by the caller, on `store`'s pool), read-only
  // calls may be served by its read databases and writes answer their
  // read-your-writes headers (read_routing.h).
  static absl::StatusOr<std::unique_ptr<ArbiterServer>> Start(
      const ServerOptions& options, store::EventStore& store, store::ResultIndex& results,
      store::TokenStore& tokens, const engine::RulesetRegistry& registry,
      const LeagueParts* leagues = nullptr,
      transparency::TransparencyLog* transparency = nullptr,
      store::pg::StandbyReads* standby_reads = nullptr);
  ~ArbiterServer();

  // The port actually bound.
  int port() const { return port_; }
  // A channel to this server's services within the process (no network,
  // no TLS; calls still need a token).
  std::shared_ptr<grpc::Channel> InProcessChannel();
  // A token for `role` that exists only in this process (see
  // Authenticator::AddInProcessToken).
  absl::StatusOr<std::string> AddInProcessToken(store::Role role, const std::string& principal);
  // Stops taking calls, lets calls in flight finish until `deadline` (then
  // cancels them) and returns when all are done.
  void Shutdown(std::chrono::system_clock::time_point deadline);
  // WatchGame's live feeds: watchers, feeds and updates kept.
  games::FeedStats FeedStats() { return arbiter_service_.FeedStats(); }
  // How far the store's follower has reported (the server's one follower).
  const store::FollowerProgress& follower_progress() const {
    return arbiter_service_.follower_progress();
  }
  // Readiness, as the gRPC health service tells it (arbiterd's
  // HealthMonitor calls this on every change): the service kReadiness and
  // every API service registered are SERVING when `ready`, NOT_SERVING
  // otherwise. The overall service "" is liveness and is left alone: SERVING
  // from Start to Shutdown. Ignored after Shutdown. Thread-safe.
  void SetReady(bool ready);

 private:
  // The server's credentials; `takes_auth_processor` if they accept the
  // early authentication (TLS and local credentials do).
  struct Credentials {
    std::shared_ptr<grpc::ServerCredentials> credentials;
    bool takes_auth_processor = true;
  };
  static absl::StatusOr<Credentials> CredentialsFor(const ServerOptions& options);
  // Message sizes, the request-size interceptor, idle threads.
  static void Configure(grpc::ServerBuilder& builder, const ServerOptions& options);
  void RegisterServices(grpc::ServerBuilder& builder);
  // The health service says every registered service is serving.
  void MarkServing();

  ArbiterServer(store::EventStore& store, store::ResultIndex& results, store::TokenStore& tokens,
                const engine::RulesetRegistry& registry, const ServerOptions& options,
                const LeagueParts* leagues, transparency::TransparencyLog* transparency,
                store::pg::StandbyReads* standby_reads);

  access::Authenticator auth_;
  // Where each call reads (before the services that use it).
  const ReadRouting routing_;
  std::shared_ptr<grpc::AuthMetadataProcessor> early_auth_;
  // With LeagueParts: a new game's league must exist and rate its type.
  std::unique_ptr<games::LeagueCheck> league_check_;
  // With LeagueParts: a league's organiser creates its tournaments' games.
  std::unique_ptr<games::TournamentLeagues> tournament_leagues_;
  // Every write to games, from every service: one lock per game.
  games::GameWriter writer_;
  ArbiterServiceImpl arbiter_service_;
  TokenServiceImpl token_service_;
  std::unique_ptr<LeagueServiceImpl> league_service_;  // with LeagueParts
  // Tournaments and disputes live in streams too: also with LeagueParts.
  std::unique_ptr<TournamentServiceImpl> tournament_service_;
  std::unique_ptr<DisputeServiceImpl> dispute_service_;
  std::unique_ptr<TransparencyServiceImpl> transparency_service_;  // with a log
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  bool shut_down_ = false;
  // The health service's statuses: the names MarkServing set, and whether
  // Shutdown has set them NOT_SERVING for good.
  absl::Mutex health_mu_;
  std::vector<std::string> health_names_ ABSL_GUARDED_BY(health_mu_);
  bool health_final_ ABSL_GUARDED_BY(health_mu_) = false;
};

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_SERVER_H_
