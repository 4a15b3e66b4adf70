// Leagues: how fast ratings are derived and served (docs/benchmarks.md).
//
//   BM_RateResults/N        the league model alone: N results of 4 players
//                           (from 100,000) rated in memory, results per second
//   BM_RebuildLeague/N      LeagueProjector::Rebuild of a league of N stored
//                           results: read them, rate them, replace every row
//   BM_Leaderboard/P        GetLeaderboard's query, top 50 of P rated players:
//                           p50 and p99 in microseconds
//   BM_LeaderboardRpc/G     GetLeaderboard through gRPC (a server in this
//                           process, a public token), top 50 of the players
//                           of G stored results: p50 and p99 in ms
//   BM_RederiveFromLogs     store read (ScanEvents) + replay through the engine + ratings,
//                           from the raw action logs of simulated games
//
// A private PostgreSQL cluster is started for the run (as store_bench does).
// Stored results are bulk-loaded with COPY, bypassing the writer, so that the
// setup of a million games takes seconds; the rows are those the service
// writes (a game_finished event per game, its append_requests row and its
// game_results entry).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include <grpcpp/grpcpp.h>

#include "arbiter/v1/arbiter_service.pb.h"
#include "arbiter/v1/league_service.grpc.pb.h"
#include "engine/core/ruleset_registry.h"
#include "engine/core/rng.h"
#include "engine/league/league_ratings.h"
#include "services/access/token_format.h"
#include "services/store/postgres_token_store.h"
#include "services/league/league_projector.h"
#include "services/league/league_settings.h"
#include "services/league/projection_store.h"
#include "services/replay/referee.h"
#include "services/replay/simulate.h"
#include "services/access/permissions.h"
#include "services/server/server.h"
#include "services/store/token_store.h"
#include "services/store/embedded_postgres.h"
#include "services/store/migrations.h"
#include "services/store/postgres_event_store.h"
#include "services/store/postgres_stream_store.h"

namespace arbiter {
namespace {

constexpr int kPool = 100'000;

void Die(const absl::Status& status) {
  std::fprintf(stderr, "league_bench: %s\n", std::string(status.message()).c_str());
  std::exit(1);
}

std::unique_ptr<store::EmbeddedPostgres>& Cluster() {
  static auto* slot = new std::unique_ptr<store::EmbeddedPostgres>();
  return *slot;
}

struct Db {
  std::string conninfo;
  store::PostgresEventStore* events = nullptr;
  store::PostgresStreamStore* streams = nullptr;
  league::ProjectionStore* projections = nullptr;
};

// One migrated database per name (kept to the end; leaked on purpose).
Db& DbFor(const std::string& name) {
  static std::mutex mu;
  static auto* dbs = new std::map<std::string, Db>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = dbs->find(name);
  if (it != dbs->end()) return it->second;
  {
    pqxx::connection admin(Cluster()->ConninfoFor("postgres"));
    pqxx::nontransaction txn(admin);
    txn.exec("CREATE DATABASE " + name);
  }
  Db db;
  db.conninfo = Cluster()->ConninfoFor(name);
  if (absl::Status status = store::ApplyMigrations(db.conninfo); !status.ok()) Die(status);
  store::PostgresOptions options;
  options.conninfo = db.conninfo;
  auto events = store::PostgresEventStore::Open(options);
  if (!events.ok()) Die(events.status());
  db.events = events->release();
  db.streams = new store::PostgresStreamStore(db.events->pool());
  db.projections = new league::ProjectionStore(db.events->pool());
  return dbs->emplace(name, db).first->second;
}

// The players of game g: 4 of the pool, chosen by the seeded generator.
std::vector<std::string> PlayersOf(engine::Rng& rng) {
  std::vector<std::string> players;
  while (players.size() < 4) {
    std::string id = absl::StrCat("p", rng.Uniform(kPool));
    if (std::find(players.begin(), players.end(), id) == players.end()) players.push_back(id);
  }
  return players;
}

std::string FinishedPayload(const std::vector<std::string>& players, engine::Rng& rng) {
  v1::GameFinished finished;
  finished.set_verdict(v1::VERDICT_LEGAL);
  finished.set_actions(60);
  finished.set_game_type("atlantis");
  finished.set_league("bench");
  for (std::size_t i = 0; i < players.size(); ++i) {
    finished.add_players(players[i]);
    v1::PlayerStanding* standing = finished.mutable_standings()->add_players();
    standing->set_player(players[i]);
    standing->set_seat(static_cast<int>(i) + 1);
    standing->set_place(1 + static_cast<int>(rng.Uniform(4)));
  }
  std::string out;
  finished.SerializeToString(&out);
  return out;
}

// `games` finished games of league "bench", as the service stores them.
void LoadResults(const Db& db, int64_t games) {
  pqxx::connection conn(db.conninfo);
  {
    pqxx::work txn(conn);
    txn.exec("ALTER TABLE append_requests DISABLE TRIGGER append_requests_record_result");
    txn.exec_params(
        "INSERT INTO games (game_id, game, ruleset_id, ruleset_hash, seed, players, created_by, "
        "create_request_id, create_digest, status, last_sequence, last_hash, league_id) "
        "SELECT 'g' || g, 'atlantis', 'bench', repeat('a', 64), 7, '{p}', 'bench', "
        "'create-' || g, repeat('d', 64), 'finished', 1, repeat('f', 64), 'bench' "
        "FROM generate_series(1, $1) g",
        games);
    engine::Rng rng(20261123);
    pqxx::stream_to copy(txn, "events",
                         std::vector<std::string>{"game_id", "sequence", "event_id", "type",
                                                  "payload", "hash"});
    for (int64_t g = 1; g <= games; ++g) {
      const std::vector<std::string> players = PlayersOf(rng);
      copy << std::make_tuple(absl::StrCat("g", g), 1, absl::StrCat("e", g), "game_finished",
                              absl::StrCat("\\x", absl::BytesToHexString(FinishedPayload(players, rng))),
                              absl::StrCat("\\x", std::string(64, 'f')));
    }
    copy.complete();
    txn.exec_params(
        "INSERT INTO append_requests (request_id, game_id, digest, first_sequence, "
        "last_sequence, first_position, last_position, last_hash, recorded_by) "
        "SELECT 'a' || g, 'g' || g, repeat('d', 64), 1, 1, g, g, repeat('f', 64), 'bench' "
        "FROM generate_series(1, $1::bigint) g",
        games);
    txn.exec_params(
        "INSERT INTO game_results (position, game_id, sequence, kind, league_id, "
        "recorded_micros, payload) "
        "SELECT g, e.game_id, 1, 'finished', 'bench', "
        "(extract(epoch FROM now()) * 1000000)::bigint, e.payload "
        "FROM generate_series(1, $1::bigint) g JOIN events e ON e.game_id = 'g' || g "
        "AND e.sequence = 1",
        games);
    txn.exec_params("UPDATE store_head SET last_position = $1", games);
    txn.exec("ALTER TABLE append_requests ENABLE TRIGGER append_requests_record_result");
    txn.commit();
  }
  pqxx::nontransaction analyse(conn);
  analyse.exec("VACUUM ANALYZE");
}

void CreateLeague(const Db& db) {
  v1::LeagueCreated created;
  created.mutable_settings()->add_game_types("atlantis");
  store::StreamAppendRequest append;
  append.stream_id = "leagues/bench";
  append.kind = league::kLeagueKind;
  append.request_id = "create-bench";
  append.recorded_by = "bench";
  append.type = league::kTypeLeagueCreated;
  created.SerializeToString(&append.payload);
  if (auto event = db.streams->Append(append); !event.ok()) Die(event.status());
}

void BM_RateResults(benchmark::State& state) {
  const int64_t games = state.range(0);
  std::vector<engine::league::GameResult> results;
  engine::Rng rng(7);
  for (int64_t g = 1; g <= games; ++g) {
    engine::league::GameResult r;
    r.position = g;
    r.game_id = absl::StrCat("g", g);
    r.game_type = "atlantis";
    r.legal = true;
    r.players = PlayersOf(rng);
    for (int i = 0; i < 4; ++i) r.places.push_back(1 + static_cast<int>(rng.Uniform(4)));
    results.push_back(std::move(r));
  }
  engine::league::LeagueConfig config;
  config.game_types = {"atlantis"};
  config.rating = *engine::rating::MakeConfig(engine::rating::System::kPlackettLuce, {});
  for (auto _ : state) {
    engine::league::LeagueRatings ratings(config);
    for (const engine::league::GameResult& r : results) benchmark::DoNotOptimize(ratings.Add(r, nullptr, nullptr));
  }
  state.SetItemsProcessed(state.iterations() * games);
}
BENCHMARK(BM_RateResults)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_RebuildLeague(benchmark::State& state) {
  const int64_t games = state.range(0);
  Db& db = DbFor(absl::StrCat("rebuild_", games));
  LoadResults(db, games);
  CreateLeague(db);
  league::LeagueProjector projector(*db.events, *db.events, *db.streams, *db.projections);
  if (absl::Status s = projector.CatchUp(); !s.ok()) Die(s);  // the first projection
  std::string digest;
  for (auto _ : state) {
    auto summary = projector.Rebuild("bench");
    if (!summary.ok()) Die(summary.status());
    digest = summary->digest;
    state.counters["rated_games"] = static_cast<double>(summary->rated_games);
    state.counters["players"] = static_cast<double>(summary->players);
  }
  state.SetItemsProcessed(state.iterations() * games);
  state.SetLabel(digest.substr(0, 16));
}
BENCHMARK(BM_RebuildLeague)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_RebuildLeague)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

void BM_Leaderboard(benchmark::State& state) {
  const int64_t players = state.range(0);
  Db& db = DbFor(absl::StrCat("board_", players));
  league::ProjectionWrite write;
  write.replaced_leagues = {"bench"};
  engine::Rng rng(11);
  const engine::rating::RatingConfig config = *engine::rating::MakeConfig(engine::rating::System::kPlackettLuce, {});
  for (int64_t p = 0; p < players; ++p) {
    engine::league::PlayerRating r;
    r.rating = engine::rating::Rating{25 + (static_cast<double>(rng.Uniform(2000)) - 1000) / 100.0,
                              1 + static_cast<double>(rng.Uniform(700)) / 100.0, 0};
    r.games = 1 + static_cast<int64_t>(rng.Uniform(50));
    r.last_position = p + 1;
    r.last_game = absl::StrCat("g", p);
    r.last_played = absl::FromUnixSeconds(1'790'000'000 + p);
    write.ratings.push_back(league::RowOf("bench", "", absl::StrCat("p", p), r, config));
  }
  write.tables.push_back(league::TableRow{"bench", "", players, players});
  auto checkpoint = db.projections->Checkpoint();
  if (!checkpoint.ok()) Die(checkpoint.status());
  write.from_position = write.to_position = *checkpoint;
  if (absl::Status s = db.projections->Write(write); !s.ok()) Die(s);
  {
    pqxx::connection conn(db.conninfo);
    pqxx::nontransaction analyse(conn);
    analyse.exec("VACUUM ANALYZE league_ratings");
  }
  std::vector<double> micros;
  for (auto _ : state) {
    const absl::Time start = absl::Now();
    auto page = db.projections->Leaderboard("bench", "", 50, "");
    micros.push_back(absl::ToDoubleMicroseconds(absl::Now() - start));
    if (!page.ok() || page->rows.size() != 50) Die(page.ok() ? absl::InternalError("short page") : page.status());
  }
  std::sort(micros.begin(), micros.end());
  state.counters["p50_us"] = micros[micros.size() / 2];
  state.counters["p99_us"] = micros[std::min(micros.size() - 1, micros.size() * 99 / 100)];
}
BENCHMARK(BM_Leaderboard)->Arg(100'000)->UseRealTime()->MinTime(3);

// Simulated games stored as the service stores them (created with their
// events and result), then read back in store order, replayed through the
// engine and rated: the whole derivation from raw action logs.
// GetLeaderboard through gRPC, as a client sees it: a server in this
// process on the database of 100,000 stored results (about 98,000 rated
// players), a public token, the top 50. p50 and p99 of the calls.
void BM_LeaderboardRpc(benchmark::State& state) {
  const int64_t games = state.range(0);
  Db& db = DbFor(absl::StrCat("board_rpc_", games));
  static std::unique_ptr<server::ArbiterServer> running;  // kept to the end
  static std::unique_ptr<v1::LeagueService::Stub> stub;
  static std::string token;
  static int64_t players = 0;
  if (running == nullptr) {
    LoadResults(db, games);
    CreateLeague(db);
    auto* projector = new league::LeagueProjector(*db.events, *db.events, *db.streams, *db.projections);
    if (absl::Status s = projector->CatchUp(); !s.ok()) Die(s);
    auto* tokens = new arbiter::store::PostgresTokenStore(db.events->pool());
    absl::StatusOr<arbiter::access::NewToken> made = arbiter::access::GenerateToken();
    if (!made.ok()) Die(made.status());
    made->record.role = arbiter::store::Role::kPublic;
    made->record.principal = "spectator";
    made->record.created_by = "bench";
    if (absl::Status s = tokens->Insert(made->record); !s.ok()) Die(s);
    token = made->token;
    static const engine::RulesetRegistry registry = *engine::RulesetRegistry::WithBuiltins();
    static server::LeagueParts parts;
    parts.streams = db.streams;
    parts.projections = db.projections;
    parts.projector = projector;
    server::ServerOptions options;
    options.listen = "127.0.0.1:0";
    auto started =
        server::ArbiterServer::Start(options, *db.events, *db.events, *tokens, registry, &parts);
    if (!started.ok()) Die(started.status());
    running = *std::move(started);
    stub = v1::LeagueService::NewStub(grpc::CreateChannel(
        absl::StrCat("127.0.0.1:", running->port()), grpc::InsecureChannelCredentials()));
  }
  std::vector<double> ms;
  for (auto _ : state) {
    v1::GetLeaderboardRequest request;
    request.set_league("leagues/bench");
    request.set_page_size(50);
    v1::Leaderboard board;
    grpc::ClientContext context;
    context.AddMetadata("authorization", absl::StrCat("Bearer ", token));
    const absl::Time start = absl::Now();
    grpc::Status status = stub->GetLeaderboard(&context, request, &board);
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - start));
    if (!status.ok()) Die(absl::InternalError(status.error_message()));
    if (board.rows_size() != 50) Die(absl::InternalError("the leaderboard has no 50 rows"));
    players = board.total_players();
  }
  std::sort(ms.begin(), ms.end());
  state.counters["p50_ms"] = ms[ms.size() / 2];
  state.counters["p99_ms"] = ms[ms.size() * 99 / 100];
  state.counters["players"] = static_cast<double>(players);
}
BENCHMARK(BM_LeaderboardRpc)->Arg(100'000)->UseRealTime()->MinTime(3);

void BM_RederiveFromLogs(benchmark::State& state) {
  const int games = static_cast<int>(state.range(0));
  Db& db = DbFor(absl::StrCat("rederive_", games));
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  std::vector<store::CreateGameRequest> requests;
  for (int g = 0; g < games; ++g) {
    replay::SimulationRequest sim;
    sim.game = "atlantis";
    sim.players = 2 + g % 3;
    sim.seed = static_cast<uint64_t>(g) + 1;
    auto log = replay::SimulateGame(sim, *registry);
    if (!log.ok()) Die(log.status());
    store::CreateGameRequest request;
    request.request_id = absl::StrCat("create-", g);
    request.game.game_id = absl::StrCat("sim-", g);
    request.game.game = "atlantis";
    request.game.ruleset_id = log->header.ruleset_id();
    request.game.ruleset_hash = log->header.ruleset_hash();
    request.game.seed = log->header.seed();
    for (const v1::Player& p : log->header.players()) request.game.players.push_back(p.id());
    request.game.created_by = "bench";
    request.game.league_id = "bench";
    v1::GameCreated created;
    *created.mutable_header() = log->header;
    created.set_league("bench");
    store::NewEvent first{absl::StrCat("sim-", g, "-1"), "game_created", created.SerializeAsString(), ""};
    request.events.push_back(first);
    for (std::size_t i = 0; i < log->actions.size(); ++i) {
      request.events.push_back(store::NewEvent{absl::StrCat("sim-", g, "-", i + 2), "action",
                                               log->actions[i].SerializeAsString(), ""});
    }
    requests.push_back(std::move(request));
  }
  for (const auto& result : db.events->CreateGames(requests)) {
    if (!result.ok()) Die(result.status());
  }
  engine::league::LeagueConfig config;
  config.game_types = {"atlantis"};
  config.rating = *engine::rating::MakeConfig(engine::rating::System::kPlackettLuce, {});
  int64_t events = 0;
  for (auto _ : state) {
    events = 0;
    engine::league::LeagueRatings ratings(config);
    std::optional<replay::Referee> referee;
    std::vector<std::string> players;
    std::string game_id;
    v1::Action action;
    auto finish = [&] {
      if (!referee.has_value() || referee->verdict() != replay::Verdict::kLegal) return;
      std::optional<v1::Standings> standings = referee->Standings();
      engine::league::GameResult r;
      r.game_id = game_id;
      r.game_type = "atlantis";
      r.legal = true;
      r.players = players;
      for (const v1::PlayerStanding& s : standings->players()) r.places.push_back(s.place());
      benchmark::DoNotOptimize(ratings.Add(r, nullptr, nullptr));
    };
    absl::Status scanned = db.events->ScanEvents(0, 0, [&](const store::StoredEvent& e) {
      ++events;
      if (e.type == "game_created") {
        finish();
        v1::GameCreated created;
        created.ParseFromString(e.payload);
        referee.emplace(*replay::Referee::Start(created.header(), *registry));
        players.clear();
        for (const v1::Player& p : created.header().players()) players.push_back(p.id());
        game_id = e.game_id;
      } else if (e.type == "action") {
        action.ParseFromString(e.payload);
        benchmark::DoNotOptimize(referee->Apply(action, e.sequence));
      }
      return absl::OkStatus();
    });
    if (!scanned.ok()) Die(scanned);
    finish();
  }
  state.counters["events"] = static_cast<double>(events);
  state.SetItemsProcessed(state.iterations() * events);
}
BENCHMARK(BM_RederiveFromLogs)->Arg(2000)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3);

}  // namespace
}  // namespace arbiter

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  arbiter::store::EmbeddedPostgresOptions options;
  options.extra_config = "shared_buffers = '512MB'\nmax_wal_size = '4GB'\n";
  auto pg = arbiter::store::EmbeddedPostgres::Start(options);
  if (!pg.ok()) arbiter::Die(pg.status());
  arbiter::Cluster() = *std::move(pg);
  benchmark::RunSpecifiedBenchmarks();
  arbiter::Cluster().reset();
  return 0;
}
