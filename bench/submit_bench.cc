// The server's own work for one SubmitGame, without gRPC and without
// PostgreSQL: GameWriter::Submit on the in-memory store (parse the log,
// judge it, encode every event with its JSON copy, hash the chain, store).
// service_load measures the whole call; this isolates the C++ part of it.
//   build/bin/submit_bench --benchmark_min_time=2
// Further steps of the same path, each alone:
//   BM_ParseLog          the log text to messages
//   BM_EncodeEvents      each action to its stored payload and JSON copy
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/ruleset_registry.h"
#include "services/log/log_file.h"
#include "services/replay/simulate.h"
#include "services/games/game_events.h"
#include "services/games/game_writer.h"
#include "services/store/memory_event_store.h"

namespace {

using arbiter::engine::RulesetRegistry;

const RulesetRegistry& Registry() {
  static const RulesetRegistry* registry = new RulesetRegistry(*RulesetRegistry::WithBuiltins());
  return *registry;
}

// Simulated 3-player Atlantis logs, as service_load submits.
const std::vector<std::string>& Logs() {
  static const auto* logs = [] {
    auto* out = new std::vector<std::string>();
    for (uint64_t seed = 1; seed <= 50; ++seed) {
      auto log = arbiter::replay::SimulateGame({"atlantis", 3, seed}, Registry());
      if (log.ok()) out->push_back(arbiter::log::FormatLog(*log));
    }
    return out;
  }();
  return *logs;
}

int64_t LinesOf(const std::string& text) {
  int64_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

void BM_SubmitToMemoryStore(benchmark::State& state) {
  arbiter::store::MemoryEventStore store;
  arbiter::games::GameWriter writer(store, Registry(), arbiter::games::WriteLimits{});
  arbiter::access::Caller caller;
  caller.principal = "bench";
  caller.role = arbiter::store::Role::kAdmin;
  const arbiter::games::CancelCheck cancel = [] { return absl::OkStatus(); };
  int64_t games = 0, events = 0;
  for (auto _ : state) {
    const std::string& log = Logs()[static_cast<std::size_t>(games) % Logs().size()];
    arbiter::v1::SubmitGameRequest request;
    request.set_request_id(absl::StrCat("submit-", games));
    request.set_log(log);
    auto answer = writer.Submit(caller, request, cancel);
    if (!answer.ok()) state.SkipWithError(std::string(answer.status().message()).c_str());
    ++games;
    events += LinesOf(log);
  }
  state.SetItemsProcessed(games);
  state.counters["events_per_game"] = static_cast<double>(events) / static_cast<double>(games);
}
BENCHMARK(BM_SubmitToMemoryStore);

void BM_ParseLog(benchmark::State& state) {
  int64_t lines = 0;
  std::size_t next = 0;
  for (auto _ : state) {
    const std::string& log = Logs()[next++ % Logs().size()];
    auto parsed = arbiter::log::ParseLog(log, {});
    benchmark::DoNotOptimize(parsed);
    lines += LinesOf(log);
  }
  state.SetItemsProcessed(lines);  // lines per second
}
BENCHMARK(BM_ParseLog);

void BM_EncodeEvents(benchmark::State& state) {
  std::vector<arbiter::v1::Action> actions;
  for (const std::string& text : Logs()) {
    auto parsed = arbiter::log::ParseLog(text, {});
    if (parsed.ok()) actions.insert(actions.end(), parsed->actions.begin(), parsed->actions.end());
  }
  std::size_t next = 0;
  for (auto _ : state) {
    auto event = arbiter::games::EncodeAction("game", 2, actions[next++ % actions.size()]);
    benchmark::DoNotOptimize(event);
  }
  state.SetItemsProcessed(state.iterations());  // events per second
}
BENCHMARK(BM_EncodeEvents);

}  // namespace

BENCHMARK_MAIN();
