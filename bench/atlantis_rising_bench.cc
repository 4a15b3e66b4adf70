// Atlantis Rising replay speed: random legal playouts are recorded once
// (engine::RandomPlayout, whose generator is separate from the game's), then
// each benchmark iteration re-applies every recorded game from a fresh state
// (setup included), as a replay does. Reports events/s and games/s at 1, 4
// and 7 players; and LegalActionsFor (labels included) at the costliest
// positions.
//
//   build/bin/atlantis_rising_bench
#include <benchmark/benchmark.h>


#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

#include "bench/engine_bench_setup.h"
#include "bench/labelled_moves_bench.h"
#include "engine/atlantis_rising/game.h"
#include "engine/core/random_playout.h"
#include "engine/core/rng.h"

namespace arbiter::engine::atlantis_rising {
namespace {

constexpr int kGames = 64;

const v1::Ruleset& Ruleset() {
  static const v1::Ruleset* const ruleset = bench::ParseRulesetOrDie(DefaultRulesetText());
  return *ruleset;
}

std::unique_ptr<State> NewGame(int players, uint64_t seed) {
  return bench::NewGameOrDie(AtlantisRisingGame(), Ruleset(), players, seed);
}

std::vector<std::vector<Move>> RecordGames(int players) {
  std::vector<std::vector<Move>> games;
  for (uint64_t seed = 1; seed <= kGames; ++seed) {
    std::unique_ptr<State> state = NewGame(players, seed);
    Rng bot(seed ^ kBotSeedSalt);
    auto moves = RandomPlayout(*state, bot);
    if (!moves.ok()) std::abort();
    games.push_back(*std::move(moves));
  }
  return games;
}

void BM_ReplaySimulatedGames(benchmark::State& bench) {
  const int players = static_cast<int>(bench.range(0));
  const std::vector<std::vector<Move>> games = RecordGames(players);
  int64_t events = 0;
  int64_t played = 0;
  for (auto _ : bench) {
    for (std::size_t g = 0; g < games.size(); ++g) {
      std::unique_ptr<State> state = NewGame(players, g + 1);
      for (const Move& move : games[g]) {
        if (state->Apply(move.seat, move.action)) std::abort();
      }
      benchmark::DoNotOptimize(state->IsTerminal());
      events += static_cast<int64_t>(games[g].size());
      ++played;
    }
  }
  bench.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  bench.counters["games/s"] = benchmark::Counter(static_cast<double>(played), benchmark::Counter::kIsRate);
  bench.counters["events/game"] = static_cast<double>(events) / static_cast<double>(played);
}
BENCHMARK(BM_ReplaySimulatedGames)->Arg(1)->Arg(4)->Arg(7)->Unit(benchmark::kMillisecond);

// LegalActionsFor at the 32 positions with the most legal actions of 64 games.
void BM_LegalActionsForCostliest(benchmark::State& bench) {
  const int players = static_cast<int>(bench.range(0));
  static std::vector<std::vector<std::unique_ptr<State>>> positions(8);
  auto& mine = positions[static_cast<std::size_t>(players)];
  if (mine.empty()) {
    mine = bench::CostliestPositions([players](uint64_t seed) { return NewGame(players, seed); }, 64, 32);
  }
  bench::RunLegalActionsFor(bench, mine, bench.range(1) != 0);
}
// Second argument 0: LegalActions() alone at the same positions.
BENCHMARK(BM_LegalActionsForCostliest)->Args({1, 1})->Args({1, 0})->Args({4, 1})->Args({4, 0})->Args({7, 1})
    ->Args({7, 0})->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace arbiter::engine::atlantis_rising

BENCHMARK_MAIN();
