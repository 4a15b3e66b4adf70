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
// run in the same sitting. BM_StreamedMoves is the same play with each
// thread's moves on one StreamAppendActions stream of its own (a request
// message and its answer per action) instead of one call each.
// BM_CallRefusedBeforeTheStore and BM_StreamRefusedBeforeTheStore are their
// floors: the same traffic refused before any store work.
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

// One benchmark thread's table: the games it plays in turn (simulated
// before the timing) and where it is in the current one.
class Table {
 public:
  Table(World& w, const benchmark::State& state) : w_(w) {
    constexpr int kScripts = 8;
    for (int s = 0; s < kScripts; ++s) {
      scripts_.push_back(Simulate(w, 1000 * static_cast<uint64_t>(state.thread_index()) + s));
    }
    game_ = Create(w, scripts_[script_]);
  }

  // The next move's append (a new game first, if the last one ended).
  v1::AppendActionsRequest NextAppend() {
    if (move_ == scripts_[script_].actions.size()) {
      script_ = (script_ + 1) % scripts_.size();
      game_ = Create(w_, scripts_[script_]);
      move_ = 0;
      last_event_ = 1;
    }
    v1::AppendActionsRequest append;
    append.set_game("games/" + game_);
    append.set_expected_last_event(last_event_);
    append.set_request_id(absl::StrCat(game_, "-", move_));
    *append.add_actions() = scripts_[script_].actions[move_];
    return append;
  }

  void Stored(const v1::AppendActionsResponse& response) {
    last_event_ = response.last_event();
    ++move_;
  }

 private:
  World& w_;
  std::vector<arbiter::log::GameLog> scripts_;
  size_t script_ = 0;
  std::string game_;
  size_t move_ = 0;
  int64_t last_event_ = 1;
};

// Round trips in ms, as the two percentile counters.
void ReportLatency(benchmark::State& state, std::vector<double>& ms) {
  state.SetItemsProcessed(state.iterations());
  if (ms.empty()) return;
  state.counters["p50_ms"] = benchmark::Counter(Percentile(ms, 0.50), benchmark::Counter::kAvgThreads);
  state.counters["p99_ms"] = benchmark::Counter(Percentile(ms, 0.99), benchmark::Counter::kAvgThreads);
}

double MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// Both live-play benchmarks' cases: a shared connection or one each, with
// 1, 8 and 64 games in play.
void GamesInPlay(benchmark::internal::Benchmark* b) {
  b->ArgName("own_connection")->Arg(0)->Arg(1)->Threads(1)->Threads(8)->Threads(64);
  b->UseRealTime()->MinTime(5);
}

void BM_LiveMoves(benchmark::State& state) {
  World& w = TheWorld();
  Table table(w, state);
  std::unique_ptr<v1::ArbiterService::Stub> own;
  v1::ArbiterService::Stub& stub = ClientStub(w, state, own);
  std::vector<double> ms;
  for (auto _ : state) {
    const v1::AppendActionsRequest append = table.NextAppend();
    v1::AppendActionsResponse response;
    const auto sent = std::chrono::steady_clock::now();
    grpc::Status status = stub.AppendActions(BenchContext(w.token).get(), append, &response);
    ms.push_back(MsSince(sent));
    if (!status.ok()) Fail(status.error_message());
    table.Stored(response);
  }
  ReportLatency(state, ms);
}
BENCHMARK(BM_LiveMoves)->Apply(GamesInPlay);

// BM_LiveMoves with each thread's appends on one StreamAppendActions
// stream of its own (all streams on the shared connection, or each on a
// connection of its own): one request message and its answer per action.
void BM_StreamedMoves(benchmark::State& state) {
  World& w = TheWorld();
  Table table(w, state);
  std::unique_ptr<v1::ArbiterService::Stub> own;
  v1::ArbiterService::Stub& stub = ClientStub(w, state, own);
  std::unique_ptr<grpc::ClientContext> context = BenchContext(w.token);
  auto stream = stub.StreamAppendActions(context.get());
  std::vector<double> ms;
  for (auto _ : state) {
    const v1::AppendActionsRequest append = table.NextAppend();
    v1::AppendActionsOutcome outcome;
    const auto sent = std::chrono::steady_clock::now();
    if (!stream->Write(append) || !stream->Read(&outcome)) Fail("the stream ended");
    ms.push_back(MsSince(sent));
    if (!outcome.has_appended()) Fail(outcome.refused().message());
    table.Stored(outcome.appended());
  }
  stream->WritesDone();
  if (grpc::Status status = stream->Finish(); !status.ok()) Fail(status.error_message());
  ReportLatency(state, ms);
}
BENCHMARK(BM_StreamedMoves)->Apply(GamesInPlay);

// An append to game "floor" that the server refuses by its own checks
// (expected_last_event 0), signed in and routed as a write, before any
// store work.
v1::AppendActionsRequest RefusedAppend(World& w, const benchmark::State& state) {
  const arbiter::log::GameLog script = Simulate(w, 7);
  v1::AppendActionsRequest append;
  append.set_game("games/floor");
  append.set_expected_last_event(0);
  append.set_request_id(absl::StrCat("floor-", state.thread_index()));
  *append.add_actions() = script.actions[0];
  return append;
}

// Each refusal is logged as a warning; a floor is of the call alone.
void QuietRefusals(const benchmark::State& state, bool quiet) {
  if (state.thread_index() == 0) {
    spdlog::set_level(quiet ? spdlog::level::err : spdlog::level::warn);
  }
}

// The floor under BM_LiveMoves: the same call, refused before any store
// work (RefusedAppend). Its rate is what this machine's cores give one
// action per AppendActions call with nothing stored: the ceiling of
// BM_LiveMoves here, on one shared connection or on one per client
// (own_connection, as above).
void BM_CallRefusedBeforeTheStore(benchmark::State& state) {
  World& w = TheWorld();
  const v1::AppendActionsRequest append = RefusedAppend(w, state);
  std::unique_ptr<v1::ArbiterService::Stub> own;
  v1::ArbiterService::Stub& stub = ClientStub(w, state, own);
  QuietRefusals(state, true);
  for (auto _ : state) {
    v1::AppendActionsResponse response;
    grpc::Status status = stub.AppendActions(BenchContext(w.token).get(), append, &response);
    if (status.error_code() != grpc::StatusCode::INVALID_ARGUMENT) {
      Fail(absl::StrCat("expected INVALID_ARGUMENT, got ", status.error_message()));
    }
  }
  state.SetItemsProcessed(state.iterations());
  QuietRefusals(state, false);
}

// The floor under BM_StreamedMoves: each thread's RefusedAppend sent over
// and over on one stream of its own, each answered by its refusal (the
// stream's authentication, worker hand-off and answer, with nothing
// stored). The ceiling of BM_StreamedMoves on this machine.
void BM_StreamRefusedBeforeTheStore(benchmark::State& state) {
  World& w = TheWorld();
  const v1::AppendActionsRequest append = RefusedAppend(w, state);
  std::unique_ptr<v1::ArbiterService::Stub> own;
  v1::ArbiterService::Stub& stub = ClientStub(w, state, own);
  std::unique_ptr<grpc::ClientContext> context = BenchContext(w.token);
  auto stream = stub.StreamAppendActions(context.get());
  QuietRefusals(state, true);
  for (auto _ : state) {
    v1::AppendActionsOutcome outcome;
    if (!stream->Write(append) || !stream->Read(&outcome)) Fail("the stream ended");
    if (outcome.refused().code() != grpc::StatusCode::INVALID_ARGUMENT) {
      Fail(absl::StrCat("expected INVALID_ARGUMENT, got ", outcome.refused().message()));
    }
  }
  stream->WritesDone();
  if (grpc::Status status = stream->Finish(); !status.ok()) Fail(status.error_message());
  state.SetItemsProcessed(state.iterations());
  QuietRefusals(state, false);
}

void Floors(benchmark::internal::Benchmark* b) {
  b->ArgName("own_connection")->Arg(0)->Arg(1)->Threads(8)->Threads(64);
  b->UseRealTime()->MinTime(5);
}
BENCHMARK(BM_CallRefusedBeforeTheStore)->Apply(Floors);
BENCHMARK(BM_StreamRefusedBeforeTheStore)->Apply(Floors);

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
