// Event store throughput on a private PostgreSQL cluster (the embedded
// launcher), with durable commits (synchronous_commit = on, fsync = on).
//
//   BM_RecordWholeGames      each game created with its 100 events in one
//                            call (one transaction), as SubmitGame stores a
//                            log; 1 and 8 writer threads
//   BM_AppendWholeGames      CreateGame, then one Append of 100 events;
//                            1 and 8 writer threads
//   BM_AppendMoveByMove      the same games appended 10 events at a time
//   BM_AppendOneEvent        one event per Append, each thread to its own
//                            game (1, 8 and 64 writers): live play
//   BM_StoredBytes/0|1       bytes per stored event (counters, not time):
//                            whole games, or one event per append
//   BM_AppendAtStoreSize/N   whole-game appends into a store that already
//                            holds N events (bulk-loaded first)
//   BM_ReplayAll             reading the whole store back in pages of 1000
//   BM_ReplayGame            reading one game of 100 events back
//
// Run: build/bin/store_bench   (items_per_second is events per second)
// STORE_BENCH_PG_CONFIG adds postgresql.conf lines, e.g.
// "log_min_duration_statement = 0" to see where the time goes.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>
#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"
#include "services/store/embedded_postgres.h"
#include "services/store/migrations.h"
#include "services/store/postgres_event_store.h"

namespace arbiter::store {
namespace {

constexpr int kEventsPerGame = 100;

void Die(const absl::Status& status) {
  std::fprintf(stderr, "store_bench: %s\n", status.ToString().c_str());
  std::exit(1);
}

// Started by main (the thread the server's lifetime is tied to) and
// stopped when the benchmarks end.
std::unique_ptr<EmbeddedPostgres>& ClusterSlot() {
  static auto* slot = new std::unique_ptr<EmbeddedPostgres>();
  return *slot;
}

EmbeddedPostgres& Cluster() { return *ClusterSlot(); }

void StartCluster() {
  {
    EmbeddedPostgresOptions options;
    const char* extra = std::getenv("STORE_BENCH_PG_CONFIG");
    options.extra_config = absl::StrCat("shared_buffers = '256MB'\nmax_wal_size = '2GB'\n",
                                        extra == nullptr ? "" : extra);
    absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> pg = EmbeddedPostgres::Start(options);
    if (!pg.ok()) Die(pg.status());
    ClusterSlot() = *std::move(pg);
  }
}

// One database per name, migrated, with a store on it (kept to the end).
PostgresEventStore& StoreFor(const std::string& name, std::string* conninfo = nullptr) {
  static std::mutex mu;
  static auto* stores = new std::map<std::string, std::pair<std::string, PostgresEventStore*>>();
  // Stores are leaked on purpose: their connections die with the cluster.
  std::lock_guard<std::mutex> lock(mu);
  auto it = stores->find(name);
  if (it == stores->end()) {
    {
      pqxx::connection admin(Cluster().ConninfoFor("postgres"));
      pqxx::nontransaction txn(admin);
      txn.exec("CREATE DATABASE " + name);
    }
    const std::string info = Cluster().ConninfoFor(name);
    if (absl::Status status = ApplyMigrations(info); !status.ok()) Die(status);
    PostgresOptions options;
    options.conninfo = info;
    absl::StatusOr<std::unique_ptr<PostgresEventStore>> store = PostgresEventStore::Open(options);
    if (!store.ok()) Die(store.status());
    it = stores->emplace(name, std::make_pair(info, store->release())).first;
  }
  if (conninfo != nullptr) *conninfo = it->second.first;
  return *it->second.second;
}

// A request for a new 4-player game "<prefix>-<n>" under request id
// "<kind>-<id>".
CreateGameRequest NewGameRequest(const std::string& kind, const std::string& prefix) {
  static std::atomic<int64_t> counter{0};
  const std::string id = absl::StrCat(prefix, "-", counter++);
  CreateGameRequest request;
  request.request_id = absl::StrCat(kind, "-", id);
  request.game.game_id = id;
  request.game.game = "atlantica";
  request.game.ruleset_id = "standard";
  request.game.ruleset_hash = engine::Sha256Hex("standard");
  request.game.seed = 7;
  request.game.players = {"ana", "ben", "cy", "dee"};
  request.game.created_by = "bench";
  return request;
}

std::string NewGame(EventStore& store, const std::string& prefix) {
  const CreateGameRequest request = NewGameRequest("create", prefix);
  const std::string& id = request.game.game_id;
  if (absl::Status status = store.CreateGame(request).status(); !status.ok()) Die(status);
  return id;
}

// Event i (from 0, so sequence i + 1) of a game: a payload of about 80
// bytes and its JSON copy, like an encoded action.
NewEvent MakeEvent(const std::string& game_id, int i) {
  NewEvent event;
  // Named as the service names events (store::DerivedEventId), spelled out
  // here so that this file also builds against the code before that
  // function, for side-by-side runs.
  event.event_id = absl::StrCat(engine::Sha256Hex(game_id).substr(0, 32), "-", i + 1);
  event.type = "action";
  event.payload = absl::StrCat("\x0a\x03", "ana", "\x12\x40", std::string(64, static_cast<char>('a' + i % 26)));
  event.json = absl::StrCat("{\"player\":\"ana\",\"move\":", i, ",\"card\":\"", i % 26, "\"}");
  return event;
}

// Appends one game of kEventsPerGame events in batches of `batch`.
void AppendGame(EventStore& store, const std::string& prefix, int batch) {
  const std::string game_id = NewGame(store, prefix);
  int64_t sequence = 0;
  for (int start = 0; start < kEventsPerGame; start += batch) {
    AppendRequest request;
    request.game_id = game_id;
    request.expected_sequence = sequence;
    request.request_id = absl::StrCat(game_id, "#", start);
    request.recorded_by = "bench";
    for (int i = start; i < start + batch && i < kEventsPerGame; ++i) {
      request.events.push_back(MakeEvent(game_id, i));
    }
    absl::StatusOr<AppendResult> result = store.Append(request);
    if (!result.ok()) Die(result.status());
    sequence = result->last_sequence;
  }
}

// Creates a game together with all its kEventsPerGame events, in one
// transaction (CreateGameRequest::events), as the service stores a
// submitted log.
void RecordGame(EventStore& store, const std::string& prefix) {
  CreateGameRequest request = NewGameRequest("record", prefix);
  const std::string id = request.game.game_id;
  request.game.status = GameStatus::kFinished;
  for (int i = 0; i < kEventsPerGame; ++i) request.events.push_back(MakeEvent(id, i));
  if (absl::Status status = store.CreateGame(request).status(); !status.ok()) Die(status);
}

void BM_RecordWholeGames(benchmark::State& state) {
  EventStore& store = StoreFor("bench_record");
  for (auto _ : state) RecordGame(store, absl::StrCat("rec", state.thread_index()));
  state.SetItemsProcessed(state.iterations() * kEventsPerGame);
}
BENCHMARK(BM_RecordWholeGames)->Threads(1)->Threads(8)->UseRealTime()->MinTime(3);

void BM_AppendWholeGames(benchmark::State& state) {
  EventStore& store = StoreFor("bench_whole");
  for (auto _ : state) AppendGame(store, absl::StrCat("w", state.thread_index()), kEventsPerGame);
  state.SetItemsProcessed(state.iterations() * kEventsPerGame);
}
BENCHMARK(BM_AppendWholeGames)->Threads(1)->Threads(8)->UseRealTime()->MinTime(3);

void BM_AppendMoveByMove(benchmark::State& state) {
  EventStore& store = StoreFor("bench_moves");
  for (auto _ : state) AppendGame(store, absl::StrCat("m", state.thread_index()), 10);
  state.SetItemsProcessed(state.iterations() * kEventsPerGame);
}
BENCHMARK(BM_AppendMoveByMove)->Threads(1)->Threads(8)->UseRealTime()->MinTime(3);

// One event per Append, each thread to its own game, as players' moves
// arrive in live play: the writers' appends share commits (group commit).
// Each thread's latency percentiles are averaged over the threads (p50_ms,
// p99_ms). Compare with bench/message_db_compare's one_event case.
void BM_AppendOneEvent(benchmark::State& state) {
  EventStore& store = StoreFor("bench_one");
  std::string game_id = NewGame(store, absl::StrCat("one", state.thread_index()));
  int64_t sequence = 0;
  std::vector<double> ms;
  for (auto _ : state) {
    if (sequence == kEventsPerGame) {
      game_id = NewGame(store, absl::StrCat("one", state.thread_index()));
      sequence = 0;
    }
    AppendRequest request;
    request.game_id = game_id;
    request.expected_sequence = sequence;
    request.request_id = absl::StrCat(game_id, "#", sequence);
    request.recorded_by = "bench";
    request.events.push_back(MakeEvent(game_id, static_cast<int>(sequence)));
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<AppendResult> result = store.Append(request);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
    if (!result.ok()) Die(result.status());
    sequence = result->last_sequence;
  }
  state.SetItemsProcessed(state.iterations());
  if (ms.empty()) return;
  std::sort(ms.begin(), ms.end());
  auto at = [&ms](double q) { return ms[static_cast<size_t>(q * static_cast<double>(ms.size() - 1))]; };
  state.counters["p50_ms"] = benchmark::Counter(at(0.50), benchmark::Counter::kAvgThreads);
  state.counters["p99_ms"] = benchmark::Counter(at(0.99), benchmark::Counter::kAvgThreads);
}
BENCHMARK(BM_AppendOneEvent)->Threads(1)->Threads(8)->Threads(64)->UseRealTime()->MinTime(5);

// Bytes per stored event, not time: 100 games of 100 events, stored as
// whole games (Arg 0: one batch each, as SubmitGame) or one event per append
// (Arg 1: as live play), in a database of their own. Counters: the events
// table with its indexes (and TOAST), its heap alone, its indexes alone,
// the batches' table (append_requests) with its indexes, and every table of
// the database together, each divided by the number of events.
void BM_StoredBytes(benchmark::State& state) {
  const bool live = state.range(0) == 1;
  constexpr int kGames = 100;
  for (auto _ : state) {
    std::string conninfo;
    EventStore& store = StoreFor(live ? "bench_bytes_live" : "bench_bytes_whole", &conninfo);
    if (!live) {
      for (int g = 0; g < kGames; ++g) RecordGame(store, "bytes");
    } else {
      std::vector<std::string> games;
      for (int g = 0; g < kGames; ++g) games.push_back(NewGame(store, "bytes"));
      for (int i = 0; i < kEventsPerGame; ++i) {
        for (const std::string& game_id : games) {
          AppendRequest request;
          request.game_id = game_id;
          request.expected_sequence = i;
          request.request_id = absl::StrCat(game_id, "#", i);
          request.recorded_by = "bench";
          request.events.push_back(MakeEvent(game_id, i));
          if (absl::Status status = store.Append(request).status(); !status.ok()) Die(status);
        }
      }
    }
    pqxx::connection conn(conninfo);
    pqxx::nontransaction txn(conn);
    txn.exec("CHECKPOINT");
    const pqxx::row sizes = txn.exec1(
        "SELECT (SELECT count(*) FROM events), pg_total_relation_size('events'), "
        "pg_relation_size('events'), pg_indexes_size('events'), "
        "pg_total_relation_size('append_requests'), "
        "(SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
        " JOIN pg_namespace n ON n.oid = c.relnamespace "
        " WHERE n.nspname = 'public' AND c.relkind = 'r')");
    const double events = sizes[0].as<double>();
    state.counters["events"] = events;
    state.counters["events_table_and_indexes"] = sizes[1].as<double>() / events;
    state.counters["events_heap"] = sizes[2].as<double>() / events;
    state.counters["events_indexes"] = sizes[3].as<double>() / events;
    state.counters["batches_table_and_indexes"] = sizes[4].as<double>() / events;
    state.counters["all_tables"] = sizes[5].as<double>() / events;
  }
}
BENCHMARK(BM_StoredBytes)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);

// Bulk-loads whole games of synthetic events (hashes are well-formed but
// not a real chain: only the table and index sizes matter here).
void BulkLoad(const std::string& conninfo, int64_t events) {
  pqxx::connection conn(conninfo);
  pqxx::work txn(conn);
  const int64_t games = events / kEventsPerGame;
  txn.exec_params(
      "INSERT INTO games (game_id, game, ruleset_id, ruleset_hash, seed, players, created_by, "
      "create_request_id, create_digest, last_sequence, last_hash) "
      "SELECT 'bulk-' || g, 'atlantica', 'standard', repeat('a', 64), 7, '{ana,ben}', 'bench', "
      "'create-bulk-' || g, repeat('d', 64), $2, repeat('f', 64) FROM generate_series(1, $1) g",
      games, kEventsPerGame);
  txn.exec_params(
      "INSERT INTO events (game_id, sequence, type, payload, hash) "
      "SELECT 'bulk-' || g, s, 'action', convert_to(repeat('x', 70), 'UTF8'), "
      "sha256(convert_to(g || '/' || s, 'UTF8')) "
      "FROM generate_series(1, $1) g, generate_series(1, $2) s",
      games, kEventsPerGame);
  txn.exec_params(
      "INSERT INTO append_requests (request_id, game_id, digest, first_sequence, last_sequence, "
      "first_position, last_position, last_hash, recorded_by) "
      "SELECT 'bulk-append-' || g, 'bulk-' || g, repeat('d', 64), 1, $2::bigint, "
      "(g - 1) * $2::bigint + 1, g * $2::bigint, repeat('f', 64), 'bench' "
      "FROM generate_series(1, $1::bigint) g",
      games, kEventsPerGame);
  txn.exec_params("UPDATE store_head SET last_position = $1", games * kEventsPerGame);
  txn.commit();
  pqxx::nontransaction analyse(conn);
  analyse.exec("VACUUM ANALYZE");
}

void BM_AppendAtStoreSize(benchmark::State& state) {
  const int64_t size = state.range(0);
  std::string conninfo;
  EventStore& store = StoreFor(absl::StrCat("bench_size_", size), &conninfo);
  static std::mutex mu;
  static std::map<int64_t, bool> loaded;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!loaded[size]) {
      BulkLoad(conninfo, size);
      loaded[size] = true;
    }
  }
  for (auto _ : state) AppendGame(store, "s", kEventsPerGame);
  state.SetItemsProcessed(state.iterations() * kEventsPerGame);
  state.counters["stored_events"] = static_cast<double>(*store.HeadPosition());
}
BENCHMARK(BM_AppendAtStoreSize)->Arg(10000)->Arg(1000000)->UseRealTime()->MinTime(3);

void BM_ReplayAll(benchmark::State& state) {
  EventStore& store = StoreFor("bench_replay");
  if (*store.HeadPosition() < 100000) {
    for (int g = 0; g < 1000; ++g) AppendGame(store, "r", kEventsPerGame);
  }
  int64_t events = 0;
  for (auto _ : state) {
    int64_t after = 0;
    for (;;) {
      absl::StatusOr<std::vector<StoredEvent>> page = store.ReadAll(after, 1000);
      if (!page.ok()) Die(page.status());
      if (page->empty()) break;
      after = page->back().position;
      events += static_cast<int64_t>(page->size());
    }
  }
  state.SetItemsProcessed(events);
}
BENCHMARK(BM_ReplayAll)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_ReplayGame(benchmark::State& state) {
  EventStore& store = StoreFor("bench_replay");
  std::string id;
  {
    absl::StatusOr<ListGamesPage> page = store.ListGames({}, 1, "");
    if (!page.ok() || page->games.empty()) Die(absl::InternalError("no game to replay"));
    id = page->games[0].game_id;
  }
  for (auto _ : state) {
    absl::StatusOr<std::vector<StoredEvent>> events = store.ReadGameEvents(id, 0, 1000);
    if (!events.ok()) Die(events.status());
    benchmark::DoNotOptimize(events->size());
  }
  state.SetItemsProcessed(state.iterations() * kEventsPerGame);
}
BENCHMARK(BM_ReplayGame)->UseRealTime();

}  // namespace
}  // namespace arbiter::store

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  arbiter::store::StartCluster();
  benchmark::RunSpecifiedBenchmarks();
  arbiter::store::ClusterSlot().reset();
  return 0;
}
