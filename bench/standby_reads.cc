// standby_reads: reads served by 0, 1 and 2 hot standbys, and the wait of
// read-your-writes (docs/replication.md, "Reads from standbys";
// docs/benchmarks.md has the figures and the command).
//
// One process: a primary (the embedded launcher, in a temporary directory),
// two hot standbys of it (pg_basebackup -R, tests/services/store/
// hot_standby.h), and one ArbiterServer per phase, on the same store, whose
// read databases are the first 0, 1 or 2 standbys. Each phase:
//   - `clients` threads call GetGame and ListEvents of random stored games
//     without a token for `seconds`: reads per second, latency p50/p99, and
//     the share of them that a standby served (the server's own count);
//   - then one writer submits a game and at once reads it back with the
//     write's arbiter-read-after, `writes` times, while the readers go on:
//     that read's latency p50/p99, the fallbacks to the primary, and the
//     standby wait's p50/p99 from the server's histogram (bucket bounds).
// Not a Google Benchmark program: it prints one block per phase.
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include <pqxx/pqxx>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "bench/bench_server.h"
#include "services/log/log_file.h"
#include "services/replay/simulate.h"
#include "services/server/read_routing.h"
#include "services/store/pg/standby_reads.h"
#include "tests/services/store/hot_standby.h"

namespace arbiter::bench {
namespace {

constexpr char kProgram[] = "standby_reads";

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, static_cast<std::size_t>(p * values.size()))];
}

// The upper bound of the histogram bucket holding quantile `p` (as
// Prometheus' histogram_quantile would say at most).
double BucketQuantile(const store::pg::StandbyReadStats& stats, double p) {
  if (stats.waits == 0) return 0;
  const double rank = p * static_cast<double>(stats.waits);
  for (std::size_t i = 0; i < stats.wait_buckets.size(); ++i) {
    if (static_cast<double>(stats.wait_buckets[i]) >= rank) {
      return store::pg::StandbyReadStats::kWaitBounds[i];
    }
  }
  return INFINITY;
}

std::string SubmitGame(BenchServer& bench, v1::ArbiterService::Stub& stub, uint64_t seed,
                       const std::string& game_id, std::string* read_after = nullptr) {
  replay::SimulationRequest simulation;
  simulation.game = "atlantis";
  simulation.players = 3;
  simulation.seed = seed;
  absl::StatusOr<log::GameLog> log = replay::SimulateGame(simulation, *bench.registry);
  if (!log.ok()) BenchFail(kProgram, std::string(log.status().message()));
  v1::SubmitGameRequest request;
  request.set_request_id(game_id);
  request.set_game_id(game_id);
  request.set_log(log::FormatLog(*log));
  v1::SubmitGameResponse response;
  std::unique_ptr<grpc::ClientContext> context = BenchContext(bench.token);
  grpc::Status status = stub.SubmitGame(context.get(), request, &response);
  if (!status.ok()) BenchFail(kProgram, status.error_message());
  if (read_after != nullptr) {
    const auto& headers = context->GetServerInitialMetadata();
    auto it = headers.find(server::kReadAfterHeader);
    *read_after = it == headers.end() ? "" : std::string(it->second.data(), it->second.size());
  }
  return game_id;
}

struct Options {
  int clients = 8;
  double seconds = 10;
  int games = 200;
  int writes = 200;
};

void RunPhase(BenchServer& bench, const std::vector<std::string>& standbys, const Options& options,
              int phase) {
  std::unique_ptr<store::pg::StandbyReads> reads;
  if (!standbys.empty()) {
    store::pg::StandbyReadOptions read_options;
    read_options.conninfos = standbys;
    reads = std::make_unique<store::pg::StandbyReads>(bench.store->pool(), read_options);
  }
  server::ServerOptions server_options;
  server_options.listen = "127.0.0.1:0";
  auto started = server::ArbiterServer::Start(server_options, *bench.store, *bench.store,
                                              *bench.tokens, *bench.registry, nullptr, nullptr,
                                              reads.get());
  if (!started.ok()) BenchFail(kProgram, std::string(started.status().message()));
  std::unique_ptr<server::ArbiterServer> server = *std::move(started);
  std::shared_ptr<grpc::Channel> channel = grpc::CreateChannel(
      absl::StrCat("127.0.0.1:", server->port()), grpc::InsecureChannelCredentials());
  std::unique_ptr<v1::ArbiterService::Stub> stub = v1::ArbiterService::NewStub(channel);

  std::atomic<bool> stop{false};
  std::atomic<int64_t> failures{0};
  std::atomic<int64_t> reads_done{0};
  std::vector<std::vector<double>> latencies(options.clients);
  std::vector<std::thread> readers;
  const absl::Time start = absl::Now();
  for (int c = 0; c < options.clients; ++c) {
    readers.emplace_back([&, c] {
      std::mt19937 pick(static_cast<unsigned>(c + 1));
      while (!stop.load()) {
        const std::string game = absl::StrCat("games/g", pick() % options.games);
        const absl::Time t = absl::Now();
        grpc::Status status;
        if (pick() % 2 == 0) {
          v1::GetGameRequest request;
          request.set_name(game);
          v1::Game answer;
          status = stub->GetGame(BenchContext(bench.token).get(), request, &answer);
        } else {
          v1::ListEventsRequest request;
          request.set_parent(game);
          request.set_page_size(20);
          v1::ListEventsResponse answer;
          status = stub->ListEvents(BenchContext(bench.token).get(), request, &answer);
        }
        if (!status.ok()) ++failures;
        latencies[c].push_back(absl::ToDoubleMilliseconds(absl::Now() - t));
        ++reads_done;
      }
    });
  }
  absl::SleepFor(absl::Seconds(options.seconds));
  const absl::Duration elapsed = absl::Now() - start;
  std::vector<double> all;
  // Counted at the end of the read-only part; the readers go on as load.
  const int64_t count = reads_done.load();
  const int64_t on_standby = reads == nullptr ? 0 : reads->Stats().served_by_standby;

  // Read-your-writes under the same load.
  std::vector<double> ryw;
  for (int i = 0; i < options.writes && !standbys.empty(); ++i) {
    std::string read_after;
    const std::string id = SubmitGame(bench, *stub, 100000 + phase * 10000 + i,
                                      absl::StrCat("w", phase, "-", i), &read_after);
    std::unique_ptr<grpc::ClientContext> context = BenchContext(bench.token);
    context->AddMetadata(server::kReadAfterHeader, read_after);
    v1::GetGameRequest request;
    request.set_name(absl::StrCat("games/", id));
    v1::Game answer;
    const absl::Time t = absl::Now();
    grpc::Status status = stub->GetGame(context.get(), request, &answer);
    ryw.push_back(absl::ToDoubleMilliseconds(absl::Now() - t));
    if (!status.ok()) BenchFail(kProgram, "read-your-writes read: " + status.error_message());
  }
  stop = true;
  for (std::thread& t : readers) t.join();
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());

  std::printf("standbys=%zu clients=%d: %.0f reads/s over %.1f s (p50 %.2f ms, p99 %.2f ms, "
              "%lld failed); served by a standby: %.1f %%\n",
              standbys.size(), options.clients,
              static_cast<double>(count) / absl::ToDoubleSeconds(elapsed),
              absl::ToDoubleSeconds(elapsed), Percentile(all, 0.5), Percentile(all, 0.99),
              static_cast<long long>(failures.load()),
              count == 0 ? 0.0 : 100.0 * static_cast<double>(on_standby) / static_cast<double>(count));
  if (reads != nullptr) {
    const store::pg::StandbyReadStats stats = reads->Stats();
    std::printf("  read-your-writes: %zu reads with the write's token, latency p50 %.2f ms, p99 "
                "%.2f ms; standby wait p50 <= %.4g s, p99 <= %.4g s (histogram bounds), mean "
                "%.2f ms; fallbacks to the primary: %lld (lag), %lld (unreachable); reads served "
                "by a standby: %lld\n",
                ryw.size(), Percentile(ryw, 0.5), Percentile(ryw, 0.99),
                BucketQuantile(stats, 0.5), BucketQuantile(stats, 0.99),
                stats.waits == 0 ? 0.0 : 1000 * stats.wait_seconds_sum / stats.waits,
                static_cast<long long>(stats.fallbacks_lag),
                static_cast<long long>(stats.fallbacks_unreachable),
                static_cast<long long>(stats.served_by_standby));
  }
  std::fflush(stdout);
  server->Shutdown(std::chrono::system_clock::now());
}

}  // namespace
}  // namespace arbiter::bench

int main(int argc, char** argv) {
  using namespace arbiter;
  CLI::App app{"Reads served by 0, 1 and 2 hot standbys, and the read-your-writes wait"};
  bench::Options options;
  app.add_option("--clients", options.clients, "Reader threads")->capture_default_str();
  app.add_option("--seconds", options.seconds, "Seconds of reads per phase")
      ->capture_default_str();
  app.add_option("--games", options.games, "Games stored before the phases")
      ->capture_default_str();
  app.add_option("--writes", options.writes, "Writes read back with their token per phase")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  std::unique_ptr<bench::BenchServer> bench = bench::StartBenchServer(bench::kProgram);
  for (int i = 0; i < options.games; ++i) {
    bench::SubmitGame(*bench, *bench->games, static_cast<uint64_t>(i + 1), absl::StrCat("g", i));
  }
  std::vector<std::unique_ptr<store::testing::HotStandby>> standbys;
  for (int i = 0; i < 2; ++i) {
    auto standby = store::testing::HotStandby::Of(*bench->pg);
    if (!standby.ok()) bench::BenchFail(bench::kProgram, std::string(standby.status().message()));
    standbys.push_back(*std::move(standby));
    if (!standbys.back()->CatchUp()) bench::BenchFail(bench::kProgram, "a standby lags");
  }
  const std::string database = pqxx::connection(bench->pg->conninfo()).dbname();
  for (int n = 0; n <= 2; ++n) {
    std::vector<std::string> conninfos;
    for (int i = 0; i < n; ++i) conninfos.push_back(standbys[i]->ConninfoFor(database));
    bench::RunPhase(*bench, conninfos, options, n);
  }
  bench->server->Shutdown(std::chrono::system_clock::now());
  standbys.clear();
  return 0;
}
