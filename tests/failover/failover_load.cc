// failover_load: live games played move by move on one or more arbiterd
// while something fails underneath, and afterwards the proof that nothing
// acknowledged was lost or stored twice.
//
// Each of `--games` clients creates a live game and appends its moves one
// AppendActions call at a time, with expected_last_event and a request id.
// A call that ends without a definite answer (UNAVAILABLE, a deadline, a
// broken channel) is an unknown outcome: the client sends the very same
// request again, to the next server in `--servers`, until it is answered;
// it never moves on before that. A definite refusal ends that client's game.
// With `--leagues`, each client's games belong to one of those leagues in
// turn (client t: the (t mod n)-th), so that every finished game is a result
// for the league projector.
// Beside them, each of `--submitters` clients submits whole games
// (SubmitGame, with a request id, sent again with that id until answered
// like an append), one every `--submit-every-ms`; each acknowledged one is
// read back at the end like a live game.
// `--progress-file` shows the count of acknowledged appends as it grows.
// When `--stop-file` appears (or after `--seconds`), every client finishes
// its call in flight, and then each game is read back: its last event must
// be the last one acknowledged (fewer: an acknowledged append was lost;
// more: an append was stored twice or without an answer), and VerifyGame
// must find its hash chain intact.
//
// Prints one line of figures and exits 0 only if all of that holds:
//   failover_load: G clients, A appends acknowledged, S whole games
//   submitted, U unknown outcomes
//   (resolved U, p50 N ms, p99 N ms, longest N ms), R refused, longest gap
//   between acknowledgements N ms, lost 0, extra 0, broken chains 0
// Each unknown outcome is printed when it is resolved, ending with when it
// began ("[unknown from epoch ms T]"); each problem (LOST, EXTRA, REFUSED)
// with the wall-clock time of the game's last acknowledgement ("epoch ms
// T"), so that a soak (scripts/failover-soak) can tell which fault it
// followed.
#include <grpcpp/grpcpp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
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
  int games = 8;
  int move_every_ms = 20;
  double seconds = 0;
  std::string stop_file;
  std::string progress_file;
  std::vector<std::string> leagues;  // league ids; empty: games in no league
  int submitters = 0;
  int submit_every_ms = 200;
};

// What every client saw, for the summary.
struct Tally {
  std::mutex mu;
  int64_t acknowledged = 0;
  int64_t unknown = 0;
  int64_t resolved = 0;
  int64_t refused = 0;
  int64_t longest_unknown_ms = 0;
  std::vector<int64_t> unknown_ms;  // how long each resolved unknown outcome took
  Clock::time_point last_ack = Clock::now();
  int64_t longest_gap_ms = 0;
  std::vector<std::string> refusals;

  void Acknowledged() {
    std::lock_guard<std::mutex> lock(mu);
    ++acknowledged;
    const Clock::time_point now = Clock::now();
    longest_gap_ms = std::max<int64_t>(
        longest_gap_ms,
        std::chrono::duration_cast<std::chrono::milliseconds>(now - last_ack).count());
    last_ack = now;
  }
  void Resolved(Clock::time_point since) {
    std::lock_guard<std::mutex> lock(mu);
    ++resolved;
    const int64_t took =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count();
    longest_unknown_ms = std::max<int64_t>(longest_unknown_ms, took);
    unknown_ms.push_back(took);
  }
  void Refused(const std::string& what) {
    std::lock_guard<std::mutex> lock(mu);
    ++refused;
    refusals.push_back(what);
  }
};

std::atomic<bool> g_stop{false};
Tally g_tally;
std::atomic<int64_t> g_submitted{0};  // whole games acknowledged

// Milliseconds since 1970 by the wall clock: comparable with the times the
// test scripts log for their faults.
int64_t EpochMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The `q` quantile (0-1) of `values`, nearest rank; 0 if empty.
int64_t Quantile(std::vector<int64_t> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  std::size_t rank = static_cast<std::size_t>(q * static_cast<double>(values.size()) + 0.999999);
  rank = std::clamp<std::size_t>(rank, 1, values.size());
  return values[rank - 1];
}

std::unique_ptr<grpc::ClientContext> Context(const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->AddMetadata("authorization", absl::StrCat("Bearer ", token));
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  return context;
}

// No definite answer: the request may or may not have been carried out.
bool OutcomeUnknown(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::UNAVAILABLE ||
         status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED ||
         status.error_code() == grpc::StatusCode::CANCELLED;
}

// One client's view of the servers: moves to the next one after an unknown
// outcome.
class Servers {
 public:
  explicit Servers(const std::vector<std::string>& addresses, std::size_t first) : next_(first) {
    for (const std::string& address : addresses) {
      stubs_.push_back(v1::ArbiterService::NewStub(
          grpc::CreateChannel(address, grpc::InsecureChannelCredentials())));
    }
  }
  v1::ArbiterService::Stub& Current() { return *stubs_[next_ % stubs_.size()]; }
  void Switch() { ++next_; }

 private:
  std::vector<std::unique_ptr<v1::ArbiterService::Stub>> stubs_;
  std::size_t next_;
};

// Sends `call` until it has a definite answer (after the stop too: an
// unknown outcome is never left behind). Returns that answer.
template <typename Call>
grpc::Status UntilAnswered(Servers& servers, const std::string& what, const Call& call) {
  grpc::Status status = call(servers.Current());
  if (!OutcomeUnknown(status)) return status;
  {
    std::lock_guard<std::mutex> lock(g_tally.mu);
    ++g_tally.unknown;
  }
  const grpc::Status first = status;
  const Clock::time_point since = Clock::now();
  const int64_t since_epoch_ms = EpochMs();
  int attempts = 1;
  while (OutcomeUnknown(status)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    servers.Switch();
    status = call(servers.Current());
    ++attempts;
  }
  g_tally.Resolved(since);
  std::printf("UNKNOWN: %s: %s; answered after %lld ms and %d calls: %s "
              "[unknown from epoch ms %lld]\n",
              what.c_str(), first.error_message().c_str(),
              static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                         Clock::now() - since)
                                         .count()),
              attempts, status.ok() ? "OK" : status.error_message().c_str(),
              static_cast<long long>(since_epoch_ms));
  return status;
}

struct Game {
  std::string id;
  int64_t acknowledged_last_event = 0;  // 0: never created
  int64_t acknowledged_at_ms = 0;       // EpochMs() of that acknowledgement
  bool ended = false;  // the last append ended it, adding the result's event
};

// One live game of Atlantis for three, move by move, until it ends or the
// stop; false if something was refused.
bool PlayOne(int table, uint64_t round, const Options& options,
             const arbiter::engine::RulesetRegistry& registry, Servers& servers, Game* game) {
  auto log = arbiter::replay::SimulateGame(
      {"atlantis", 3, 7919 * static_cast<uint64_t>(table) + round, "", {}}, registry);
  if (!log.ok()) {
    g_tally.Refused(absl::StrCat("table ", table, ": cannot simulate: ", log.status().ToString()));
    return false;
  }
  v1::CreateGameRequest create;
  create.set_request_id(game->id);
  create.set_game_id(game->id);
  create.mutable_game()->set_game_type(log->header.game());
  create.mutable_game()->set_ruleset_id(log->header.ruleset_id());
  create.mutable_game()->set_ruleset_hash(log->header.ruleset_hash());
  *create.mutable_game()->mutable_players() = log->header.players();
  create.mutable_game()->set_seed(log->header.seed());
  if (!options.leagues.empty()) {
    create.mutable_game()->set_league(
        options.leagues[static_cast<std::size_t>(table) % options.leagues.size()]);
  }
  const grpc::Status created = UntilAnswered(servers, game->id, [&](v1::ArbiterService::Stub& stub) {
    v1::Game answer;
    return stub.CreateGame(Context(options.token).get(), create, &answer);
  });
  if (!created.ok()) {
    g_tally.Refused(absl::StrCat(game->id, ": CreateGame: ", created.error_message()));
    return false;
  }
  game->acknowledged_last_event = 1;
  game->acknowledged_at_ms = EpochMs();
  for (std::size_t i = 0; i < log->actions.size() && !g_stop; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(options.move_every_ms));
    v1::AppendActionsRequest request;
    request.set_game(absl::StrCat("games/", game->id));
    request.set_request_id(absl::StrCat(game->id, "-", i));
    request.set_expected_last_event(game->acknowledged_last_event);
    *request.add_actions() = log->actions[i];
    v1::AppendActionsResponse response;
    const grpc::Status status = UntilAnswered(servers, request.request_id(), [&](v1::ArbiterService::Stub& stub) {
      return stub.AppendActions(Context(options.token).get(), request, &response);
    });
    if (!status.ok()) {
      g_tally.Refused(absl::StrCat(game->id, " move ", i, ": ", status.error_message(),
                                   " (refused at epoch ms ", EpochMs(), ")"));
      return false;
    }
    game->acknowledged_last_event = response.last_event();
    game->acknowledged_at_ms = EpochMs();
    game->ended = response.status() == v1::GAME_STATUS_FINISHED;
    g_tally.Acknowledged();
  }
  return true;
}

// One client: games one after the other until the stop.
void Play(int table, const std::string& run, const Options& options,
          const arbiter::engine::RulesetRegistry& registry, std::vector<Game>* games) {
  Servers servers(options.servers, static_cast<std::size_t>(table));
  for (uint64_t round = 1; !g_stop; ++round) {
    games->push_back(Game{absl::StrCat("failover-", run, "-", table, "-", round)});
    if (!PlayOne(table, round, options, registry, servers, &games->back())) return;
  }
}

// One submitter: whole games of Atlantis for three, one after the other
// until the stop, each acknowledged one kept in `games` for the end's check.
void Submit(int submitter, const std::string& run, const Options& options,
            const arbiter::engine::RulesetRegistry& registry, std::vector<Game>* games) {
  Servers servers(options.servers, static_cast<std::size_t>(submitter));
  for (uint64_t round = 1; !g_stop; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(options.submit_every_ms));
    // Seeds apart from the live games' (7919 * table + round), so that no
    // submission is refused as a duplicate of a played game.
    const uint64_t seed = (uint64_t{1} << 40) + 1'000'003 * static_cast<uint64_t>(submitter) + round;
    auto log = arbiter::replay::SimulateGame({"atlantis", 3, seed, "", {}}, registry);
    if (!log.ok()) {
      g_tally.Refused(absl::StrCat("submitter ", submitter, ": cannot simulate: ",
                                   log.status().ToString()));
      return;
    }
    Game game{absl::StrCat("submitted-", run, "-", submitter, "-", round)};
    v1::SubmitGameRequest request;
    request.set_request_id(game.id);
    request.set_game_id(game.id);
    request.set_log(arbiter::log::FormatLog(*log));
    if (!options.leagues.empty()) {
      request.set_league(options.leagues[static_cast<std::size_t>(submitter) % options.leagues.size()]);
    }
    v1::SubmitGameResponse response;
    const grpc::Status status = UntilAnswered(servers, game.id, [&](v1::ArbiterService::Stub& stub) {
      return stub.SubmitGame(Context(options.token).get(), request, &response);
    });
    if (!status.ok()) {
      g_tally.Refused(absl::StrCat(game.id, ": SubmitGame: ", status.error_message(),
                                   " (refused at epoch ms ", EpochMs(), ")"));
      return;
    }
    game.acknowledged_last_event = response.game().last_event();
    game.acknowledged_at_ms = EpochMs();
    games->push_back(game);
    ++g_submitted;
  }
}

// Reads every game back, printing each problem.
struct Check {
  int64_t lost = 0, extra = 0, broken = 0;
};
Check CheckGames(const Options& options, const std::vector<Game>& games) {
  Check check;
  Servers servers(options.servers, 0);
  for (const Game& game : games) {
    if (game.acknowledged_last_event == 0) continue;
    v1::GetGameRequest get;
    get.set_name(absl::StrCat("games/", game.id));
    v1::Game stored;
    grpc::Status status = UntilAnswered(servers, get.name(), [&](v1::ArbiterService::Stub& stub) {
      return stub.GetGame(Context(options.token).get(), get, &stored);
    });
    // An append that ended the game stored the result after its last action.
    const int64_t expected = game.acknowledged_last_event + (game.ended ? 1 : 0);
    if (!status.ok() || stored.last_event() < expected) {
      ++check.lost;
      std::printf(
          "LOST: %s: acknowledged through event %lld, stored through %lld (%s); last "
          "acknowledged at epoch ms %lld\n",
          game.id.c_str(), static_cast<long long>(expected),
          static_cast<long long>(stored.last_event()), status.error_message().c_str(),
          static_cast<long long>(game.acknowledged_at_ms));
      continue;
    }
    if (stored.last_event() > expected) {
      ++check.extra;
      std::printf(
          "EXTRA: %s: acknowledged through event %lld, stored through %lld; last acknowledged at "
          "epoch ms %lld\n",
          game.id.c_str(), static_cast<long long>(expected),
          static_cast<long long>(stored.last_event()),
          static_cast<long long>(game.acknowledged_at_ms));
    }
    v1::VerifyGameRequest verify;
    verify.set_name(get.name());
    v1::VerifyGameResponse report;
    status = UntilAnswered(servers, verify.name(), [&](v1::ArbiterService::Stub& stub) {
      return stub.VerifyGame(Context(options.token).get(), verify, &report);
    });
    if (!status.ok() || !report.intact()) {
      ++check.broken;
      std::printf("BROKEN: %s: %s %s\n", game.id.c_str(), status.error_message().c_str(),
                  report.problem().c_str());
    }
  }
  return check;
}

std::string ReadToken(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return std::string(absl::StripAsciiWhitespace(text.str()));
}

// Replaces `path` with the count of acknowledged appends, in one rename.
void WriteProgress(const std::string& path) {
  int64_t acknowledged;
  {
    std::lock_guard<std::mutex> lock(g_tally.mu);
    acknowledged = g_tally.acknowledged;
  }
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::trunc);
    out << acknowledged << "\n";
  }
  std::filesystem::rename(partial, path);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::string servers, token_file, leagues;
  CLI::App app("Live games on arbiterd through faults; then checks nothing acknowledged was lost");
  app.add_option("--servers", servers, "host:port of each arbiterd, comma-separated")->required();
  app.add_option("--token-file", token_file, "A file holding an admin's token")->required();
  app.add_option("--games", options.games, "Clients, one live game each")->check(CLI::Range(1, 1000));
  app.add_option("--move-every-ms", options.move_every_ms, "Each client's pause between moves");
  app.add_option("--seconds", options.seconds, "Stop after this long (0: at --stop-file)");
  app.add_option("--stop-file", options.stop_file, "Stop once this file exists");
  app.add_option("--progress-file", options.progress_file,
                 "Keep the count of acknowledged appends in this file (rewritten every 100 ms)");
  app.add_option("--leagues", leagues,
                 "League ids, comma-separated: client t's games belong to the (t mod n)-th");
  app.add_option("--submitters", options.submitters,
                 "Clients submitting whole games (SubmitGame) beside the live ones")
      ->check(CLI::Range(0, 100));
  app.add_option("--submit-every-ms", options.submit_every_ms,
                 "Each submitter's pause between two games");
  CLI11_PARSE(app, argc, argv);
  options.servers = absl::StrSplit(servers, ',', absl::SkipEmpty());
  options.leagues = absl::StrSplit(leagues, ',', absl::SkipEmpty());
  options.token = ReadToken(token_file);
  if (options.token.empty()) {
    std::fprintf(stderr, "failover_load: no token in %s\n", token_file.c_str());
    return 2;
  }
  auto registry = arbiter::engine::RulesetRegistry::WithBuiltins();
  if (!registry.ok()) return 2;
  const std::string run = absl::StrCat(std::chrono::system_clock::now().time_since_epoch().count());
  std::vector<std::vector<Game>> games(static_cast<std::size_t>(options.games));
  std::vector<std::thread> clients;
  for (int t = 0; t < options.games; ++t) {
    clients.emplace_back(Play, t, std::cref(run), std::cref(options), std::cref(*registry),
                         &games[static_cast<std::size_t>(t)]);
  }
  std::vector<std::vector<Game>> submitted(static_cast<std::size_t>(options.submitters));
  for (int t = 0; t < options.submitters; ++t) {
    clients.emplace_back(Submit, t, std::cref(run), std::cref(options), std::cref(*registry),
                         &submitted[static_cast<std::size_t>(t)]);
  }
  const Clock::time_point start = Clock::now();
  while (!g_stop) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!options.progress_file.empty()) WriteProgress(options.progress_file);
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if ((options.seconds > 0 && elapsed > options.seconds) ||
        (!options.stop_file.empty() && std::filesystem::exists(options.stop_file))) {
      g_stop = true;
    }
  }
  for (std::thread& client : clients) client.join();
  std::vector<Game> all;
  for (const std::vector<Game>& table : games) all.insert(all.end(), table.begin(), table.end());
  for (const std::vector<Game>& one : submitted) all.insert(all.end(), one.begin(), one.end());
  const Check check = CheckGames(options, all);
  for (const std::string& refusal : g_tally.refusals) std::printf("REFUSED: %s\n", refusal.c_str());
  std::printf(
      "failover_load: %d clients, %lld appends acknowledged, %lld whole games submitted, %lld "
      "unknown outcomes (resolved %lld, "
      "p50 %lld ms, p99 %lld ms, longest %lld ms), %lld refused, longest gap between "
      "acknowledgements %lld ms, lost %lld, extra %lld, broken chains %lld\n",
      options.games, static_cast<long long>(g_tally.acknowledged),
      static_cast<long long>(g_submitted.load()), static_cast<long long>(g_tally.unknown), static_cast<long long>(g_tally.resolved),
      static_cast<long long>(Quantile(g_tally.unknown_ms, 0.5)),
      static_cast<long long>(Quantile(g_tally.unknown_ms, 0.99)),
      static_cast<long long>(g_tally.longest_unknown_ms), static_cast<long long>(g_tally.refused),
      static_cast<long long>(g_tally.longest_gap_ms), static_cast<long long>(check.lost),
      static_cast<long long>(check.extra), static_cast<long long>(check.broken));
  const bool clean = check.lost == 0 && check.extra == 0 && check.broken == 0 &&
                     g_tally.refused == 0 && g_tally.unknown == g_tally.resolved;
  return clean ? 0 : 1;
}
