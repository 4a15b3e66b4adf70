// Tournament model: table assignment for a large round and the standings of
// a long tournament (docs/benchmarks.md).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/rng.h"
#include "engine/tournament/pairing.h"
#include "engine/tournament/standings.h"

namespace arbiter::engine::tournament {
namespace {

TournamentSettings Settings(int rounds) {
  TournamentSettings s;
  s.game_type = "atlantis";
  s.seed = 2026;
  s.rounds = rounds;
  s.table_sizes = {3, 4, 5};
  s.preferred_size = 4;
  s.place_points = {4, 2, 1, 0};
  s.tie_breaks = {TieBreak::kGamePoints, TieBreak::kWins, TieBreak::kStrengthOfSchedule,
                  TieBreak::kHeadToHead};
  return s;
}

std::vector<std::string> Players(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(absl::StrCat("player-", i));
  return out;
}

// Game points 0..19 from the table's seed; places follow them.
void Play(Round& round) {
  for (Table& table : round.tables) {
    engine::Rng rng(table.game_seed);
    TableResult& r = table.result;
    r.kind = TableResult::Kind::kPlayed;
    for (size_t i = 0; i < table.players.size(); ++i) {
      r.game_points.push_back(static_cast<int64_t>(rng.Uniform(20)));
    }
    for (int64_t mine : r.game_points) {
      int better = 0;
      for (int64_t other : r.game_points) better += other > mine ? 1 : 0;
      r.places.push_back(better + 1);
    }
  }
}

std::vector<Round> PlayRounds(const TournamentSettings& s, const std::vector<std::string>& players,
                              int rounds) {
  std::vector<Round> out;
  for (int r = 0; r < rounds; ++r) {
    Round round = *AssignRound(s, players, out);
    Play(round);
    out.push_back(std::move(round));
  }
  return out;
}

void BM_AssignRoundAfterFiveRounds(benchmark::State& state) {
  const TournamentSettings s = Settings(6);
  const std::vector<std::string> players = Players(static_cast<int>(state.range(0)));
  const std::vector<Round> earlier = PlayRounds(s, players, 5);
  int64_t repeats = 0;
  for (auto _ : state) {
    Round round = *AssignRound(s, players, earlier);
    repeats = RepeatCount(earlier, round);
    benchmark::DoNotOptimize(round);
  }
  state.counters["repeats"] = static_cast<double>(repeats);
}
BENCHMARK(BM_AssignRoundAfterFiveRounds)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_StandingsNineRounds(benchmark::State& state) {
  const TournamentSettings s = Settings(9);
  const std::vector<std::string> players = Players(static_cast<int>(state.range(0)));
  const std::vector<Round> rounds = PlayRounds(s, players, 9);
  for (auto _ : state) {
    auto rows = ComputeStandings(s, players, rounds);
    benchmark::DoNotOptimize(rows);
  }
}
BENCHMARK(BM_StandingsNineRounds)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace arbiter::engine::tournament

BENCHMARK_MAIN();
