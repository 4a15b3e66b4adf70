// The cost of one log line in protobuf's JSON mapping, read (ParseJsonLine)
// and written (ToJsonLine), with the fast codec (services/log/fast_json.h)
// and with protobuf's converter alone, on the lines of simulated games of
// every registered game. Time per iteration is time per line.
//   build/bin/json_bench --benchmark_min_time=1
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/game.h"
#include "engine/core/ruleset_registry.h"
#include "services/log/json_lines.h"
#include "services/log/log_file.h"
#include "services/replay/simulate.h"

namespace {

using arbiter::engine::RulesetRegistry;

const RulesetRegistry& Registry() {
  static const RulesetRegistry* registry = new RulesetRegistry(*RulesetRegistry::WithBuiltins());
  return *registry;
}

// Headers and actions of 20 games, with their JSON lines.
struct Corpus {
  std::vector<arbiter::v1::LogHeader> headers;
  std::vector<std::string> header_lines;
  std::vector<arbiter::v1::Action> actions;
  std::vector<std::string> action_lines;
};

Corpus MakeCorpus(const std::string& game, int players) {
  Corpus corpus;
  for (int i = 0; i < 20; ++i) {
    auto log = arbiter::replay::SimulateGame(
        {.game = game, .players = players, .seed = static_cast<uint64_t>(1000 + i)}, Registry());
    if (!log.ok()) continue;
    corpus.headers.push_back(log->header);
    corpus.header_lines.push_back(arbiter::log::ToJsonLineWithProtobuf(log->header));
    for (const auto& action : log->actions) {
      corpus.actions.push_back(action);
      corpus.action_lines.push_back(arbiter::log::ToJsonLineWithProtobuf(action));
    }
  }
  return corpus;
}

template <typename Message>
void Print(benchmark::State& state, const std::vector<Message>& messages, bool fast) {
  std::size_t next = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    const Message& message = messages[next++ % messages.size()];
    std::string line = fast ? arbiter::log::ToJsonLine(message) : arbiter::log::ToJsonLineWithProtobuf(message);
    bytes += static_cast<int64_t>(line.size());
    benchmark::DoNotOptimize(line);
  }
  state.SetBytesProcessed(bytes);
}

template <typename Message>
void Parse(benchmark::State& state, const std::vector<std::string>& lines, bool fast) {
  std::size_t next = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    const std::string& line = lines[next++ % lines.size()];
    Message message;
    const absl::Status status = fast ? arbiter::log::ParseJsonLine(line, 2, message)
                                     : arbiter::log::ParseJsonLineWithProtobuf(line, 2, message);
    if (!status.ok()) {
      state.SkipWithError("a simulated line did not parse");
      return;
    }
    bytes += static_cast<int64_t>(line.size());
    benchmark::DoNotOptimize(message);
  }
  state.SetBytesProcessed(bytes);
}

int RegisterAll() {
  for (const arbiter::engine::Game* game : arbiter::engine::AllGames()) {
    const std::string name(game->name());
    const auto* ruleset = Registry().DefaultFor(name);
    const int players = game->MinPlayers(ruleset->ruleset) + 1;
    const Corpus* corpus = new Corpus(MakeCorpus(name, players));
    for (const bool fast : {true, false}) {
      const char* how = fast ? "fast" : "protobuf";
      benchmark::RegisterBenchmark(absl::StrCat("PrintAction/", name, "/", how).c_str(),
                                   [corpus, fast](benchmark::State& state) {
                                     Print(state, corpus->actions, fast);
                                   });
      benchmark::RegisterBenchmark(absl::StrCat("ParseAction/", name, "/", how).c_str(),
                                   [corpus, fast](benchmark::State& state) {
                                     Parse<arbiter::v1::Action>(state, corpus->action_lines, fast);
                                   });
      benchmark::RegisterBenchmark(absl::StrCat("PrintHeader/", name, "/", how).c_str(),
                                   [corpus, fast](benchmark::State& state) {
                                     Print(state, corpus->headers, fast);
                                   });
      benchmark::RegisterBenchmark(absl::StrCat("ParseHeader/", name, "/", how).c_str(),
                                   [corpus, fast](benchmark::State& state) {
                                     Parse<arbiter::v1::LogHeader>(state, corpus->header_lines, fast);
                                   });
    }
  }
  return 0;
}

const int registered = RegisterAll();

}  // namespace

BENCHMARK_MAIN();
