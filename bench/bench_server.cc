#include "bench/bench_server.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "services/access/token_format.h"
#include "services/store/postgres_token_store.h"
#include "services/access/permissions.h"
#include "services/store/migrations.h"

namespace arbiter::bench {

void BenchFail(const std::string& program, const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", program.c_str(), what.c_str());
  std::exit(1);
}

BenchServer& SharedBenchServer(const std::string& program) {
  static BenchServer* const server = StartBenchServer(program).release();
  return *server;
}

std::unique_ptr<BenchServer> StartBenchServer(const std::string& program) {
  spdlog::set_level(spdlog::level::warn);
  auto out = std::make_unique<BenchServer>();
  // BENCH_PG_CONFIG adds postgresql.conf lines, e.g.
  // "log_min_duration_statement = 0" to see where the time goes.
  store::EmbeddedPostgresOptions pg_options;
  if (const char* extra = std::getenv("BENCH_PG_CONFIG"); extra != nullptr) {
    pg_options.extra_config = extra;
  }
  absl::StatusOr<std::unique_ptr<store::EmbeddedPostgres>> pg =
      store::EmbeddedPostgres::Start(pg_options);
  if (!pg.ok()) BenchFail(program, std::string(pg.status().message()));
  out->pg = *std::move(pg);
  if (absl::Status s = store::ApplyMigrations(out->pg->conninfo()); !s.ok()) {
    BenchFail(program, std::string(s.message()));
  }
  store::PostgresOptions options;
  options.conninfo = out->pg->conninfo();
  // BENCH_APPEND_WRITERS and BENCH_APPENDS_PER_COMMIT set the store's
  // append group commit (PostgresOptions), to compare settings in one
  // sitting.
  if (const char* writers = std::getenv("BENCH_APPEND_WRITERS"); writers != nullptr) {
    options.append_writers = std::max(1, std::atoi(writers));
  }
  if (const char* per_commit = std::getenv("BENCH_APPENDS_PER_COMMIT"); per_commit != nullptr) {
    options.max_appends_per_commit = std::max(1, std::atoi(per_commit));
  }
  absl::StatusOr<std::unique_ptr<store::PostgresEventStore>> events =
      store::PostgresEventStore::Open(options);
  if (!events.ok()) BenchFail(program, std::string(events.status().message()));
  out->store = *std::move(events);
  out->tokens = std::make_unique<arbiter::store::PostgresTokenStore>(out->store->pool());
  absl::StatusOr<arbiter::access::NewToken> token = arbiter::access::GenerateToken();
  if (!token.ok()) BenchFail(program, std::string(token.status().message()));
  token->record.role = arbiter::store::Role::kAdmin;
  token->record.principal = "bench";
  token->record.created_by = "bench";
  if (absl::Status s = out->tokens->Insert(token->record); !s.ok()) {
    BenchFail(program, std::string(s.message()));
  }
  out->token = token->token;
  out->registry =
      std::make_unique<engine::RulesetRegistry>(*engine::RulesetRegistry::WithBuiltins());
  server::ServerOptions server_options;
  server_options.listen = "127.0.0.1:0";
  // BENCH_IDLE_THREADS sets ServerOptions::idle_threads, to compare
  // settings in one sitting.
  if (const char* idle = std::getenv("BENCH_IDLE_THREADS"); idle != nullptr) {
    server_options.idle_threads = std::max(1, std::atoi(idle));
  }
  absl::StatusOr<std::unique_ptr<server::ArbiterServer>> started =
      server::ArbiterServer::Start(server_options, *out->store, *out->store, *out->tokens,
                                   *out->registry);
  if (!started.ok()) BenchFail(program, std::string(started.status().message()));
  out->server = *std::move(started);
  grpc::ChannelArguments arguments;
  arguments.SetMaxSendMessageSize(64 << 20);
  out->channel = grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", out->server->port()),
                                           grpc::InsecureChannelCredentials(), arguments);
  out->games = v1::ArbiterService::NewStub(out->channel);
  return out;
}

std::shared_ptr<grpc::Channel> NewClientChannel(const BenchServer& server, const std::string& program) {
  grpc::ChannelArguments arguments;
  arguments.SetMaxSendMessageSize(64 << 20);
  arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  std::shared_ptr<grpc::Channel> channel =
      grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", server.server->port()),
                                grpc::InsecureChannelCredentials(), arguments);
  if (!channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(10))) {
    BenchFail(program, "a client's own channel did not connect within 10 s");
  }
  return channel;
}

void CreateLiveGame(BenchServer& server, const std::string& program, const log::GameLog& log,
                    const std::string& game_id) {
  v1::CreateGameRequest create;
  create.set_request_id(game_id);
  create.set_game_id(game_id);
  create.mutable_game()->set_game_type(log.header.game());
  create.mutable_game()->set_ruleset_id(log.header.ruleset_id());
  create.mutable_game()->set_ruleset_hash(log.header.ruleset_hash());
  *create.mutable_game()->mutable_players() = log.header.players();
  create.mutable_game()->set_seed(log.header.seed());
  v1::Game game;
  grpc::Status status = server.games->CreateGame(BenchContext(server.token).get(), create, &game);
  if (!status.ok()) BenchFail(program, status.error_message());
}

std::unique_ptr<grpc::ClientContext> BenchContext(const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->AddMetadata("authorization", absl::StrCat("Bearer ", token));
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(10));
  return context;
}

}  // namespace arbiter::bench
