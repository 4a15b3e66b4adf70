// Load program for arbiterd: SubmitGame of simulated games (store, replay,
// standings) with 1, 8 and 32 concurrent clients, then AdjudicateGame of one
// stored game. Prints games per second and latency percentiles.
//
// By default it starts its own server in this process, on a private embedded
// PostgreSQL cluster (durable commits, as arbiterd runs). With --server and
// --token it loads a running arbiterd instead.
//
// With --league, every game is submitted into a league whose ratings the
// server's projector keeps up to date, and the projector's lag (how long
// after the store held a result the ratings included it) is printed too.
//
//   build/bin/service_load [--seconds 5] [--clients 1,8,32] [--league]
//                          [--server H:P --token T]
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "services/access/token_format.h"
#include "services/store/postgres_token_store.h"
#include "services/log/log_file.h"
#include "services/replay/simulate.h"
#include "services/access/permissions.h"
#include "services/server/server.h"
#include "services/store/embedded_postgres.h"
#include "services/store/migrations.h"
#include "services/league/league_projector.h"
#include "services/league/league_settings.h"
#include "services/store/postgres_event_store.h"
#include "services/store/postgres_stream_store.h"

namespace {

using Clock = std::chrono::steady_clock;

// The league games are submitted into; empty: none.
std::string g_league;

struct Figures {
  double per_second = 0;
  double p50_ms = 0;
  double p99_ms = 0;
  int64_t calls = 0;
  int64_t errors = 0;
};

Figures Summarise(std::vector<double>& latencies_ms, double seconds, int64_t errors) {
  Figures f;
  f.calls = static_cast<int64_t>(latencies_ms.size());
  f.errors = errors;
  f.per_second = static_cast<double>(f.calls) / seconds;
  if (latencies_ms.empty()) return f;
  std::sort(latencies_ms.begin(), latencies_ms.end());
  auto at = [&](double q) {
    return latencies_ms[std::min(latencies_ms.size() - 1,
                                 static_cast<std::size_t>(q * static_cast<double>(latencies_ms.size())))];
  };
  f.p50_ms = at(0.50);
  f.p99_ms = at(0.99);
  return f;
}

std::unique_ptr<grpc::ClientContext> Context(const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->AddMetadata("authorization", "Bearer " + token);
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  return context;
}

// CPU seconds used so far by this process (the server and the load
// clients when the server runs in-process).
double ProcessCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// CPU seconds used so far by each process of this machine named "postgres"
// (with the reaped children of each), by pid, from /proc.
std::map<int, double> PostgresCpuSeconds() {
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  std::map<int, double> by_pid;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    std::ifstream in(entry.path() / "stat");
    std::string line;
    if (!in || !std::getline(in, line)) continue;
    const std::size_t open = line.find('('), close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    if (line.substr(open + 1, close - open - 1) != "postgres") continue;
    std::istringstream fields(line.substr(close + 2));
    std::string field;
    double total = 0;
    // Fields after the name: state is field 3; utime..cstime are 14..17.
    for (int number = 3; number <= 17 && fields >> field; ++number) {
      if (number >= 14) total += std::strtod(field.c_str(), nullptr) / tick;
    }
    by_pid[std::atoi(line.c_str())] = total;
  }
  return by_pid;
}

// The postgres CPU seconds used between two samples. A process that ended
// in between counts through its parent's reaped-children time (a backend
// through the postmaster); one that ended without a postgres parent (another
// cluster stopping) is left out rather than counted as negative time.
double PostgresCpuSecondsSince(const std::map<int, double>& before) {
  double total = 0;
  for (const auto& [pid, seconds] : PostgresCpuSeconds()) {
    auto earlier = before.find(pid);
    total += seconds - (earlier == before.end() ? 0 : earlier->second);
  }
  return total;
}

// `clients` threads, each with its own channel, submitting for `seconds`.
Figures LoadSubmit(const std::string& address, const std::string& token,
                   const std::vector<std::string>& logs, int clients, double seconds,
                   const std::string& run) {
  std::vector<std::vector<double>> latencies(static_cast<std::size_t>(clients));
  std::atomic<int64_t> errors{0};
  const Clock::time_point end =
      Clock::now() + std::chrono::microseconds(static_cast<int64_t>(seconds * 1e6));
  std::vector<std::thread> threads;
  const Clock::time_point start = Clock::now();
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      auto stub = arbiter::v1::ArbiterService::NewStub(
          grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
      for (int64_t i = 0; Clock::now() < end; ++i) {
        arbiter::v1::SubmitGameRequest request;
        request.set_request_id(absl::StrCat(run, "-c", c, "-", i));
        request.set_log(logs[static_cast<std::size_t>(c * 7919 + i) % logs.size()]);
        request.set_league(g_league);
        arbiter::v1::SubmitGameResponse response;
        const Clock::time_point t0 = Clock::now();
        grpc::Status status = stub->SubmitGame(Context(token).get(), request, &response);
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        if (status.ok()) {
          latencies[static_cast<std::size_t>(c)].push_back(ms);
        } else if (++errors == 1) {
          std::fprintf(stderr, "SubmitGame: %s\n", status.error_message().c_str());
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<double> all;
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  return Summarise(all, elapsed, errors.load());
}

Figures LoadAdjudicate(const std::string& address, const std::string& token,
                       const std::string& game, int calls) {
  auto stub = arbiter::v1::ArbiterService::NewStub(
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  std::vector<double> latencies;
  int64_t errors = 0;
  const Clock::time_point start = Clock::now();
  for (int i = 0; i < calls; ++i) {
    arbiter::v1::AdjudicateGameRequest request;
    request.set_name(game);
    arbiter::v1::Adjudication response;
    const Clock::time_point t0 = Clock::now();
    grpc::Status status = stub->AdjudicateGame(Context(token).get(), request, &response);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (status.ok()) {
      latencies.push_back(ms);
    } else {
      ++errors;
    }
  }
  return Summarise(latencies, std::chrono::duration<double>(Clock::now() - start).count(), errors);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Load program for arbiterd (SubmitGame and AdjudicateGame)"};
  double seconds = 5;
  std::vector<int> client_counts = {1, 8, 32};
  std::string server;
  std::string token;
  int players = 3;
  std::string pg_config;
  app.add_option("--seconds", seconds, "Seconds per client count")->capture_default_str();
  app.add_option("--clients", client_counts, "Concurrent clients to try")->delimiter(',');
  app.add_option("--server", server, "Load a running arbiterd (default: one in this process)");
  app.add_option("--token", token, "Organiser or admin token for --server");
  app.add_option("--players", players, "Players per simulated atlantis game")->capture_default_str();
  int db_connections = arbiter::store::PostgresOptions{}.max_connections;
  app.add_option("--db-connections", db_connections,
                 "Connections the in-process server's store opens at most (arbiterd --db-connections)")
      ->capture_default_str();
  bool league = false;
  app.add_flag("--league", league,
               "Submit into a league and measure the league projector's lag (own server only)");
  app.add_option("--pg-config", pg_config,
                 "Extra postgresql.conf lines for the private cluster (diagnosis only, e.g. "
                 "\"synchronous_commit = off\" to see what durable commits cost)");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);  // one line per call would measure the terminal

  auto registry = arbiter::engine::RulesetRegistry::WithBuiltins();
  if (!registry.ok()) return 1;
  std::vector<std::string> logs;
  std::size_t events = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    arbiter::replay::SimulationRequest request{"atlantis", players, seed, "", {}};
    auto log = arbiter::replay::SimulateGame(request, *registry);
    if (!log.ok()) {
      std::fprintf(stderr, "simulate: %s\n", std::string(log.status().message()).c_str());
      return 1;
    }
    events += log->actions.size() + 1;
    logs.push_back(arbiter::log::FormatLog(*log));
  }

  std::unique_ptr<arbiter::store::EmbeddedPostgres> pg;
  std::unique_ptr<arbiter::store::PostgresEventStore> store;
  std::unique_ptr<arbiter::store::PostgresTokenStore> tokens;
  std::unique_ptr<arbiter::server::ArbiterServer> local;
  std::unique_ptr<arbiter::store::PostgresStreamStore> streams;
  std::unique_ptr<arbiter::league::ProjectionStore> projections;
  std::unique_ptr<arbiter::league::LeagueProjector> projector;
  arbiter::server::LeagueParts parts;
  if (server.empty()) {
    arbiter::store::EmbeddedPostgresOptions pg_options;
    pg_options.extra_config = pg_config;
    auto started = arbiter::store::EmbeddedPostgres::Start(pg_options);
    if (!started.ok()) {
      std::fprintf(stderr, "postgres: %s\n", std::string(started.status().message()).c_str());
      return 1;
    }
    pg = *std::move(started);
    if (!arbiter::store::ApplyMigrations(pg->conninfo()).ok()) return 1;
    arbiter::store::PostgresOptions options;
    options.conninfo = pg->conninfo();
    options.max_connections = db_connections;
    store = *arbiter::store::PostgresEventStore::Open(options);
    tokens = std::make_unique<arbiter::store::PostgresTokenStore>(store->pool());
    auto new_token = arbiter::access::GenerateToken();
    new_token->record.role = arbiter::store::Role::kAdmin;
    new_token->record.principal = "load";
    new_token->record.created_by = "load";
    if (!tokens->Insert(new_token->record).ok()) return 1;
    token = new_token->token;
    arbiter::server::ServerOptions server_options;
    server_options.listen = "127.0.0.1:0";
    if (league) {
      streams = std::make_unique<arbiter::store::PostgresStreamStore>(store->pool());
      projections = std::make_unique<arbiter::league::ProjectionStore>(store->pool());
      projector = std::make_unique<arbiter::league::LeagueProjector>(*store, *store, *streams,
                                                                     *projections);
      arbiter::v1::LeagueCreated created;
      created.mutable_settings()->add_game_types("atlantis");
      arbiter::store::StreamAppendRequest append;
      append.stream_id = "leagues/load";
      append.kind = arbiter::league::kLeagueKind;
      append.request_id = "create-load";
      append.recorded_by = "load";
      append.type = arbiter::league::kTypeLeagueCreated;
      created.SerializeToString(&append.payload);
      if (!streams->Append(append).ok()) return 1;
      parts = arbiter::server::LeagueParts{streams.get(), projections.get(), projector.get()};
      projector->Start();
      g_league = "load";
    }
    local = *arbiter::server::ArbiterServer::Start(server_options, *store, *store, *tokens,
                                                   *registry, league ? &parts : nullptr);
    server = absl::StrCat("127.0.0.1:", local->port());
  }

  std::printf("SubmitGame: simulated atlantis games, %d players, %.1f events per game on average\n",
              players, static_cast<double>(events) / static_cast<double>(logs.size()));
  std::printf("CPU per game: this process (server and clients) and every postgres process of "
              "the machine\n");
  std::printf("%8s %12s %10s %10s %8s %14s %14s\n", "clients", "games/s", "p50 ms", "p99 ms",
              "errors", "process ms", "postgres ms");
  for (int clients : client_counts) {
    const double process_before = ProcessCpuSeconds();
    const std::map<int, double> postgres_before = PostgresCpuSeconds();
    // The projector's lag: sampled store heads and projected positions; a
    // projected position's lag is the time since the store first held it.
    std::vector<std::pair<Clock::time_point, int64_t>> heads, projected;
    std::atomic<bool> sampling{projector != nullptr};
    std::thread sampler([&] {
      while (sampling.load()) {
        auto head = store->HeadPosition();
        if (head.ok()) heads.emplace_back(Clock::now(), *head);
        projected.emplace_back(Clock::now(), projector->position());
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    });
    Figures f = LoadSubmit(server, token, logs, clients, seconds, absl::StrCat("run", clients));
    sampling = false;
    sampler.join();
    const double games = static_cast<double>(std::max<int64_t>(f.calls, 1));
    const double process_ms = (ProcessCpuSeconds() - process_before) * 1000 / games;
    const double postgres_ms = PostgresCpuSecondsSince(postgres_before) * 1000 / games;
    std::printf("%8d %12.0f %10.2f %10.2f %8lld %14.3f %14.3f\n", clients, f.per_second, f.p50_ms,
                f.p99_ms, static_cast<long long>(f.errors), process_ms, postgres_ms);
    if (projector != nullptr && !projected.empty()) {
      // At each sample, how long the oldest event the ratings do not yet
      // include has been in the store (0 when they have caught up).
      std::vector<double> trailing;
      for (const auto& [when, position] : projected) {
        std::size_t first_ahead = 0;
        while (first_ahead < heads.size() && heads[first_ahead].second <= position) ++first_ahead;
        if (first_ahead == heads.size() || heads[first_ahead].first > when) {
          trailing.push_back(0);
        } else {
          trailing.push_back(
              std::chrono::duration<double, std::milli>(when - heads[first_ahead].first).count());
        }
      }
      std::sort(trailing.begin(), trailing.end());
      std::printf("%8s projector lag behind the store: p50 %.0f ms, p99 %.0f ms, max %.0f ms "
                  "(%zu samples every 10 ms)\n",
                  "", trailing[trailing.size() / 2], trailing[trailing.size() * 99 / 100],
                  trailing.back(), trailing.size());
    }
    std::fflush(stdout);
  }

  arbiter::v1::SubmitGameRequest request;
  request.set_request_id("adjudicate-target");
  request.set_game_id("adjudicate-target");
  request.set_log(logs[0]);
  arbiter::v1::SubmitGameResponse response;
  auto stub = arbiter::v1::ArbiterService::NewStub(
      grpc::CreateChannel(server, grpc::InsecureChannelCredentials()));
  grpc::Status status = stub->SubmitGame(Context(token).get(), request, &response);
  if (!status.ok()) {
    std::fprintf(stderr, "SubmitGame: %s\n", status.error_message().c_str());
    return 1;
  }
  Figures f = LoadAdjudicate(server, token, response.game().name(), 2000);
  std::printf("AdjudicateGame of one stored game (%lld events), 1 client: %.0f calls/s, "
              "p50 %.2f ms, p99 %.2f ms, %lld errors\n",
              static_cast<long long>(response.game().last_event()), f.per_second, f.p50_ms,
              f.p99_ms, static_cast<long long>(f.errors));
  if (local != nullptr) local->Shutdown(std::chrono::system_clock::now());
  return 0;
}
