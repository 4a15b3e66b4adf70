// The server's memory while 8 clients read 100,000-event games: a server in
// this process on a private embedded PostgreSQL, 8 stored games of 100,000
// events each, and 8 client threads over gRPC, each reading its own game
// (so that AdjudicateGame misses the judgement cache): AdjudicateGame,
// VerifyGame, GetGameState of the last event and of event 50,000.
//
// No legal game of our three games is that long (a random Atlantis game has
// about 50 events, the longest of the browser test 317), so each game is a
// simulated Atlantis game (3 players) followed by its own actions again up
// to 99,998 actions, submitted through SubmitGame, which keeps actions after
// a violation as evidence: the creation, 99,998 actions and the result. The
// referee stops at the first action after the end; VerifyGame still reads,
// hashes and decodes every event.
//
// Counters: the process's resident memory before the reads (after the games
// are stored, freed memory is given back with malloc_trim and the peak is
// reset through /proc/self/clear_refs), its peak during them (VmHWM) and the
// growth, in MiB; the seconds the 8 clients took.
//
//   build/bin/long_reads_bench
#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "bench/bench_server.h"
#include "services/log/log_file.h"
#include "services/replay/simulate.h"

namespace {

using arbiter::bench::BenchContext;

constexpr int kClients = 8;
constexpr std::size_t kActions = 99'998;  // + the creation and the result: 100,000 events

constexpr char kProgram[] = "long_reads_bench";

void Fail(const std::string& what) { arbiter::bench::BenchFail(kProgram, what); }

// A line of /proc/self/status ("VmRSS", "VmHWM") in MiB; -1 if absent.
double StatusMiB(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) != 0) continue;
    std::string digits;
    for (char c : line) {
      if (c >= '0' && c <= '9') digits += c;
    }
    int64_t kib = 0;
    if (absl::SimpleAtoi(digits, &kib)) return static_cast<double>(kib) / 1024.0;
  }
  return -1;
}

using World = arbiter::bench::BenchServer;

World& TheWorld() {
  static World* const world = [] {
    World* w = arbiter::bench::StartBenchServer(kProgram).release();
    auto stub = arbiter::v1::ArbiterService::NewStub(w->channel);
    for (int i = 0; i < kClients; ++i) {
      arbiter::replay::SimulationRequest request{
          "atlantis", 3, static_cast<uint64_t>(100 + i), "", {}};
      auto log = arbiter::replay::SimulateGame(request, *w->registry);
      if (!log.ok()) Fail("simulate");
      const std::size_t played = log->actions.size();
      for (std::size_t a = played; a < kActions; ++a) {
        log->actions.push_back(log->actions[a % played]);
      }
      arbiter::v1::SubmitGameRequest submit;
      submit.set_request_id(absl::StrCat("long-", i));
      submit.set_game_id(absl::StrCat("long-", i));
      submit.set_log(arbiter::log::FormatLog(*log));
      arbiter::v1::SubmitGameResponse response;
      grpc::Status status = stub->SubmitGame(BenchContext(w->token).get(), submit, &response);
      if (!status.ok()) Fail(status.error_message());
      if (response.game().last_event() != 100'000) Fail("a game is not 100,000 events long");
    }
    return w;
  }();
  return *world;
}

// One client's reads of game `index`; false on an error.
bool ReadLongGame(World& w, int index) {
  auto stub = arbiter::v1::ArbiterService::NewStub(w.channel);
  const std::string name = absl::StrCat("games/long-", index);
  arbiter::v1::AdjudicateGameRequest adjudicate;
  adjudicate.set_name(name);
  arbiter::v1::Adjudication adjudication;
  if (!stub->AdjudicateGame(BenchContext(w.token).get(), adjudicate, &adjudication).ok())
    return false;
  arbiter::v1::VerifyGameRequest verify;
  verify.set_name(name);
  arbiter::v1::VerifyGameResponse report;
  if (!stub->VerifyGame(BenchContext(w.token).get(), verify, &report).ok() || !report.intact()) {
    return false;
  }
  for (int64_t event : {int64_t{0}, int64_t{50'000}}) {
    arbiter::v1::GetGameStateRequest state;
    state.set_name(name);
    state.set_event(event);
    arbiter::v1::GameState position;
    if (!stub->GetGameState(BenchContext(w.token).get(), state, &position).ok()) return false;
  }
  return true;
}

void BM_EightClientsReadLongGames(benchmark::State& state) {
  World& w = TheWorld();
  malloc_trim(0);
  {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";  // resets VmHWM to the current resident size
  }
  const double before = StatusMiB("VmRSS");
  for (auto _ : state) {
    const absl::Time start = absl::Now();
    std::vector<std::thread> clients;
    std::vector<int> ok(kClients, 0);
    for (int c = 0; c < kClients; ++c) {
      clients.emplace_back([&w, &ok, c] { ok[c] = ReadLongGame(w, c) ? 1 : 0; });
    }
    for (std::thread& client : clients) client.join();
    for (int c = 0; c < kClients; ++c) {
      if (!ok[c]) Fail(absl::StrCat("client ", c, " failed"));
    }
    state.counters["seconds"] = absl::ToDoubleSeconds(absl::Now() - start);
  }
  const double peak = StatusMiB("VmHWM");
  state.counters["rss_before_MiB"] = before;
  state.counters["peak_MiB"] = peak;
  state.counters["growth_MiB"] = peak - before;
}
BENCHMARK(BM_EightClientsReadLongGames)->UseRealTime()->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
