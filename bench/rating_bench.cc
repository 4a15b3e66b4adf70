// Rating updates per second for every system at 2, 4 and 7 players per game
// (one player per team, distinct places), one core. Each iteration rates one
// match with RateMatch (checks and allocation of the result included); the
// matches cycle through 256 prepared ones with spread-out ratings so that no
// single input is measured. items_per_second is player updates per second.
//
//   build/bin/rating_bench --benchmark_min_time=1
// For comparison, the npm package (bench/openskill_rate_bench.js):
//   node bench/openskill_rate_bench.js build/npm 4
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "engine/rating/rating.h"

namespace arbiter::engine::rating {
namespace {

constexpr int kMatches = 256;

std::vector<std::vector<Team>> Matches(const RatingConfig& config, int players) {
  const Rating initial = InitialRating(config);
  std::vector<std::vector<Team>> matches(kMatches);
  uint64_t x = 12345;  // a small LCG: any spread of ratings will do
  auto next = [&x] {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(x >> 11) * 0x1.0p-53;
  };
  for (std::vector<Team>& match : matches) {
    for (int p = 0; p < players; ++p) {
      Rating r = initial;
      const double spread = initial.sigma > 0 ? initial.sigma : 200;
      r.mu += (next() - 0.5) * spread;
      if (r.sigma > 0) r.sigma *= 0.3 + 0.7 * next();
      match.push_back({{r}, 1 + (p + static_cast<int>(next() * players)) % players});
    }
  }
  return matches;
}

void BM_RateMatch(benchmark::State& state, System system) {
  const int players = static_cast<int>(state.range(0));
  const RatingConfig config = *MakeConfig(system, {});
  const std::vector<std::vector<Team>> matches = Matches(config, players);
  std::size_t i = 0;
  for (auto _ : state) {
    auto rated = RateMatch(config, matches[i]);
    benchmark::DoNotOptimize(rated);
    i = (i + 1) % matches.size();
  }
  state.SetItemsProcessed(state.iterations() * players);
}

BENCHMARK_CAPTURE(BM_RateMatch, plackett_luce, System::kPlackettLuce)->Arg(2)->Arg(4)->Arg(7);
BENCHMARK_CAPTURE(BM_RateMatch, thurstone_mosteller_full, System::kThurstoneMostellerFull)->Arg(2)->Arg(4)->Arg(7);
BENCHMARK_CAPTURE(BM_RateMatch, bradley_terry_full, System::kBradleyTerryFull)->Arg(2)->Arg(4)->Arg(7);
BENCHMARK_CAPTURE(BM_RateMatch, glicko2, System::kGlicko2)->Arg(2)->Arg(4)->Arg(7);
BENCHMARK_CAPTURE(BM_RateMatch, elo, System::kElo)->Arg(2)->Arg(4)->Arg(7);

}  // namespace
}  // namespace arbiter::engine::rating

BENCHMARK_MAIN();
