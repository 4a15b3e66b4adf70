// AdjudicateGame over gRPC against a server in this process on a private
// embedded PostgreSQL: a stored 51-event game (simulated atlantis, 3 players,
// seed 1) adjudicated again and again while it does not change (answered by
// the judgement cache, without a database round trip once the store's
// follower has started; with 1, 2 and 4 client threads), and first reads (a
// different stored game each call). Counters: calls per second (of all
// threads), the median and 99th percentile call in milliseconds.
//
//   build/bin/adjudicate_bench
#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "bench/bench_server.h"
#include "services/log/log_file.h"
#include "services/replay/simulate.h"
#include "services/games/game_stream.h"

namespace {

using arbiter::bench::BenchContext;

constexpr int kFirstReadGames = 2000;

constexpr char kProgram[] = "adjudicate_bench";

struct World {
  std::unique_ptr<arbiter::bench::BenchServer> base;
  std::unique_ptr<arbiter::v1::ArbiterService::Stub> stub;
  int64_t target_events = 0;
};

void Fail(const std::string& what) { arbiter::bench::BenchFail(kProgram, what); }

World& TheWorld() {
  static World* const world = [] {
    auto* w = new World;
    w->base = arbiter::bench::StartBenchServer(kProgram);
    w->stub = arbiter::v1::ArbiterService::NewStub(w->base->channel);
    for (int i = 0; i <= kFirstReadGames; ++i) {
      arbiter::replay::SimulationRequest request{
          "atlantis", 3, static_cast<uint64_t>(1 + i % 200), "", {}};
      auto log = arbiter::replay::SimulateGame(request, *w->base->registry);
      if (!log.ok()) Fail("simulate");
      arbiter::v1::SubmitGameRequest submit;
      submit.set_request_id(absl::StrCat("g", i));
      submit.set_game_id(i == 0 ? "target" : absl::StrCat("first-", i));
      submit.set_log(arbiter::log::FormatLog(*log));
      arbiter::v1::SubmitGameResponse response;
      grpc::Status status =
          w->stub->SubmitGame(BenchContext(w->base->token).get(), submit, &response);
      if (!status.ok()) Fail(status.error_message());
      if (i == 0) w->target_events = response.game().last_event();
    }
    return w;
  }();
  return *world;
}

// One AdjudicateGame of `name`, in milliseconds.
double Adjudicate(World& w, const std::string& name) {
  arbiter::v1::AdjudicateGameRequest request;
  request.set_name(name);
  arbiter::v1::Adjudication response;
  const absl::Time start = absl::Now();
  grpc::Status status =
      w.stub->AdjudicateGame(BenchContext(w.base->token).get(), request, &response);
  const double ms = absl::ToDoubleMilliseconds(absl::Now() - start);
  if (!status.ok()) Fail(status.error_message());
  return ms;
}

// With several client threads: calls/s of them all, p50 and p99 the mean of
// the threads' own.
void Report(benchmark::State& state, std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  state.counters["p50_ms"] =
      benchmark::Counter(ms.empty() ? 0 : ms[ms.size() / 2], benchmark::Counter::kAvgThreads);
  state.counters["p99_ms"] = benchmark::Counter(ms.empty() ? 0 : ms[ms.size() * 99 / 100],
                                                benchmark::Counter::kAvgThreads);
  state.counters["calls"] =
      benchmark::Counter(static_cast<double>(ms.size()), benchmark::Counter::kIsRate);
}

// Answered from the judgement cache: once the store's follower has started,
// without a database round trip (judgement_cache.h). Arg: client threads,
// sharing one channel.
void BM_AdjudicateUnchangedGame(benchmark::State& state) {
  World& w = TheWorld();
  if (state.thread_index() == 0) {
    state.counters["events"] = static_cast<double>(w.target_events);
    // The first read fills the cache; reads until the follower has started
    // make it current.
    for (int i = 0; i < 100; ++i) Adjudicate(w, "games/target");
  }
  std::vector<double> ms;
  for (auto _ : state) ms.push_back(Adjudicate(w, "games/target"));
  Report(state, std::move(ms));
}
BENCHMARK(BM_AdjudicateUnchangedGame)->UseRealTime()->MinTime(3)->ThreadRange(1, 4);

void BM_AdjudicateFirstRead(benchmark::State& state) {
  World& w = TheWorld();
  std::vector<double> ms;
  int next = 1;
  for (auto _ : state) {
    ms.push_back(Adjudicate(w, absl::StrCat("games/first-", next)));
    ++next;
  }
  Report(state, std::move(ms));
}
BENCHMARK(BM_AdjudicateFirstRead)->UseRealTime()->Iterations(kFirstReadGames);

// The parts of a first read without gRPC: the one statement that opens a
// game (row, first events, last event), and that statement with the
// streamed replay (game_stream.h).
void BM_OpenGame(benchmark::State& state) {
  World& w = TheWorld();
  std::vector<double> ms;
  int next = 1;
  for (auto _ : state) {
    const absl::Time start = absl::Now();
    auto game = arbiter::games::OpenGame(*w.base->store, absl::StrCat("first-", next));
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - start));
    if (!game.ok()) Fail(std::string(game.status().message()));
    next = next % kFirstReadGames + 1;
  }
  Report(state, std::move(ms));
}
BENCHMARK(BM_OpenGame)->UseRealTime()->Iterations(kFirstReadGames);

void BM_OpenAndJudgeGame(benchmark::State& state) {
  World& w = TheWorld();
  std::vector<double> ms;
  int next = 1;
  auto never = [] { return absl::OkStatus(); };
  for (auto _ : state) {
    const absl::Time start = absl::Now();
    auto game = arbiter::games::OpenGame(*w.base->store, absl::StrCat("first-", next));
    if (!game.ok()) Fail(std::string(game.status().message()));
    auto referee = arbiter::games::JudgeStored(*w.base->store, *w.base->registry, *game, 0, never);
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - start));
    if (!referee.ok()) Fail(std::string(referee.status().message()));
    next = next % kFirstReadGames + 1;
  }
  Report(state, std::move(ms));
}
BENCHMARK(BM_OpenAndJudgeGame)->UseRealTime()->Iterations(kFirstReadGames);

}  // namespace

BENCHMARK_MAIN();
