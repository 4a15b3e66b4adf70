// Live play through arbiterd: the store's hot path once players play
// through Arbiter (docs/benchmarks.md).
//
// BM_LiveMoves, with 1, 8 and 64 client threads: each thread is the client
// of one game in play (3-player Atlantis, simulated before the timing) and
// sends its moves one AppendActions call each, with the game's last event as
// expected_last_event and a request id of its own, as a table page does.
// The server checks every action by the rules before it is stored, durably
// (an in-process arbiterd on a private PostgreSQL with synchronous commits).
// A game played to its end is replaced by a new one (its creation is timed
// but not counted). items_per_second is actions per second; p50_ms and
// p99_ms are each thread's percentiles of the call's round trip, averaged
// over the threads. own_connection:0 puts every thread's calls on one
// shared HTTP/2 connection (as every figure before 2026-11-28 did);
// own_connection:1 gives each thread a connection of its own, as the tables
// of an event have. Compare with bench/message_db_compare's one_event case,
// run in the same sitting.
//
//   build/bin/live_play_bench
#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "bench/bench_server.h"
#include "services/log/log_file.h"
#include "services/replay/simulate.h"

namespace {

using arbiter::bench::BenchContext;
namespace v1 = arbiter::v1;

constexpr char kProgram[] = "live_play_bench";

using World = arbiter::bench::BenchServer;

void Fail(const std::string& what) { arbiter::bench::BenchFail(kProgram, what); }

World& TheWorld() { return arbiter::bench::SharedBenchServer(kProgram); }

// A game to play: its simulated log, not yet created.
arbiter::log::GameLog Simulate(World& w, uint64_t seed) {
  arbiter::replay::SimulationRequest request{"atlantis", 3, seed, "", {}};
  absl::StatusOr<arbiter::log::GameLog> log =
      arbiter::replay::SimulateGame(request, *w.registry);
  if (!log.ok()) Fail(absl::StrCat("simulate: ", log.status().ToString()));
  return *std::move(log);
}

// Creates a live game for `script`; answers its id.
std::string Create(World& w, const arbiter::log::GameLog& script) {
  static std::atomic<int64_t> created{0};  // ids are unique per run
  const std::string id = absl::StrCat("live", ++created);
  arbiter::bench::CreateLiveGame(w, kProgram, script, id);
  return id;
}

// The stub a benchmark thread calls through: the shared connection's for
// own_connection:0, else one on a connection of its own, kept in `own`.
v1::ArbiterService::Stub& ClientStub(World& w, const benchmark::State& state,
                                     std::unique_ptr<v1::ArbiterService::Stub>& own) {
  if (state.range(0) == 0) return *w.games;
  own = v1::ArbiterService::NewStub(arbiter::bench::NewClientChannel(w, kProgram));
  return *own;
}

double Percentile(std::vector<double>& values, double q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(q * static_cast<double>(values.size() - 1))];
}

void BM_LiveMoves(benchmark::State& state) {
  World& w = TheWorld();
  constexpr int kScripts = 8;  // games simulated per thread before the timing
  std::vector<arbiter::log::GameLog> scripts;
  for (int s = 0; s < kScripts; ++s) {
    scripts.push_back(Simulate(w, 1000 * static_cast<uint64_t>(state.thread_index()) + s));
  }
  std::unique_ptr<v1::ArbiterService::Stub> own;
  v1::ArbiterService::Stub& stub = ClientStub(w, state, own);
  size_t script = 0;
  std::string game = Create(w, scripts[script]);
  size_t move = 0;
  int64_t last_event = 1;
  std::vector<double> ms;
  for (auto _ : state) {
    if (move == scripts[script].actions.size()) {
      script = (script + 1) % scripts.size();
      game = Create(w, scripts[script]);
      move = 0;
      last_event = 1;
    }
    v1::AppendActionsRequest append;
    append.set_game("games/" + game);
    append.set_expected_last_event(last_event);
    append.set_request_id(absl::StrCat(game, "-", move));
    *append.add_actions() = scripts[script].actions[move];
    v1::AppendActionsResponse response;
    const auto sent = std::chrono::steady_clock::now();
    grpc::Status status = stub.AppendActions(BenchContext(w.token).get(), append, &response);
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sent).count());
    if (!status.ok()) Fail(status.error_message());
    last_event = response.last_event();
    ++move;
  }
  state.SetItemsProcessed(state.iterations());
  if (ms.empty()) return;
  state.counters["p50_ms"] = benchmark::Counter(Percentile(ms, 0.50), benchmark::Counter::kAvgThreads);
  state.counters["p99_ms"] = benchmark::Counter(Percentile(ms, 0.99), benchmark::Counter::kAvgThreads);
}
BENCHMARK(BM_LiveMoves)
    ->ArgName("own_connection")
    ->Arg(0)
    ->Arg(1)
    ->Threads(1)
    ->Threads(8)
    ->Threads(64)
    ->UseRealTime()
    ->MinTime(5);

// The floor under BM_LiveMoves: the same call, signed in and routed as a
// write, but refused by its own checks (expected_last_event 0) before any
// store work. Its rate is what this machine's cores give one action per
// AppendActions call with nothing stored: the ceiling of BM_LiveMoves here,
// on one shared connection or on one per client (own_connection, as above).
void BM_CallRefusedBeforeTheStore(benchmark::State& state) {
  World& w = TheWorld();
  const arbiter::log::GameLog script = Simulate(w, 7);
  v1::AppendActionsRequest append;
  append.set_game("games/floor");
  append.set_expected_last_event(0);
  append.set_request_id(absl::StrCat("floor-", state.thread_index()));
  *append.add_actions() = script.actions[0];
  std::unique_ptr<v1::ArbiterService::Stub> own;
  v1::ArbiterService::Stub& stub = ClientStub(w, state, own);
  // Each refusal is logged as a warning; the floor is of the call alone.
  if (state.thread_index() == 0) spdlog::set_level(spdlog::level::err);
  for (auto _ : state) {
    v1::AppendActionsResponse response;
    grpc::Status status = stub.AppendActions(BenchContext(w.token).get(), append, &response);
    if (status.error_code() != grpc::StatusCode::INVALID_ARGUMENT) {
      Fail(absl::StrCat("expected INVALID_ARGUMENT, got ", status.error_message()));
    }
  }
  state.SetItemsProcessed(state.iterations());
  if (state.thread_index() == 0) spdlog::set_level(spdlog::level::warn);
}
BENCHMARK(BM_CallRefusedBeforeTheStore)
    ->ArgName("own_connection")
    ->Arg(0)
    ->Arg(1)
    ->Threads(8)
    ->Threads(64)
    ->UseRealTime()
    ->MinTime(5);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  // Started here, on the main thread: the embedded PostgreSQL stops when the
  // thread that started it ends (PR_SET_PDEATHSIG), and the benchmark's
  // worker threads end after each run.
  TheWorld();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
