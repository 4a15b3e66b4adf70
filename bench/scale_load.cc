// scale_load: a steady load spread over one or more running arbiterd on one
// database, for the figures of several servers on one primary and of
// synchronous replication against a single node (bench/scale_figures.sh,
// docs/benchmarks.md). Not a Google Benchmark program: it drives servers
// that run in their own processes.
//
//   --mode appends   `--games` clients, each the client of one live game of
//                    Atlantis for three (simulated before the timing), send
//                    its moves one AppendActions call each, with the game's
//                    last event as expected_last_event and a request id, as
//                    a table page does, without pausing; client c talks to
//                    server c mod N. A game played to its end is replaced by
//                    a new one (CreateGame, timed apart and not counted).
//   --mode submits   `--clients` clients each SubmitGame whole simulated
//                    games (about 60 actions each), every log a new seed;
//                    client c talks to server c mod N.
//
// After `--seconds`, every client finishes its call in flight. Prints one
// line: calls per second, p50 and p99 of the calls' round trips in ms, and
// the number of errors (any error is printed once and makes the exit
// status 1):
//   scale_load: appends, 2 servers, 64 clients, 15.0 s: 2780.1/s, p50 21.9 ms, p99 38.2 ms, 41702 calls, 0 errors
#include <grpcpp/grpcpp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/log/log_file.h"
#include "services/replay/simulate.h"

namespace {

namespace v1 = arbiter::v1;
using Clock = std::chrono::steady_clock;

struct Options {
  std::vector<std::string> servers;
  std::string token;
  std::string mode;
  int games = 64;
  int clients = 8;
  double seconds = 15;
  uint64_t seed_base = 0;
};

struct Results {
  std::mutex mu;
  std::vector<double> ms;
  int64_t errors = 0;
  void Add(const std::vector<double>& more, int64_t more_errors) {
    std::lock_guard<std::mutex> lock(mu);
    ms.insert(ms.end(), more.begin(), more.end());
    errors += more_errors;
  }
};

std::unique_ptr<grpc::ClientContext> Context(const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->AddMetadata("authorization", absl::StrCat("Bearer ", token));
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  return context;
}

void FirstError(const std::string& what, const grpc::Status& status) {
  static std::once_flag once;
  std::call_once(once, [&] {
    std::fprintf(stderr, "scale_load: %s: %s\n", what.c_str(), status.error_message().c_str());
  });
}

double Ms(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

arbiter::log::GameLog Simulate(const arbiter::engine::RulesetRegistry& registry, uint64_t seed) {
  auto log = arbiter::replay::SimulateGame({"atlantis", 3, seed, "", {}}, registry);
  if (!log.ok()) {
    std::fprintf(stderr, "scale_load: cannot simulate: %s\n", log.status().ToString().c_str());
    std::exit(2);
  }
  return *std::move(log);
}

// A live game for `script`, created through `stub`; false on an error.
bool Create(v1::ArbiterService::Stub& stub, const Options& options,
            const arbiter::log::GameLog& script, const std::string& id) {
  v1::CreateGameRequest create;
  create.set_request_id(id);
  create.set_game_id(id);
  create.mutable_game()->set_game_type(script.header.game());
  create.mutable_game()->set_ruleset_id(script.header.ruleset_id());
  create.mutable_game()->set_ruleset_hash(script.header.ruleset_hash());
  *create.mutable_game()->mutable_players() = script.header.players();
  create.mutable_game()->set_seed(script.header.seed());
  v1::Game answer;
  const grpc::Status status = stub.CreateGame(Context(options.token).get(), create, &answer);
  if (!status.ok()) FirstError("CreateGame", status);
  return status.ok();
}

// One live-game client until `end`.
void Appender(int c, const Options& options, const std::vector<arbiter::log::GameLog>& scripts,
              Clock::time_point end, Results* results) {
  auto stub = v1::ArbiterService::NewStub(grpc::CreateChannel(
      options.servers[static_cast<std::size_t>(c) % options.servers.size()],
      grpc::InsecureChannelCredentials()));
  std::vector<double> ms;
  int64_t errors = 0;
  for (int round = 0; Clock::now() < end; ++round) {
    const arbiter::log::GameLog& script =
        scripts[static_cast<std::size_t>(c + round * options.games) % scripts.size()];
    const std::string id = absl::StrCat("scale-", options.seed_base, "-", c, "-", round);
    if (!Create(*stub, options, script, id)) {
      ++errors;
      break;
    }
    int64_t last_event = 1;
    for (std::size_t move = 0; move < script.actions.size() && Clock::now() < end; ++move) {
      v1::AppendActionsRequest append;
      append.set_game("games/" + id);
      append.set_expected_last_event(last_event);
      append.set_request_id(absl::StrCat(id, "-", move));
      *append.add_actions() = script.actions[move];
      v1::AppendActionsResponse response;
      const Clock::time_point sent = Clock::now();
      const grpc::Status status =
          stub->AppendActions(Context(options.token).get(), append, &response);
      if (!status.ok()) {
        FirstError("AppendActions", status);
        ++errors;
        break;
      }
      ms.push_back(Ms(sent));
      last_event = response.last_event();
    }
  }
  results->Add(ms, errors);
}

// One SubmitGame client until `end` (or its logs run out).
void Submitter(int c, const Options& options, const std::vector<std::string>& logs,
               Clock::time_point end, Results* results) {
  auto stub = v1::ArbiterService::NewStub(grpc::CreateChannel(
      options.servers[static_cast<std::size_t>(c) % options.servers.size()],
      grpc::InsecureChannelCredentials()));
  std::vector<double> ms;
  int64_t errors = 0;
  for (std::size_t i = static_cast<std::size_t>(c); Clock::now() < end;
       i += static_cast<std::size_t>(options.clients)) {
    if (i >= logs.size()) {
      std::fprintf(stderr, "scale_load: client %d ran out of logs; raise --logs\n", c);
      ++errors;
      break;
    }
    v1::SubmitGameRequest request;
    request.set_request_id(absl::StrCat("scale-", options.seed_base, "-", i));
    request.set_log(logs[i]);
    v1::SubmitGameResponse response;
    const Clock::time_point sent = Clock::now();
    const grpc::Status status = stub->SubmitGame(Context(options.token).get(), request, &response);
    if (!status.ok()) {
      FirstError("SubmitGame", status);
      ++errors;
      continue;
    }
    ms.push_back(Ms(sent));
  }
  results->Add(ms, errors);
}

double Percentile(std::vector<double>& values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1))];
}

std::string ReadToken(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return std::string(absl::StripAsciiWhitespace(text.str()));
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::string servers, token_file;
  int logs_wanted = 20000;
  CLI::App app("A steady load of live appends or whole-game submissions spread over arbiterd");
  app.add_option("--servers", servers, "host:port of each arbiterd, comma-separated")->required();
  app.add_option("--token-file", token_file, "A file holding an admin's token")->required();
  app.add_option("--mode", options.mode, "appends or submits")
      ->required()
      ->check(CLI::IsMember({"appends", "submits"}));
  app.add_option("--games", options.games, "appends: live games in play, one client each")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  app.add_option("--clients", options.clients, "submits: concurrent clients")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  app.add_option("--seconds", options.seconds, "How long the load runs")->capture_default_str();
  app.add_option("--logs", logs_wanted, "submits: distinct logs simulated before the timing")
      ->capture_default_str();
  app.add_option("--seed-base", options.seed_base,
                 "First seed (and the prefix of ids): give each run on one database its own")
      ->required();
  CLI11_PARSE(app, argc, argv);
  options.servers = absl::StrSplit(servers, ',', absl::SkipEmpty());
  options.token = ReadToken(token_file);
  if (options.token.empty() || options.servers.empty()) {
    std::fprintf(stderr, "scale_load: no token in %s, or no server\n", token_file.c_str());
    return 2;
  }
  auto registry = arbiter::engine::RulesetRegistry::WithBuiltins();
  if (!registry.ok()) return 2;

  // Everything simulated before the timing.
  std::vector<arbiter::log::GameLog> scripts;
  std::vector<std::string> logs;
  const bool appends = options.mode == "appends";
  const int count = appends ? options.games * 4 : logs_wanted;
  for (int i = 0; i < count; ++i) {
    arbiter::log::GameLog log = Simulate(*registry, options.seed_base + static_cast<uint64_t>(i));
    if (appends) {
      scripts.push_back(std::move(log));
    } else {
      logs.push_back(arbiter::log::FormatLog(log));
    }
  }

  Results results;
  const int threads = appends ? options.games : options.clients;
  const Clock::time_point start = Clock::now();
  const Clock::time_point end =
      start + std::chrono::microseconds(static_cast<int64_t>(options.seconds * 1e6));
  std::vector<std::thread> clients;
  for (int c = 0; c < threads; ++c) {
    if (appends) {
      clients.emplace_back(Appender, c, std::cref(options), std::cref(scripts), end, &results);
    } else {
      clients.emplace_back(Submitter, c, std::cref(options), std::cref(logs), end, &results);
    }
  }
  for (std::thread& client : clients) client.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  const auto calls = static_cast<int64_t>(results.ms.size());
  const double p50 = Percentile(results.ms, 0.50), p99 = Percentile(results.ms, 0.99);
  std::printf("scale_load: %s, %zu servers, %d clients, %.1f s: %.1f/s, p50 %.2f ms, p99 %.2f ms, "
              "%lld calls, %lld errors\n",
              options.mode.c_str(), options.servers.size(), threads, elapsed,
              static_cast<double>(calls) / elapsed, p50, p99, static_cast<long long>(calls),
              static_cast<long long>(results.errors));
  return results.errors == 0 ? 0 : 1;
}
