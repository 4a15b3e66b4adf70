// Atlantis benchmarks: replaying random legal games (Check + Apply per
// action, from a fresh initial state), LegalActions and Check per position,
// and LegalActionsFor (labels included) at the costliest positions.
// Games are simulated once per player count (2, 3, 4) by picking uniformly
// from LegalActions with a separate Rng.
//
//   build/bin/atlantis_bench --benchmark_min_time=1
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "bench/engine_bench_setup.h"
#include "bench/labelled_moves_bench.h"
#include "engine/atlantis/game.h"
#include "engine/core/rng.h"

namespace arbiter::engine::atlantis {
namespace {

constexpr int kGamesPerCount = 64;
constexpr int kSampleEvery = 7;

const v1::Ruleset& Ruleset() {
  static const v1::Ruleset* const ruleset = bench::ParseRulesetOrDie(DefaultRulesetText());
  return *ruleset;
}

std::unique_ptr<State> NewGame(int players, uint64_t seed) {
  return bench::NewGameOrDie(AtlantisGame(), Ruleset(), players, seed);
}

struct Recorded {
  uint64_t seed = 0;
  std::vector<Move> moves;
};

struct Corpus {
  std::vector<Recorded> games;
  std::vector<std::unique_ptr<State>> positions;  // sampled, not terminal
  std::vector<Move> next;                         // the move played from each sample
  int64_t events = 0;
};

const Corpus& CorpusFor(int players) {
  static std::vector<std::unique_ptr<Corpus>> corpora(5);
  auto& corpus = corpora[static_cast<std::size_t>(players)];
  if (corpus) return *corpus;
  corpus = std::make_unique<Corpus>();
  Rng pick(1000 + static_cast<uint64_t>(players));
  for (int g = 0; g < kGamesPerCount; ++g) {
    Recorded rec;
    rec.seed = static_cast<uint64_t>(players * 100000 + g);
    std::unique_ptr<State> state = NewGame(players, rec.seed);
    while (!state->IsTerminal()) {
      std::vector<Move> legal = state->LegalActions();
      const Move chosen = legal[pick.Uniform(legal.size())];
      if (rec.moves.size() % kSampleEvery == 0) {
        corpus->positions.push_back(state->Clone());
        corpus->next.push_back(chosen);
      }
      state->Apply(chosen.seat, chosen.action);
      rec.moves.push_back(chosen);
    }
    corpus->events += static_cast<int64_t>(rec.moves.size());
    corpus->games.push_back(std::move(rec));
  }
  return *corpus;
}

void BM_Replay(benchmark::State& bm) {
  const int players = static_cast<int>(bm.range(0));
  const Corpus& corpus = CorpusFor(players);
  int64_t events = 0;
  int64_t games = 0;
  for (auto _ : bm) {
    for (const Recorded& rec : corpus.games) {
      std::unique_ptr<State> state = NewGame(players, rec.seed);
      for (const Move& m : rec.moves) {
        if (state->Apply(m.seat, m.action).has_value()) bm.SkipWithError("replay diverged");
      }
      benchmark::DoNotOptimize(state->IsTerminal());
      events += static_cast<int64_t>(rec.moves.size());
      ++games;
    }
  }
  bm.counters["events"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  bm.counters["games"] = benchmark::Counter(static_cast<double>(games), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Replay)->Arg(2)->Arg(3)->Arg(4)->Unit(benchmark::kMillisecond);

void BM_LegalActions(benchmark::State& bm) {
  const Corpus& corpus = CorpusFor(static_cast<int>(bm.range(0)));
  std::size_t i = 0;
  int64_t listed = 0;
  for (auto _ : bm) {
    std::vector<Move> legal = corpus.positions[i]->LegalActions();
    listed += static_cast<int64_t>(legal.size());
    if (++i == corpus.positions.size()) i = 0;
  }
  bm.counters["positions"] = benchmark::Counter(static_cast<double>(bm.iterations()), benchmark::Counter::kIsRate);
  bm.counters["actions_per_position"] =
      static_cast<double>(listed) / static_cast<double>(std::max<int64_t>(1, bm.iterations()));
}
BENCHMARK(BM_LegalActions)->Arg(2)->Arg(3)->Arg(4);

void BM_Check(benchmark::State& bm) {
  const Corpus& corpus = CorpusFor(static_cast<int>(bm.range(0)));
  std::size_t i = 0;
  for (auto _ : bm) {
    const Move& m = corpus.next[i];
    benchmark::DoNotOptimize(corpus.positions[i]->Check(m.seat, m.action));
    if (++i == corpus.positions.size()) i = 0;
  }
  bm.counters["checks"] = benchmark::Counter(static_cast<double>(bm.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Check)->Arg(2)->Arg(3)->Arg(4);

// LegalActionsFor at the 32 positions with the most legal actions of 64 games.
void BM_LegalActionsForCostliest(benchmark::State& bm) {
  const int players = static_cast<int>(bm.range(0));
  static std::vector<std::vector<std::unique_ptr<State>>> positions(5);
  auto& mine = positions[static_cast<std::size_t>(players)];
  if (mine.empty()) {
    mine = bench::CostliestPositions([players](uint64_t seed) { return NewGame(players, seed); }, 64, 32);
  }
  bench::RunLegalActionsFor(bm, mine, bm.range(1) != 0);
}
// Second argument 0: LegalActions() alone at the same positions.
BENCHMARK(BM_LegalActionsForCostliest)->Args({2, 1})->Args({2, 0})->Args({4, 1})->Args({4, 0})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace arbiter::engine::atlantis

BENCHMARK_MAIN();
