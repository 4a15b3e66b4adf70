// What the game benchmarks share for State::LegalActionsFor (the legal moves of
// one seat with their labels): the costliest positions of random games, and a
// benchmark body that times every call and reports the median and the 99th
// percentile per call (counters p50_us, p99_us), the figures a player waiting
// on the list sees, besides Google Benchmark's mean.
//
// The positions are the `keep` with the most legal actions among every
// position of `games` random games (moves picked uniformly from
// LegalActions() with a generator of their own); the seat asked is each
// position's first seat to act. A failure to set up aborts the program.
#ifndef ARBITER_BENCH_LABELLED_MOVES_BENCH_H_
#define ARBITER_BENCH_LABELLED_MOVES_BENCH_H_

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "engine/core/rng.h"
#include "engine/core/state.h"

namespace arbiter::engine::bench {

inline std::vector<std::unique_ptr<State>> CostliestPositions(
    const std::function<std::unique_ptr<State>(uint64_t seed)>& new_game, int games, std::size_t keep) {
  std::vector<std::pair<std::size_t, std::unique_ptr<State>>> sampled;
  for (int g = 0; g < games; ++g) {
    std::unique_ptr<State> state = new_game(static_cast<uint64_t>(g + 1));
    Rng pick(static_cast<uint64_t>(g) ^ 0x1abe11edULL);
    while (!state->IsTerminal()) {
      const std::vector<Move> legal = state->LegalActions();
      sampled.emplace_back(legal.size(), state->Clone());
      const Move& chosen = legal[pick.Uniform(legal.size())];
      state->Apply(chosen.seat, chosen.action);
    }
  }
  std::stable_sort(sampled.begin(), sampled.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::unique_ptr<State>> costliest;
  for (std::size_t i = 0; i < sampled.size() && i < keep; ++i) costliest.push_back(std::move(sampled[i].second));
  return costliest;
}

// One LegalActionsFor call per position per iteration, each timed. With
// `labels` false, LegalActions() alone, for comparison: what the labels and
// the grouping add.
inline void RunLegalActionsFor(benchmark::State& bm, const std::vector<std::unique_ptr<State>>& positions,
                               bool labels = true) {
  std::vector<double> micros;
  int64_t listed = 0;
  for (auto _ : bm) {
    for (const std::unique_ptr<State>& position : positions) {
      const Seat seat = position->SeatsToAct().front();
      const auto start = std::chrono::steady_clock::now();
      std::size_t size = 0;
      if (labels) {
        std::vector<LabelledMove> moves = position->LegalActionsFor(seat);
        benchmark::DoNotOptimize(moves.data());
        size = moves.size();
      } else {
        std::vector<Move> moves = position->LegalActions();
        benchmark::DoNotOptimize(moves.data());
        size = moves.size();
      }
      const auto stop = std::chrono::steady_clock::now();
      micros.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
      listed += static_cast<int64_t>(size);
    }
  }
  if (micros.empty()) return;
  std::sort(micros.begin(), micros.end());
  auto at = [&micros](double q) {
    return micros[static_cast<std::size_t>(q * static_cast<double>(micros.size() - 1))];
  };
  bm.counters["p50_us"] = at(0.50);
  bm.counters["p99_us"] = at(0.99);
  bm.counters["moves_per_call"] = static_cast<double>(listed) / static_cast<double>(micros.size());
  bm.SetItemsProcessed(static_cast<int64_t>(micros.size()));
}

}  // namespace arbiter::engine::bench

#endif  // ARBITER_BENCH_LABELLED_MOVES_BENCH_H_
