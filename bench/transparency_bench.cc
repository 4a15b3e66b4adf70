// The transparency log's costs (docs/transparency.md, docs/benchmarks.md).
//
//   BM_TreeAppend              the pure part of adding one event: its leaf
//                              hash and the compact range's O(log n) update
//   BM_BuilderCatchUp          the log builder on PostgreSQL: per event, the
//                              whole step (read the new events, store leaves
//                              and subtree hashes, move the progress), in
//                              steps of 1000 events
//   BM_AppendWholeGames/0|1    the store's append cost per event (as in
//                              store_bench), without (0) and with (1) the
//                              builder running beside it every 50 ms
//   BM_SignCheckpoint          Ed25519 signing of a checkpoint note
//   BM_OpenCheckpoint          verifying one
//   BM_VerifyInclusion10M      verifying an inclusion proof in a tree of
//                              10,000,000 leaves (counter proof_bytes)
//   BM_VerifyConsistency10M    verifying a consistency proof from 9,999,000
//                              to 10,000,000 leaves (counter proof_bytes)
//   BM_StoredInclusionProof    computing an inclusion proof from the stored
//                              subtree hashes (PostgreSQL round trip)
//
// Run: build/bin/transparency_bench   (items_per_second: events per second)
#include <benchmark/benchmark.h>

#include <atomic>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/core/sha256.h"
#include "engine/merkle/compact_range.h"
#include "engine/merkle/merkle.h"
#include "services/store/embedded_postgres.h"
#include "services/store/migrations.h"
#include "services/store/postgres_event_store.h"
#include "services/transparency/checkpoint.h"
#include "services/transparency/transparency_log.h"

namespace arbiter::transparency {
namespace {

using engine::merkle::Hash;

constexpr int kEventsPerGame = 100;

void Die(const absl::Status& status) {
  std::fprintf(stderr, "transparency_bench: %s\n", status.ToString().c_str());
  std::exit(1);
}

std::unique_ptr<store::EmbeddedPostgres>& Cluster() {
  static auto* slot = new std::unique_ptr<store::EmbeddedPostgres>();
  return *slot;
}

// A fresh migrated database with a store on it (leaked: it dies with the
// cluster).
store::PostgresEventStore& NewStore(const std::string& name) {
  {
    pqxx::connection admin(Cluster()->ConninfoFor("postgres"));
    pqxx::nontransaction txn(admin);
    txn.exec("CREATE DATABASE " + name);
  }
  const std::string info = Cluster()->ConninfoFor(name);
  if (absl::Status status = store::ApplyMigrations(info); !status.ok()) Die(status);
  store::PostgresOptions options;
  options.conninfo = info;
  absl::StatusOr<std::unique_ptr<store::PostgresEventStore>> opened =
      store::PostgresEventStore::Open(options);
  if (!opened.ok()) Die(opened.status());
  return *opened->release();
}

// One game of kEventsPerGame events of about 80 bytes, created and appended
// in one batch, as store_bench's BM_AppendWholeGames does.
void AppendGame(store::EventStore& store, const std::string& prefix) {
  static std::atomic<int64_t> counter{0};
  const std::string id = absl::StrCat(prefix, "-", counter++);
  store::CreateGameRequest create;
  create.request_id = "create-" + id;
  create.game.game_id = id;
  create.game.game = "atlantica";
  create.game.ruleset_id = "standard";
  create.game.ruleset_hash = engine::Sha256Hex("standard");
  create.game.seed = 7;
  create.game.players = {"ana", "ben", "cy", "dee"};
  create.game.created_by = "bench";
  if (absl::Status s = store.CreateGame(create).status(); !s.ok()) Die(s);
  store::AppendRequest append;
  append.game_id = id;
  append.request_id = "append-" + id;
  append.recorded_by = "bench";
  for (int i = 0; i < kEventsPerGame; ++i) {
    store::NewEvent event;
    event.event_id = absl::StrCat(id, "/", i);
    event.type = "action";
    event.payload = absl::StrCat("\x0a\x03", "ana", "\x12\x40",
                                 std::string(64, static_cast<char>('a' + i % 26)));
    event.json = absl::StrCat("{\"player\":\"ana\",\"move\":", i, "}");
    append.events.push_back(event);
  }
  if (absl::Status s = store.Append(append).status(); !s.ok()) Die(s);
}

NoteSigner& Signer() {
  static NoteSigner* signer = new NoteSigner(*NoteSigner::Generate("bench.example/log"));
  return *signer;
}

void BM_TreeAppend(benchmark::State& state) {
  engine::merkle::CompactRange range;
  const std::string event_hash(32, 'h');
  for (auto _ : state) {
    benchmark::DoNotOptimize(range.Append(engine::merkle::LeafHash(event_hash)));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TreeAppend);

void BM_BuilderCatchUp(benchmark::State& state) {
  static int runs = 0;
  store::PostgresEventStore& store = NewStore(absl::StrCat("bench_builder_", runs++));
  TransparencyLog log(store, Signer());
  for (auto _ : state) {
    state.PauseTiming();
    for (int g = 0; g < 10; ++g) AppendGame(store, "b");
    state.ResumeTiming();
    absl::StatusOr<uint64_t> size = log.CatchUp();
    if (!size.ok()) Die(size.status());
  }
  state.SetItemsProcessed(state.iterations() * 10 * kEventsPerGame);
}
BENCHMARK(BM_BuilderCatchUp)->UseRealTime()->MinTime(3);

void BM_AppendWholeGames(benchmark::State& state) {
  static int runs = 0;
  store::PostgresEventStore& store =
      NewStore(absl::StrCat("bench_append_", state.range(0), "_", runs++));
  std::unique_ptr<TransparencyLog> log;
  if (state.range(0) == 1) {
    log = std::make_unique<TransparencyLog>(store, Signer());
    log->Start(absl::Milliseconds(50), absl::Seconds(1));
  }
  for (auto _ : state) AppendGame(store, "a");
  state.SetItemsProcessed(state.iterations() * kEventsPerGame);
  if (log != nullptr) {
    log->Stop();
    absl::StatusOr<uint64_t> size = log->CatchUp();
    if (!size.ok()) Die(size.status());
    state.counters["tree_size"] = static_cast<double>(*size);
  }
}
BENCHMARK(BM_AppendWholeGames)->Arg(0)->Arg(1)->UseRealTime()->MinTime(5);

void BM_SignCheckpoint(benchmark::State& state) {
  Checkpoint checkpoint;
  checkpoint.origin = Signer().name();
  checkpoint.size = 10'000'000;
  checkpoint.root = engine::merkle::LeafHash("root");
  checkpoint.time = absl::FromUnixSeconds(1'795'420'800);
  for (auto _ : state) {
    checkpoint.size++;
    benchmark::DoNotOptimize(Signer().Sign(CheckpointText(checkpoint)));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SignCheckpoint);

void BM_OpenCheckpoint(benchmark::State& state) {
  Checkpoint checkpoint;
  checkpoint.origin = Signer().name();
  checkpoint.size = 10'000'000;
  checkpoint.root = engine::merkle::LeafHash("root");
  checkpoint.time = absl::FromUnixSeconds(1'795'420'800);
  const std::string note = *Signer().Sign(CheckpointText(checkpoint));
  const NoteVerifier verifier = *NoteVerifier::Parse(Signer().VerifierKey());
  for (auto _ : state) benchmark::DoNotOptimize(OpenCheckpoint(verifier, note));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OpenCheckpoint);

// A tree of 10,000,000 leaves (leaf i's data: the 8 bytes of i), built once:
// its roots at the two sizes and the hashes of the ranges the proofs need.
constexpr uint64_t kBigTree = 10'000'000;
constexpr uint64_t kOldSize = 9'999'000;
constexpr uint64_t kProvedLeaf = 6'543'210;

Hash BigLeaf(uint64_t i) {
  return engine::merkle::LeafHash(
      std::string_view(reinterpret_cast<const char*>(&i), sizeof(i)));
}
Hash BigSubtree(uint64_t begin, uint64_t size) {
  if (size == 1) return BigLeaf(begin);
  const uint64_t k = std::bit_floor(size - 1);
  return engine::merkle::NodeHash(BigSubtree(begin, k), BigSubtree(begin + k, size - k));
}
std::vector<Hash> BigProof(const std::vector<engine::merkle::Range>& ranges) {
  std::vector<Hash> out;
  for (const engine::merkle::Range& r : ranges) out.push_back(BigSubtree(r.begin, r.end - r.begin));
  return out;
}
struct BigTree {
  Hash old_root, root;
  std::vector<Hash> inclusion, consistency;
};
const BigTree& Big() {
  static const BigTree* tree = [] {
    auto* t = new BigTree;
    engine::merkle::CompactRange range;
    for (uint64_t i = 0; i < kBigTree; ++i) {
      range.Append(BigLeaf(i));
      if (range.size() == kOldSize) t->old_root = range.Root();
    }
    t->root = range.Root();
    t->inclusion = BigProof(engine::merkle::InclusionRanges(kProvedLeaf, kBigTree));
    t->consistency = BigProof(engine::merkle::ConsistencyRanges(kOldSize, kBigTree));
    return t;
  }();
  return *tree;
}

void BM_VerifyInclusion10M(benchmark::State& state) {
  const BigTree& tree = Big();
  const Hash leaf = BigLeaf(kProvedLeaf);
  for (auto _ : state) {
    absl::Status s =
        engine::merkle::VerifyInclusion(kProvedLeaf, kBigTree, leaf, tree.inclusion, tree.root);
    if (!s.ok()) Die(s);
  }
  state.counters["proof_hashes"] = static_cast<double>(tree.inclusion.size());
  state.counters["proof_bytes"] = static_cast<double>(tree.inclusion.size() * 32);
}
BENCHMARK(BM_VerifyInclusion10M);

void BM_VerifyConsistency10M(benchmark::State& state) {
  const BigTree& tree = Big();
  for (auto _ : state) {
    absl::Status s = engine::merkle::VerifyConsistency(kOldSize, kBigTree, tree.old_root,
                                                       tree.root, tree.consistency);
    if (!s.ok()) Die(s);
  }
  state.counters["proof_hashes"] = static_cast<double>(tree.consistency.size());
  state.counters["proof_bytes"] = static_cast<double>(tree.consistency.size() * 32);
}
BENCHMARK(BM_VerifyConsistency10M);

void BM_StoredInclusionProof(benchmark::State& state) {
  static int runs = 0;
  store::PostgresEventStore& store = NewStore(absl::StrCat("bench_proofs_", runs++));
  TransparencyLog log(store, Signer());
  for (int g = 0; g < 200; ++g) AppendGame(store, "p");
  const uint64_t size = *log.CatchUp();
  uint64_t i = 0;
  for (auto _ : state) {
    absl::StatusOr<std::vector<Hash>> proof = log.InclusionProof(i++ % size, size);
    if (!proof.ok()) Die(proof.status());
  }
  state.counters["tree_size"] = static_cast<double>(size);
}
BENCHMARK(BM_StoredInclusionProof)->UseRealTime();

}  // namespace
}  // namespace arbiter::transparency

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  arbiter::store::EmbeddedPostgresOptions options;
  options.extra_config = "shared_buffers = '256MB'\nmax_wal_size = '2GB'\n";
  absl::StatusOr<std::unique_ptr<arbiter::store::EmbeddedPostgres>> pg =
      arbiter::store::EmbeddedPostgres::Start(options);
  if (!pg.ok()) arbiter::transparency::Die(pg.status());
  arbiter::transparency::Cluster() = *std::move(pg);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (absl::Status s = arbiter::transparency::Cluster()->Stop(); !s.ok()) {
    arbiter::transparency::Die(s);
  }
  return 0;
}
