// A server for the benchmarks that call Arbiter over gRPC: an ArbiterServer
// in the benchmark's own process (so that /proc/self tells its memory) on a
// private, migrated embedded PostgreSQL, listening on 127.0.0.1, with an
// admin token. Any failure ends the program with a message.
#ifndef ARBITER_BENCH_BENCH_SERVER_H_
#define ARBITER_BENCH_BENCH_SERVER_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/log/log_file.h"
#include "services/store/postgres_token_store.h"
#include "services/server/server.h"
#include "services/store/token_store.h"
#include "services/store/embedded_postgres.h"
#include "services/store/postgres_event_store.h"

namespace arbiter::bench {

struct BenchServer {
  std::unique_ptr<store::EmbeddedPostgres> pg;
  std::unique_ptr<store::PostgresEventStore> store;
  std::unique_ptr<arbiter::store::PostgresTokenStore> tokens;
  std::unique_ptr<engine::RulesetRegistry> registry;
  std::unique_ptr<server::ArbiterServer> server;
  std::shared_ptr<grpc::Channel> channel;  // to the server; requests up to 64 MiB
  std::unique_ptr<v1::ArbiterService::Stub> games;  // on `channel`
  std::string token;                       // an admin's
};

// Prints "`program`: `what`" and ends the program.
[[noreturn]] void BenchFail(const std::string& program, const std::string& what);

// Starts it all; spdlog is set to warnings only.
std::unique_ptr<BenchServer> StartBenchServer(const std::string& program);

// The program's one server, started on first use and kept to the end (the
// benchmarks of a program share it).
BenchServer& SharedBenchServer(const std::string& program);

// Creates a live game `game_id` (request id the same) for `log`'s header,
// seeded as the log, as the admin; the program ends if it cannot.
void CreateLiveGame(BenchServer& server, const std::string& program, const log::GameLog& log,
                    const std::string& game_id);

// A channel of its own to the server, connected, with its own TCP connection
// (a local subchannel pool: channels with equal arguments otherwise share
// one), as each client on another machine would have. The program ends if
// it does not connect within ten seconds.
std::shared_ptr<grpc::Channel> NewClientChannel(const BenchServer& server, const std::string& program);

// A context carrying `token`, with a deadline of ten minutes.
std::unique_ptr<grpc::ClientContext> BenchContext(const std::string& token);

}  // namespace arbiter::bench

#endif  // ARBITER_BENCH_BENCH_SERVER_H_
