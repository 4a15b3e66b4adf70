// ListLegalActions over gRPC against a server in this process on a private
// embedded PostgreSQL: for each game, a live game whose stored log stops at
// the position (among the first 200 of a simulated game) where the seat to
// act has the most legal actions, asked again and again by an admin. Each
// call reads the game's events from PostgreSQL, replays them and lists the
// seat's actions with their labels. Counters: the actions listed, the
// events replayed, the median and 99th percentile call in milliseconds.
//
//   build/bin/legal_actions_bench
#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

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
  arbiter::v1::SubmitGameResponse response;
  grpc::Status status = w.games->SubmitGame(BenchContext(w.token).get(), submit, &response);
  if (!status.ok()) Fail(status.error_message());
  return to_act;
}

// Args: 0 Atlantis, 1 Atlantica, 2 Atlantis Rising; the player count.
void BM_ListLegalActions(benchmark::State& state) {
  static const char* const kGames[] = {"atlantis", "atlantica", "atlantis-rising"};
  World& w = TheWorld();
  const std::string game = kGames[state.range(0)];
  const std::string id = absl::StrCat(state.range(0), "-", state.range(1));
  const std::string player = StartGame(w, id, game, static_cast<int>(state.range(1)));
  arbiter::v1::ListLegalActionsRequest request;
  request.set_game("games/" + id);
  request.set_player(player);
  arbiter::v1::ListLegalActionsResponse response;
  std::vector<double> ms;
  for (auto _ : state) {
    const absl::Time start = absl::Now();
    grpc::Status status =
        w.games->ListLegalActions(BenchContext(w.token).get(), request, &response);
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - start));
    if (!status.ok()) Fail(status.error_message());
  }
  std::sort(ms.begin(), ms.end());
  state.SetLabel(game);
  state.counters["actions"] = response.actions_size();
  state.counters["events"] = static_cast<double>(response.last_event());
  state.counters["p50_ms"] = ms.empty() ? 0 : ms[ms.size() / 2];
  state.counters["p99_ms"] = ms.empty() ? 0 : ms[ms.size() * 99 / 100];
}
BENCHMARK(BM_ListLegalActions)
    ->UseRealTime()
    ->MinTime(3)
    ->Args({0, 2})
    ->Args({0, 4})
    ->Args({1, 2})
    ->Args({1, 5})
    ->Args({2, 4});

}  // namespace

BENCHMARK_MAIN();
