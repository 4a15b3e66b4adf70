// Replay through the whole referee (header checks, player lookup, CheckShape,
// Check, Apply) for every registered game and player count, and the cost of
// reading a log file's text. Games are simulated once, outside the timing.
//   build/bin/replay_bench --benchmark_min_time=1
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/game.h"
#include "engine/core/ruleset_registry.h"
#include "services/log/log_file.h"
#include "services/replay/replay.h"
#include "services/replay/simulate.h"

namespace {

using arbiter::engine::RulesetRegistry;

const RulesetRegistry& Registry() {
  static const RulesetRegistry* registry = new RulesetRegistry(*RulesetRegistry::WithBuiltins());
  return *registry;
}

std::vector<arbiter::log::GameLog> SimulatedGames(const std::string& game, int players, int count) {
  std::vector<arbiter::log::GameLog> games;
  for (int i = 0; i < count; ++i) {
    auto log = arbiter::replay::SimulateGame(
        {.game = game, .players = players, .seed = static_cast<uint64_t>(1000 + i)}, Registry());
    if (log.ok()) games.push_back(*std::move(log));
  }
  return games;
}

void ReplayThroughReferee(benchmark::State& state, const std::string& game, int players) {
  const std::vector<arbiter::log::GameLog> games = SimulatedGames(game, players, 50);
  int64_t events = 0;
  int64_t replayed = 0;
  std::size_t next = 0;
  for (auto _ : state) {
    const arbiter::log::GameLog& log = games[next++ % games.size()];
    auto referee = arbiter::replay::Replay(log, Registry());
    benchmark::DoNotOptimize(referee);
    if (!referee.ok() || referee->verdict() != arbiter::replay::Verdict::kLegal) {
      state.SkipWithError("a simulated game did not replay as legal");
      return;
    }
    events += static_cast<int64_t>(log.actions.size());
    ++replayed;
  }
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["games/s"] = benchmark::Counter(static_cast<double>(replayed), benchmark::Counter::kIsRate);
  state.counters["events/game"] = static_cast<double>(events) / static_cast<double>(std::max<int64_t>(1, replayed));
}

void ParseLogText(benchmark::State& state, const std::string& game, int players) {
  std::vector<std::string> texts;
  for (const auto& log : SimulatedGames(game, players, 20)) texts.push_back(arbiter::log::FormatLog(log));
  int64_t lines = 0;
  int64_t bytes = 0;
  std::size_t next = 0;
  for (auto _ : state) {
    const std::string& text = texts[next++ % texts.size()];
    auto log = arbiter::log::ParseLog(text);
    benchmark::DoNotOptimize(log);
    lines += static_cast<int64_t>(log->actions.size()) + 1;
    bytes += static_cast<int64_t>(text.size());
  }
  state.counters["lines/s"] = benchmark::Counter(static_cast<double>(lines), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(bytes);
}

int RegisterAll() {
  for (const arbiter::engine::Game* game : arbiter::engine::AllGames()) {
    const auto* ruleset = Registry().DefaultFor(std::string(game->name()));
    const std::string name(game->name());
    for (int n = game->MinPlayers(ruleset->ruleset); n <= game->MaxPlayers(ruleset->ruleset); ++n) {
      benchmark::RegisterBenchmark(absl::StrCat("Referee/", name, "/", n, "p").c_str(), ReplayThroughReferee,
                                   name, n);
    }
    const int players = game->MinPlayers(ruleset->ruleset) + 1;
    benchmark::RegisterBenchmark(absl::StrCat("ParseLog/", name, "/", players, "p").c_str(), ParseLogText, name,
                                 players);
  }
  return 0;
}

const int registered = RegisterAll();

}  // namespace

BENCHMARK_MAIN();
