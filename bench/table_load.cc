// Tables in play, for measuring something else under load: keeps `--games`
// live games moving on a running arbiterd, each a client that appends its
// next move (one AppendActions call, with expected_last_event and a request
// id, checked by the rules) every `--move-every-ms`, as people at a table
// do, and starts a new game when one ends. Runs until SIGTERM or SIGINT (or
// `--seconds`), then prints the moves stored and the calls that failed.
// web_play_test runs it beside the table pages (docs/web.md, "Speed").
//
//   build/bin/table_load --server 127.0.0.1:50051 --token-file admin.token
//                        [--games 64] [--move-every-ms 2000] [--seconds 0]
#include <grpcpp/grpcpp.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/replay/simulate.h"

namespace {

namespace v1 = arbiter::v1;
std::atomic<bool> g_stop{false};
std::atomic<int64_t> g_moves{0};
std::atomic<int64_t> g_failed{0};

struct Options {
  std::string server;
  std::string token_file;
  int games = 64;
  int move_every_ms = 2000;
  double seconds = 0;
};

std::unique_ptr<grpc::ClientContext> Context(const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->AddMetadata("authorization", absl::StrCat("Bearer ", token));
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  return context;
}

// Creates live game `id` for the header of `log`; false if it cannot.
bool Create(v1::ArbiterService::Stub& stub, const std::string& token, const arbiter::log::GameLog& log,
            const std::string& id) {
  v1::CreateGameRequest create;
  create.set_request_id(id);
  create.set_game_id(id);
  create.mutable_game()->set_game_type(log.header.game());
  create.mutable_game()->set_ruleset_id(log.header.ruleset_id());
  create.mutable_game()->set_ruleset_hash(log.header.ruleset_hash());
  *create.mutable_game()->mutable_players() = log.header.players();
  create.mutable_game()->set_seed(log.header.seed());
  v1::Game game;
  return stub.CreateGame(Context(token).get(), create, &game).ok();
}

// One table: plays simulated games move by move, one after the other.
void Table(int table, const Options& options, const std::string& token,
           const arbiter::engine::RulesetRegistry& registry) {
  auto channel = grpc::CreateChannel(options.server, grpc::InsecureChannelCredentials());
  auto stub = v1::ArbiterService::NewStub(channel);
  const auto run_id = std::chrono::system_clock::now().time_since_epoch().count();
  for (uint64_t round = 0; !g_stop; ++round) {
    auto log = arbiter::replay::SimulateGame({"atlantis", 3, 7919 * static_cast<uint64_t>(table) + round, "", {}},
                                             registry);
    const std::string id = absl::StrCat("load-", run_id, "-", table, "-", round);
    if (!log.ok() || !Create(*stub, token, *log, id)) {
      ++g_failed;
      std::this_thread::sleep_for(std::chrono::seconds(1));
      continue;
    }
    int64_t last_event = 1;
    for (size_t i = 0; i < log->actions.size() && !g_stop; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(options.move_every_ms));
      v1::AppendActionsRequest request;
      request.set_game(absl::StrCat("games/", id));
      request.set_request_id(absl::StrCat(id, "-", i));
      request.set_expected_last_event(last_event);
      *request.add_actions() = log->actions[i];
      v1::AppendActionsResponse response;
      if (stub->AppendActions(Context(token).get(), request, &response).ok()) {
        last_event = response.last_event();
        ++g_moves;
      } else {
        ++g_failed;
        break;
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  CLI::App app("Keeps live games moving on a running arbiterd");
  app.add_option("--server", options.server, "host:port of arbiterd's gRPC")->required();
  app.add_option("--token-file", options.token_file, "A file holding an admin's token")->required();
  app.add_option("--games", options.games, "Games in play at once")->check(CLI::Range(1, 10000));
  app.add_option("--move-every-ms", options.move_every_ms, "Each game's pace")->check(CLI::Range(1, 3600000));
  app.add_option("--seconds", options.seconds, "Stop after this long (0: at SIGTERM)");
  CLI11_PARSE(app, argc, argv);
  std::ifstream in(options.token_file);
  std::stringstream text;
  text << in.rdbuf();
  const std::string token(absl::StripAsciiWhitespace(text.str()));
  if (token.empty()) {
    std::fprintf(stderr, "table_load: no token in %s\n", options.token_file.c_str());
    return 2;
  }
  std::signal(SIGTERM, [](int) { g_stop = true; });
  std::signal(SIGINT, [](int) { g_stop = true; });
  auto registry = arbiter::engine::RulesetRegistry::WithBuiltins();
  if (!registry.ok()) return 1;
  std::vector<std::thread> tables;
  for (int t = 0; t < options.games; ++t) {
    tables.emplace_back(Table, t, std::cref(options), std::cref(token), std::cref(*registry));
  }
  const auto start = std::chrono::steady_clock::now();
  while (!g_stop) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (options.seconds > 0 &&
        std::chrono::steady_clock::now() - start > std::chrono::duration<double>(options.seconds)) {
      g_stop = true;
    }
  }
  for (std::thread& t : tables) t.join();
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("table_load: %d games, %lld moves stored in %.1f s (%.1f a second), %lld calls failed\n",
              options.games, static_cast<long long>(g_moves.load()), elapsed,
              static_cast<double>(g_moves.load()) / elapsed, static_cast<long long>(g_failed.load()));
  return g_failed.load() == 0 ? 0 : 1;
}
