// Atlantica benchmarks.
//
//   BM_AtlanticaReplay/<players>: re-applies the turns of random legal games
//     (simulated once, before timing, by picking uniformly among
//     LegalActions with a separate generator) from a fresh initial state;
//     reports events/s and games/s.
//   BM_AtlanticaLegalActions/<players>: lists the legal turns of positions
//     met in those games (what bots and the conformance suite pay).
//   BM_AtlanticaScoreLargeHolding: the exact end-game scoring of 30
//     treasures of all kinds with 8 research cards including two jokers;
//     time per player.
#include <benchmark/benchmark.h>


#include <memory>
#include <vector>

#include "bench/engine_bench_setup.h"
#include "bench/labelled_moves_bench.h"
#include "engine/atlantica/game.h"
#include "engine/atlantica/scoring.h"
#include "engine/atlantica/state.h"

namespace arbiter::engine::atlantica {
namespace {

constexpr int kGames = 20;

const v1::Ruleset& Ruleset() {
  static const v1::Ruleset* const ruleset = bench::ParseRulesetOrDie(DefaultRulesetText());
  return *ruleset;
}

std::unique_ptr<State> NewGame(int players, uint64_t seed) {
  return bench::NewGameOrDie(AtlanticaGame(), Ruleset(), players, seed);
}

struct Recorded {
  uint64_t seed;
  std::vector<Move> moves;
};

std::vector<Recorded> Simulate(int players, std::vector<std::unique_ptr<State>>* positions = nullptr) {
  std::vector<Recorded> games;
  for (int g = 0; g < kGames; ++g) {
    Recorded game{static_cast<uint64_t>(1000 + g), {}};
    auto state = NewGame(players, game.seed);
    Rng chooser(game.seed * 31 + 7);
    while (!state->IsTerminal()) {
      if (positions != nullptr && game.moves.size() % 5 == 0) positions->push_back(state->Clone());
      auto moves = state->LegalActions();
      Move m = moves[chooser.Uniform(moves.size())];
      state->Apply(m.seat, m.action);
      game.moves.push_back(std::move(m));
    }
    games.push_back(std::move(game));
  }
  return games;
}

void BM_AtlanticaReplay(benchmark::State& bench) {
  const int players = static_cast<int>(bench.range(0));
  const std::vector<Recorded> games = Simulate(players);
  int64_t events = 0, played = 0;
  for (auto _ : bench) {
    for (const Recorded& game : games) {
      auto state = NewGame(players, game.seed);
      for (const Move& m : game.moves) {
        auto v = state->Apply(m.seat, m.action);
        benchmark::DoNotOptimize(v);
      }
      events += static_cast<int64_t>(game.moves.size());
      ++played;
    }
  }
  bench.counters["events"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  bench.counters["games"] = benchmark::Counter(static_cast<double>(played), benchmark::Counter::kIsRate);
  bench.counters["events_per_game"] = static_cast<double>(events) / static_cast<double>(played);
}
BENCHMARK(BM_AtlanticaReplay)->DenseRange(2, 5)->Unit(benchmark::kMillisecond);

void BM_AtlanticaLegalActions(benchmark::State& bench) {
  const int players = static_cast<int>(bench.range(0));
  std::vector<std::unique_ptr<State>> positions;
  Simulate(players, &positions);
  int64_t listed = 0, calls = 0;
  for (auto _ : bench) {
    for (const auto& p : positions) {
      auto moves = p->LegalActions();
      listed += static_cast<int64_t>(moves.size());
      ++calls;
    }
  }
  bench.counters["positions"] = benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
  bench.counters["actions_per_position"] = static_cast<double>(listed) / static_cast<double>(calls);
}
BENCHMARK(BM_AtlanticaLegalActions)->DenseRange(2, 5)->Unit(benchmark::kMillisecond);

// LegalActionsFor (labels included) at the 32 positions with the most legal
// actions of 64 random games.
void BM_AtlanticaLegalActionsForCostliest(benchmark::State& bench) {
  const int players = static_cast<int>(bench.range(0));
  static std::vector<std::vector<std::unique_ptr<State>>> positions(6);
  auto& mine = positions[static_cast<std::size_t>(players)];
  if (mine.empty()) {
    mine = bench::CostliestPositions(
        [players](uint64_t seed) { return NewGame(players, seed); }, 64, 32);
  }
  bench::RunLegalActionsFor(bench, mine, bench.range(1) != 0);
}
// Second argument 0: LegalActions() alone at the same positions.
BENCHMARK(BM_AtlanticaLegalActionsForCostliest)->Args({2, 1})->Args({2, 0})->Args({5, 1})->Args({5, 0})
    ->Unit(benchmark::kMicrosecond);

void BM_AtlanticaScoreLargeHolding(benchmark::State& bench) {
  auto rules = CompileRules(Ruleset().atlantica());
  const Rules& r = *rules;
  Holding h;
  // 30 treasures spread over all seven kinds.
  const int counts[] = {6, 5, 5, 4, 4, 3, 3};
  for (int k = 0; k < r.num_kinds; ++k) h.treasures[k] = counts[k];
  // 8 research cards: R4, R5, R6 x2, R7, R8, and two jokers (R11).
  for (const char* name : {"R4", "R5", "R6", "R6", "R7", "R8", "R11", "R11"}) {
    for (int t = 0; t < r.num_research; ++t) {
      if (r.research_names[t] == name) ++h.research[t];
    }
  }
  h.ships = 6;
  h.crates = 20;  // fewer crates than treasures: the discard matters
  for (auto _ : bench) {
    Score s = ScoreHolding(r, h);
    benchmark::DoNotOptimize(s);
  }
  bench.counters["players"] = benchmark::Counter(static_cast<double>(bench.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_AtlanticaScoreLargeHolding)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace arbiter::engine::atlantica

BENCHMARK_MAIN();
