// ListLegalActions over gRPC against a server in this process on a private
// embedded PostgreSQL. Counters: the actions listed, the last event, the
// median and 99th percentile call in milliseconds.
//   BM_ListLegalActions  a live game stopped at the position (among the first
//                        200 of a simulated game) where the seat to act has
//                        the most legal actions, asked again and again by an
//                        admin: answered from the judgement cache.
//   BM_ReadAndReplay     the baseline, the same position: GetGameState of
//                        that event by number, which reads the game's events
//                        and replays them on every call, as ListLegalActions
//                        did before the cache.
//   BM_KeptPositionMemory  what the cache holds per live game: 1,000 copies
//                        of the referee at that costliest position (the
//                        copy a cache entry keeps), and the heap they take,
//                        per copy (KiB_per_position, from mallinfo2).
//   BM_MovesAfterEachMove  live play: an admin appends the next move of a
//                        simulated game, then the seat to act next asks for
//                        its moves (timed: p50_ms, p99_ms; the append:
//                        append_p50_ms), to the end of the game and again.
//
//   build/bin/legal_actions_bench
#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

#include <malloc.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "bench/bench_server.h"
#include "services/log/log_file.h"
#include "services/replay/referee.h"
#include "services/replay/simulate.h"

namespace {

using arbiter::bench::BenchContext;

constexpr char kProgram[] = "legal_actions_bench";

using World = arbiter::bench::BenchServer;

void Fail(const std::string& what) { arbiter::bench::BenchFail(kProgram, what); }

World& TheWorld() { return arbiter::bench::SharedBenchServer(kProgram); }

// How many actions of `log` to keep so that the seat to act then has the
// most legal actions (among the first 200 positions).
size_t CostliestPrefix(const arbiter::log::GameLog& log, const arbiter::engine::RulesetRegistry& registry) {
  auto referee = arbiter::replay::Referee::Start(log.header, registry);
  if (!referee.ok()) Fail(std::string(referee.status().message()));
  size_t best = 0;
  size_t most = 0;
  for (size_t i = 0; i < log.actions.size() && i < 200; ++i) {
    const std::vector<arbiter::engine::Seat> to_act = referee->state().SeatsToAct();
    if (!to_act.empty()) {
      const size_t n = referee->state().LegalActionsFor(to_act.front()).size();
      if (n > most) {
        most = n;
        best = i;
      }
    }
    if (!referee->Apply(log.actions[i], static_cast<int64_t>(i) + 2).ok()) Fail("replay");
  }
  return best;
}

// A live game `id` of `game` for `players`, stopped at its costliest
// position; the player to act there.
std::string StartGame(World& w, const std::string& id, const std::string& game, int players) {
  arbiter::replay::SimulationRequest request{game, players, 7, "", {}};
  auto log = arbiter::replay::SimulateGame(request, *w.registry);
  if (!log.ok()) Fail("simulate");
  log->actions.resize(CostliestPrefix(*log, *w.registry) + 1);
  const std::string to_act = log->actions.back().player();
  log->actions.pop_back();
  arbiter::v1::SubmitGameRequest submit;
  submit.set_request_id(id);
  submit.set_game_id(id);
  submit.set_log(arbiter::log::FormatLog(*log));
  submit.set_allow_duplicate(true);  // the cases share positions
  arbiter::v1::SubmitGameResponse response;
  grpc::Status status = w.games->SubmitGame(BenchContext(w.token).get(), submit, &response);
  if (!status.ok()) Fail(status.error_message());
  return to_act;
}

constexpr const char* kGames[] = {"atlantis", "atlantica", "atlantis-rising"};

// The median and 99th percentile of `ms` (sorted here).
void Percentiles(benchmark::State& state, std::vector<double>& ms, const std::string& prefix) {
  std::sort(ms.begin(), ms.end());
  state.counters[prefix + "p50_ms"] = ms.empty() ? 0 : ms[ms.size() / 2];
  state.counters[prefix + "p99_ms"] = ms.empty() ? 0 : ms[ms.size() * 99 / 100];
}

// Times `call` once per iteration; fails the program if it fails.
template <typename Call>
void TimeEach(benchmark::State& state, Call call) {
  std::vector<double> ms;
  for (auto _ : state) {
    const absl::Time start = absl::Now();
    grpc::Status status = call();
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - start));
    if (!status.ok()) Fail(status.error_message());
  }
  Percentiles(state, ms, "");
}

// Args: 0 Atlantis, 1 Atlantica, 2 Atlantis Rising; the player count.
void BM_ListLegalActions(benchmark::State& state) {
  World& w = TheWorld();
  const std::string game = kGames[state.range(0)];
  const std::string id = absl::StrCat("moves-", state.range(0), "-", state.range(1));
  const std::string player = StartGame(w, id, game, static_cast<int>(state.range(1)));
  arbiter::v1::ListLegalActionsRequest request;
  request.set_game("games/" + id);
  request.set_player(player);
  arbiter::v1::ListLegalActionsResponse response;
  TimeEach(state, [&] {
    return w.games->ListLegalActions(BenchContext(w.token).get(), request, &response);
  });
  state.SetLabel(game);
  state.counters["actions"] = response.actions_size();
  state.counters["events"] = static_cast<double>(response.last_event());
}

void BM_ReadAndReplay(benchmark::State& state) {
  World& w = TheWorld();
  const std::string game = kGames[state.range(0)];
  const std::string id = absl::StrCat("replay-", state.range(0), "-", state.range(1));
  StartGame(w, id, game, static_cast<int>(state.range(1)));
  arbiter::v1::GetGameStateRequest request;
  request.set_name("games/" + id);
  arbiter::v1::GameState response;
  // The last event by number: never answered from the cache.
  if (!w.games->GetGameState(BenchContext(w.token).get(), request, &response).ok()) Fail("state");
  request.set_event(response.event());
  TimeEach(state, [&] {
    return w.games->GetGameState(BenchContext(w.token).get(), request, &response);
  });
  state.SetLabel(game);
  state.counters["events"] = static_cast<double>(response.event());
}

void BM_MovesAfterEachMove(benchmark::State& state) {
  World& w = TheWorld();
  const std::string game = kGames[state.range(0)];
  arbiter::log::GameLog log;
  std::string id;
  size_t next = 0;
  int64_t last = 0;
  int games = 0;
  std::vector<double> ask_ms;
  std::vector<double> append_ms;
  int64_t actions = 0;
  for (auto _ : state) {
    if (id.empty() || next + 1 >= log.actions.size()) {
      arbiter::replay::SimulationRequest simulation{game, static_cast<int>(state.range(1)),
                                                    static_cast<uint64_t>(100 + games), "", {}};
      auto simulated = arbiter::replay::SimulateGame(simulation, *w.registry);
      if (!simulated.ok()) Fail("simulate");
      log = *std::move(simulated);
      id = absl::StrCat("live-", state.range(0), "-", state.range(1), "-", games++);
      arbiter::v1::CreateGameRequest create;
      create.set_request_id(id);
      create.set_game_id(id);
      *create.mutable_game()->mutable_players() = log.header.players();
      create.mutable_game()->set_game_type(log.header.game());
      create.mutable_game()->set_seed(log.header.seed());
      arbiter::v1::Game created;
      grpc::Status status = w.games->CreateGame(BenchContext(w.token).get(), create, &created);
      if (!status.ok()) Fail(status.error_message());
      next = 0;
      last = 1;
    }
    arbiter::v1::AppendActionsRequest append;
    append.set_game("games/" + id);
    append.set_request_id(absl::StrCat(id, "-", next));
    append.set_expected_last_event(last);
    *append.add_actions() = log.actions[next];
    arbiter::v1::AppendActionsResponse appended;
    absl::Time start = absl::Now();
    grpc::Status status = w.games->AppendActions(BenchContext(w.token).get(), append, &appended);
    append_ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - start));
    if (!status.ok()) Fail(status.error_message());
    last = appended.last_event();
    ++next;
    arbiter::v1::ListLegalActionsRequest ask;
    ask.set_game("games/" + id);
    ask.set_player(log.actions[next].player());
    arbiter::v1::ListLegalActionsResponse offered;
    start = absl::Now();
    status = w.games->ListLegalActions(BenchContext(w.token).get(), ask, &offered);
    ask_ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - start));
    if (!status.ok()) Fail(status.error_message());
    actions += offered.actions_size();
  }
  state.SetLabel(game);
  Percentiles(state, ask_ms, "");
  Percentiles(state, append_ms, "append_");
  state.counters["actions_per_ask"] =
      ask_ms.empty() ? 0 : static_cast<double>(actions) / static_cast<double>(ask_ms.size());
}

// Bytes the C library's allocator has handed out and not taken back.
double AllocatedBytes() { return static_cast<double>(mallinfo2().uordblks); }

void BM_KeptPositionMemory(benchmark::State& state) {
  World& w = TheWorld();
  const std::string game = kGames[state.range(0)];
  arbiter::replay::SimulationRequest request{game, static_cast<int>(state.range(1)), 7, "", {}};
  auto log = arbiter::replay::SimulateGame(request, *w.registry);
  if (!log.ok()) Fail("simulate");
  const size_t prefix = CostliestPrefix(*log, *w.registry);
  auto referee = arbiter::replay::Referee::Start(log->header, *w.registry);
  if (!referee.ok()) Fail("start");
  for (size_t i = 0; i < prefix; ++i) {
    if (!referee->Apply(log->actions[i], static_cast<int64_t>(i) + 2).ok()) Fail("replay");
  }
  constexpr int kCopies = 1000;
  double per_copy = 0;
  for (auto _ : state) {
    const double before = AllocatedBytes();
    std::vector<std::shared_ptr<const arbiter::replay::Referee>> kept;
    kept.reserve(kCopies);
    for (int i = 0; i < kCopies; ++i) {
      kept.push_back(std::make_shared<const arbiter::replay::Referee>(referee->Copy()));
    }
    per_copy = (AllocatedBytes() - before) / kCopies / 1024;
    benchmark::DoNotOptimize(kept);
  }
  state.SetLabel(game);
  state.counters["KiB_per_position"] = per_copy;
}

void Positions(benchmark::internal::Benchmark* b) {
  b->UseRealTime()->MinTime(3)->Args({0, 2})->Args({0, 4})->Args({1, 2})->Args({1, 5})->Args({2, 4});
}
BENCHMARK(BM_ListLegalActions)->Apply(Positions);
BENCHMARK(BM_ReadAndReplay)->Apply(Positions);
BENCHMARK(BM_MovesAfterEachMove)->Apply(Positions);
BENCHMARK(BM_KeptPositionMemory)
    ->Iterations(1)
    ->Args({0, 2})
    ->Args({0, 4})
    ->Args({1, 2})
    ->Args({1, 5})
    ->Args({2, 4})
    ->Args({2, 7});

}  // namespace

BENCHMARK_MAIN();
