// WatchGame against a server in this process on a private embedded
// PostgreSQL.
//
// BM_MoveToWatchers/64: 64 live Atlantis games of 3 seats, each watched by
// its 3 seats (192 streams); 8 writer threads append the games' moves one at
// a time, in turn. For every move, the time from AppendActions' answer to
// the arrival of that event on each of the game's 3 streams: p50 and p99 in
// milliseconds (an event that arrives before the answer counts 0). Baseline,
// in the same run: AppendActions' own round trip (append_p50_ms,
// append_p99_ms), what a client that polls after its own append would wait
// at the least.
//
// BM_WatchersHeld/N: N streams open on 10 games where nothing happens; the
// memory this process grew by (server and clients together), per stream.
//
//   build/bin/watch_bench
#include <benchmark/benchmark.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "bench/bench_server.h"
#include "services/log/log_file.h"
#include "services/replay/simulate.h"

namespace {

using arbiter::bench::BenchContext;
namespace v1 = arbiter::v1;

constexpr char kProgram[] = "watch_bench";

using World = arbiter::bench::BenchServer;

void Fail(const std::string& what) { arbiter::bench::BenchFail(kProgram, what); }

World& TheWorld() { return arbiter::bench::SharedBenchServer(kProgram); }

// A new live game (its creation only); its id and the moves to play.
std::pair<std::string, std::vector<v1::Action>> NewGame(World& w, uint64_t seed) {
  arbiter::replay::SimulationRequest request{"atlantis", 3, seed, "", {}};
  auto log = arbiter::replay::SimulateGame(request, *w.registry);
  if (!log.ok()) Fail("simulate");
  static int created = 0;  // ids are unique per run
  const std::string id = absl::StrCat("w", ++created);
  arbiter::bench::CreateLiveGame(w, kProgram, *log, id);
  return {id, log->actions};
}

// One stream, read on its own thread: when each event arrived.
class Stream {
 public:
  Stream(v1::ArbiterService::Stub& stub, const std::string& token, const std::string& game)
      : context_(BenchContext(token)) {
    v1::WatchGameRequest request;
    request.set_game("games/" + game);
    reader_ = stub.WatchGame(context_.get(), request);
    thread_ = std::thread([this] {
      v1::GameUpdate update;
      while (reader_->Read(&update)) {
        const absl::Time now = absl::Now();
        std::lock_guard<std::mutex> lock(mu_);
        arrived_[update.event().event()] = now;
      }
      reader_->Finish();
    });
  }
  ~Stream() {
    context_->TryCancel();
    thread_.join();
  }
  std::map<int64_t, absl::Time> Arrived() {
    std::lock_guard<std::mutex> lock(mu_);
    return arrived_;
  }

 private:
  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<grpc::ClientReader<v1::GameUpdate>> reader_;
  std::mutex mu_;
  std::map<int64_t, absl::Time> arrived_;
  std::thread thread_;
};

double Percentile(std::vector<double> values, int percent) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, values.size() * percent / 100)];
}

// Arg: games in play.
void BM_MoveToWatchers(benchmark::State& state) {
  World& w = TheWorld();
  const int games = static_cast<int>(state.range(0));
  constexpr int kWatchersPerGame = 3;
  constexpr int kMovesPerGame = 40;
  constexpr int kWriters = 8;
  std::vector<double> ms;
  std::vector<double> appends;
  for (auto _ : state) {
    std::vector<std::pair<std::string, std::vector<v1::Action>>> played;
    std::vector<std::unique_ptr<Stream>> streams;
    for (int g = 0; g < games; ++g) {
      played.push_back(NewGame(w, 100 + static_cast<uint64_t>(g)));
      for (int s = 0; s < kWatchersPerGame; ++s) {
        streams.push_back(std::make_unique<Stream>(*w.games, w.token, played.back().first));
      }
    }
    // acked[g][event]: when AppendActions answered for that event.
    std::vector<std::map<int64_t, absl::Time>> acked(games);
    std::vector<std::vector<double>> append_ms(kWriters);
    std::vector<std::thread> writers;
    for (int t = 0; t < kWriters; ++t) {
      writers.emplace_back([&, t] {
        std::vector<int64_t> last(games, 1);
        for (int move = 0; move < kMovesPerGame; ++move) {
          for (int g = t; g < games; g += kWriters) {
            if (move >= static_cast<int>(played[g].second.size())) continue;
            v1::AppendActionsRequest append;
            append.set_game("games/" + played[g].first);
            append.set_expected_last_event(last[g]);
            append.set_request_id(absl::StrCat(played[g].first, "-", move));
            *append.add_actions() = played[g].second[move];
            v1::AppendActionsResponse response;
            const absl::Time sent = absl::Now();
            grpc::Status status =
                w.games->AppendActions(BenchContext(w.token).get(), append, &response);
            if (!status.ok()) Fail(status.error_message());
            acked[g][response.last_event()] = absl::Now();
            append_ms[t].push_back(absl::ToDoubleMilliseconds(acked[g][response.last_event()] - sent));
            last[g] = response.last_event();
          }
        }
      });
    }
    for (std::thread& t : writers) t.join();
    for (const std::vector<double>& part : append_ms) appends.insert(appends.end(), part.begin(), part.end());
    absl::SleepFor(absl::Milliseconds(500));  // the last moves' messages
    for (int g = 0; g < games; ++g) {
      for (int s = 0; s < kWatchersPerGame; ++s) {
        const std::map<int64_t, absl::Time> arrived = streams[g * kWatchersPerGame + s]->Arrived();
        for (const auto& [event, ack] : acked[g]) {
          auto it = arrived.find(event);
          if (it == arrived.end()) Fail(absl::StrCat("event ", event, " never arrived"));
          ms.push_back(std::max(0.0, absl::ToDoubleMilliseconds(it->second - ack)));
        }
      }
    }
  }
  state.counters["streams"] = games * kWatchersPerGame;
  state.counters["messages"] = static_cast<double>(ms.size());
  state.counters["p50_ms"] = Percentile(ms, 50);
  state.counters["p99_ms"] = Percentile(ms, 99);
  state.counters["append_p50_ms"] = Percentile(appends, 50);
  state.counters["append_p99_ms"] = Percentile(appends, 99);
}
BENCHMARK(BM_MoveToWatchers)->UseRealTime()->Iterations(1)->Arg(64);

// Resident memory of this process, in KiB.
double ResidentKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6));
  }
  return 0;
}

// Arg: streams held open.
void BM_WatchersHeld(benchmark::State& state) {
  World& w = TheWorld();
  const int watchers = static_cast<int>(state.range(0));
  constexpr int kGames = 10;
  std::vector<std::string> ids;
  for (int g = 0; g < kGames; ++g) ids.push_back(NewGame(w, 500 + static_cast<uint64_t>(g)).first);
  double per_watcher = 0;
  int held = 0;
  for (auto _ : state) {
    const double before = ResidentKiB();
    std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
    std::vector<std::unique_ptr<grpc::ClientReader<v1::GameUpdate>>> readers;
    for (int i = 0; i < watchers; ++i) {
      contexts.push_back(BenchContext(w.token));
      v1::WatchGameRequest request;
      request.set_game("games/" + ids[static_cast<size_t>(i % kGames)]);
      readers.push_back(w.games->WatchGame(contexts.back().get(), request));
    }
    for (int i = 0; i < 3000 && w.server->FeedStats().watchers < watchers; ++i) {
      absl::SleepFor(absl::Milliseconds(10));
    }
    held = w.server->FeedStats().watchers;
    per_watcher = (ResidentKiB() - before) / std::max(1, held);
    for (auto& context : contexts) context->TryCancel();
    for (auto& reader : readers) reader->Finish();
  }
  state.counters["held"] = held;
  state.counters["KiB_per_watcher"] = per_watcher;
}
BENCHMARK(BM_WatchersHeld)->UseRealTime()->Iterations(1)->Arg(1000)->Arg(10000);

}  // namespace

BENCHMARK_MAIN();
