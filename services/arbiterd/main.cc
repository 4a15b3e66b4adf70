// arbiterd: the Arbiter gRPC server.
//
// With no flags it runs on an embedded PostgreSQL in ./arbiter-data, listens
// on 127.0.0.1:50051, applies the migrations, writes a bootstrap admin token
// on its first start and prints how to connect. SIGTERM or SIGINT stops it
// gracefully: no new calls are taken, calls in flight finish (their writes
// are committed before they are acknowledged), then the database stops.
#include <signal.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "services/arbiterd/database.h"
#include "services/games/reveal_sweep.h"
#include "services/league/league_projector.h"
#include "services/store/postgres_stream_store.h"
#include "services/server/request_limits.h"
#include "services/server/server.h"
#include "services/transparency/key_file.h"
#include "services/transparency/transparency_log.h"
#include "services/web/web_server.h"

namespace {

int Run(int argc, char** argv) {
  CLI::App app{"arbiterd: the Arbiter gRPC server (games, verdicts, audits)"};
  arbiter::arbiterd::DatabaseOptions db_options;
  arbiter::server::ServerOptions options;
  int grace_seconds = 30;
  std::string log_level = "info";
  std::string transparency_key;
  std::string log_origin = "arbiter.local/log";
  double checkpoint_seconds = 10;
  app.add_option("--data-dir", db_options.data_dir,
                 "Directory of the embedded PostgreSQL and of admin.token")
      ->capture_default_str();
  app.add_option("--database", db_options.url,
                 "PostgreSQL connection string or URL (default: the embedded cluster)")
      ->envname("ARBITER_DATABASE_URL");
  app.add_option("--db-connections", db_options.max_connections,
                 "Connections to PostgreSQL at most, shared by the stores, token look-ups and "
                 "the transparency log (the store's follower has one more of its own); further "
                 "calls wait for one")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  app.add_option("--listen", options.listen, "Address to listen on (host:port)")
      ->capture_default_str();
  app.add_option("--tls-cert", options.tls_cert_file, "TLS certificate chain (PEM)")
      ->check(CLI::ExistingFile);
  app.add_option("--tls-key", options.tls_key_file, "TLS private key (PEM)")
      ->check(CLI::ExistingFile);
  app.add_flag("--insecure", options.insecure,
               "Allow plaintext on a non-loopback --listen address (only behind a proxy that "
               "terminates TLS: tokens would otherwise cross the network in clear)");
  app.add_option("--max-message-bytes", options.max_message_bytes,
                 "Largest request or answer, in bytes")
      ->capture_default_str()
      ->check(CLI::Range(1024, 1 << 30));
  app.add_option("--memory-quota-bytes", options.memory_quota_bytes,
                 "Memory gRPC may use for calls in flight (a grpc::ResourceQuota)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{64} << 20, int64_t{1} << 40));
  app.add_option("--max-threads", options.max_threads,
                 "Threads serving calls at most; further calls are refused (RESOURCE_EXHAUSTED)")
      ->capture_default_str()
      ->check(CLI::Range(8, 100'000));
  app.add_option("--max-events-per-game", options.limits.max_events_per_game,
                 "Most events one game may hold")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{2}, int64_t{100'000'000}));
  bool no_table_json = false;
  app.add_flag("--no-json-copy-for-tournament-tables", no_table_json,
               "Appends to tournament tables' games store no readable JSON copy of their events "
               "(the payload and its hash are the record either way)");
  app.add_option("--shutdown-grace", grace_seconds,
                 "Seconds calls in flight get to finish on SIGTERM")
      ->capture_default_str();
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error")
      ->capture_default_str();
  app.add_option("--transparency-key", transparency_key,
                 "Ed25519 key (PEM) that signs the transparency log's checkpoints; created on "
                 "first start (default: <data dir>/transparency.key; the verifier key is written "
                 "beside it as .pub)");
  app.add_option("--log-origin", log_origin,
                 "Name of the transparency log, written in every checkpoint (docs/transparency.md)")
      ->capture_default_str();
  app.add_option("--checkpoint-interval", checkpoint_seconds,
                 "Seconds between signed checkpoints while the log grows")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 86400.0));
  double reveal_sweep_seconds = 60;
  app.add_option("--reveal-sweep-seconds", reveal_sweep_seconds,
                 "Seconds between sweeps that void sealed games whose seed was not revealed by "
                 "their deadline (0: off)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  arbiter::web::WebOptions web_options;
  app.add_option("--http-listen", web_options.listen,
                 "Address of the read-only website (host:port; empty: no website)")
      ->capture_default_str();
  app.add_option("--http-threads", web_options.threads, "Threads serving web requests")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  app.add_option("--http-rate", web_options.rate,
                 "Web requests per second per client address, on average (0: no limit)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
  app.add_option("--http-burst", web_options.burst,
                 "Web requests a client address may make at once")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 1e9));
  CLI11_PARSE(app, argc, argv);
  web_options.max_body_bytes = arbiter::server::kSmallRequestBytes;
  options.limits.max_log_bytes = options.max_message_bytes;
  options.limits.json_copy_for_tournament_games = !no_table_json;
  spdlog::set_default_logger(spdlog::stderr_color_mt("arbiterd"));
  spdlog::set_level(spdlog::level::from_str(log_level));

  // Signals are taken by sigwait below, never by a handler on a random thread.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto registry = arbiter::engine::RulesetRegistry::WithBuiltins();
  if (!registry.ok()) {
    spdlog::critical("rulesets: {}", std::string(registry.status().message()));
    return 1;
  }
  spdlog::info("opening the database ({})",
               db_options.url.empty() ? "embedded, in " + db_options.data_dir + "/postgres"
                                      : "from --database");
  auto db = arbiter::arbiterd::OpenDatabase(db_options);
  if (!db.ok()) {
    spdlog::critical("database: {}", std::string(db.status().message()));
    return 1;
  }
  auto token_file = arbiter::arbiterd::BootstrapAdminToken(*db->tokens, db_options.data_dir);
  if (!token_file.ok()) {
    spdlog::critical("admin token: {}", std::string(token_file.status().message()));
    return 1;
  }
  // The transparency log: its signing key outside the database, created on
  // the first start like the admin token.
  if (transparency_key.empty()) transparency_key = db_options.data_dir + "/transparency.key";
  auto key = arbiter::transparency::LoadOrCreateKey(transparency_key, log_origin);
  if (!key.ok()) {
    spdlog::critical("transparency key: {}", std::string(key.status().message()));
    return 1;
  }
  if (key->created) {
    std::printf("First start: wrote the checkpoint signing key to %s (mode 0600); auditors verify "
                "with %s.\n",
                key->key_path.c_str(), key->public_key_path.c_str());
  }
  arbiter::transparency::TransparencyLog transparency(db->events->pool(), key->signer);
  transparency.Start(absl::Milliseconds(200), absl::Seconds(checkpoint_seconds));
  // Leagues: their logs in the same database, and the projector that keeps
  // their ratings up to date with the store.
  arbiter::store::PostgresStreamStore streams(db->events->pool());
  arbiter::league::ProjectionStore projections(db->events->pool());
  arbiter::league::LeagueProjector projector(*db->events, streams, projections);
  projector.Start();
  arbiter::server::LeagueParts leagues{&streams, &projections, &projector};
  std::optional<arbiter::games::RevealSweeper> sweeper;
  if (reveal_sweep_seconds > 0) {
    sweeper.emplace(*db->events, absl::Seconds(reveal_sweep_seconds));
    sweeper->Start();
  }
  auto server =
      arbiter::server::ArbiterServer::Start(options, *db->events, *db->tokens, *registry, &leagues,
                                            &transparency);
  if (!server.ok()) {
    spdlog::critical("{}", std::string(server.status().message()));
    return 1;
  }
  // The website: the public role's view, through the in-process channel.
  std::unique_ptr<arbiter::web::WebServer> web;
  if (!web_options.listen.empty()) {
    auto web_token = (*server)->AddInProcessToken(arbiter::store::Role::kPublic, "web");
    if (!web_token.ok()) {
      spdlog::critical("web token: {}", std::string(web_token.status().message()));
      return 1;
    }
    auto started = arbiter::web::WebServer::Start(web_options, (*server)->InProcessChannel(),
                                                  *web_token);
    if (!started.ok()) {
      spdlog::critical("{}", std::string(started.status().message()));
      return 1;
    }
    web = std::move(*started);
  }
  const bool tls = !options.tls_cert_file.empty();
  std::string host = options.listen.substr(0, options.listen.rfind(':'));
  const std::string address = host + ":" + std::to_string((*server)->port());
  if (token_file->has_value()) {
    std::printf("First start: wrote a bootstrap admin token to %s (mode 0600).\n",
                (*token_file)->c_str());
  }
  std::printf(
      "arbiterd is listening on %s (%s).\n"
      "Connect with:\n"
      "  arbiter games --server %s%s --token-file %s/admin.token\n"
      "  grpcurl %s-H \"authorization: Bearer $(cat %s/admin.token)\" %s list\n",
      address.c_str(), tls ? "TLS" : "plaintext", address.c_str(), tls ? " --tls" : "",
      db_options.data_dir.c_str(), tls ? "" : "-plaintext ", db_options.data_dir.c_str(),
      address.c_str());
  if (web != nullptr) {
    std::string web_host = web_options.listen.substr(0, web_options.listen.rfind(':'));
    if (web_host.empty() || web_host == "0.0.0.0") web_host = "127.0.0.1";
    std::printf("The website is at http://%s:%d/\n", web_host.c_str(), web->port());
  }
  std::fflush(stdout);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  spdlog::info("signal {}: shutting down (calls in flight get {}s)", signal_number, grace_seconds);
  if (web != nullptr) web->Stop();
  (*server)->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(grace_seconds));
  server->reset();
  if (sweeper.has_value()) sweeper->Stop();
  projector.Stop();
  transparency.Stop();
  db->tokens.reset();
  db->events.reset();
  if (db->embedded != nullptr) {
    if (absl::Status s = db->embedded->Stop(); !s.ok()) {
      spdlog::error("stopping PostgreSQL: {}", std::string(s.message()));
    }
  }
  spdlog::info("stopped");
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
