// The transparency log's costs (docs/transparency.md, docs/benchmarks.md).
//
//   BM_TreeAppend              the pure part of adding one event: its leaf
//                              hash and the compact range's O(log n) update
//   BM_BuilderCatchUp/G        the log builder on PostgreSQL: per event, the
//                              whole step (read the new events, store leaves
//                              and tiles, move the progress), in steps of
//                              G games of 100 events; counters: CPU per
//                              event in this process and in PostgreSQL
//   BM_AppendWholeGames/0|1|2  the store's append cost per event (as in
//                              store_bench), without (0) and with the
//                              builder running beside it every 50 ms (1) or
//                              every 200 ms (2, arbiterd's default); the
//                              CPU counters of /1 and /2 minus those of /0
//                              are what the tree costs per appended event
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
#include <cstring>
#include <dirent.h>
#include <unistd.h>
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

// CPU seconds (user + system) from /proc/PID/stat; with `children`, also
// that of its children that have exited.
double ProcessCpuSeconds(int pid, bool children, int* parent = nullptr) {
  std::FILE* file = std::fopen(absl::StrCat("/proc/", pid, "/stat").c_str(), "r");
  if (file == nullptr) return 0;
  char buffer[1024] = {};
  const std::size_t n = std::fread(buffer, 1, sizeof(buffer) - 1, file);
  std::fclose(file);
  // Fields after the command name, which is in parentheses: state (3),
  // ppid (4), ... utime (14), stime (15), cutime (16), cstime (17).
  const char* rest = std::strrchr(buffer, ')');
  if (rest == nullptr || n == 0) return 0;
  char state_letter = 0;
  int ppid = 0;
  unsigned long skip = 0, utime = 0, stime = 0;
  long cutime = 0, cstime = 0;
  if (std::sscanf(rest + 2, "%c %d %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %ld %ld", &state_letter,
                  &ppid, &skip, &skip, &skip, &skip, &skip, &skip, &skip, &skip, &skip, &utime,
                  &stime, &cutime, &cstime) != 15) {
    return 0;
  }
  if (parent != nullptr) *parent = ppid;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  return (static_cast<double>(utime + stime) +
          (children ? static_cast<double>(cutime + cstime) : 0.0)) / ticks;
}

// CPU seconds used so far by the benchmark's PostgreSQL cluster: the
// postmaster, its live children and the children it has reaped.
double ClusterCpuSeconds() {
  static const int postmaster = [] {
    pqxx::connection conn(Cluster()->ConninfoFor("postgres"));
    pqxx::nontransaction txn(conn);
    const std::string dir = txn.exec1("SHOW data_directory")[0].as<std::string>();
    std::FILE* file = std::fopen((dir + "/postmaster.pid").c_str(), "r");
    int pid = 0;
    if (file == nullptr || std::fscanf(file, "%d", &pid) != 1) Die(absl::InternalError("no postmaster.pid"));
    std::fclose(file);
    return pid;
  }();
  double total = ProcessCpuSeconds(postmaster, true);
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return total;
  while (dirent* entry = readdir(proc)) {
    const int pid = std::atoi(entry->d_name);
    if (pid <= 0) continue;
    int parent = 0;
    const double cpu = ProcessCpuSeconds(pid, false, &parent);
    if (parent == postmaster) total += cpu;
  }
  closedir(proc);
  return total;
}

void BM_BuilderCatchUp(benchmark::State& state) {
  static int runs = 0;
  store::PostgresEventStore& store = NewStore(absl::StrCat("bench_builder_", runs++));
  TransparencyLog log(store.pool(), Signer());
  const int64_t games = state.range(0);
  double client_cpu = 0, server_cpu = 0;
  for (auto _ : state) {
    for (int64_t g = 0; g < games; ++g) AppendGame(store, "b");
    // Timed by hand: PauseTiming and ResumeTiming around the appends cost
    // milliseconds of their own here.
    const double server_before = ClusterCpuSeconds();
    const double client_before = ProcessCpuSeconds(getpid(), false);
    const absl::Time start = absl::Now();
    absl::StatusOr<uint64_t> size = log.CatchUp();
    state.SetIterationTime(absl::ToDoubleSeconds(absl::Now() - start));
    client_cpu += ProcessCpuSeconds(getpid(), false) - client_before;
    server_cpu += ClusterCpuSeconds() - server_before;
    if (!size.ok()) Die(size.status());
  }
  const double events = static_cast<double>(state.iterations() * games * kEventsPerGame);
  state.SetItemsProcessed(state.iterations() * games * kEventsPerGame);
  state.counters["client_cpu_us_per_event"] = client_cpu * 1e6 / events;
  state.counters["server_cpu_us_per_event"] = server_cpu * 1e6 / events;
}
// Steps of 100, 1,000 and 10,000 events: the fixed cost of a step, and what
// each event adds.
BENCHMARK(BM_BuilderCatchUp)->Arg(1)->Arg(10)->Arg(100)->UseManualTime()->MinTime(3);

// Appends whole games, without (0) and with (1) the builder running beside
// them. Besides the wall time, counts the CPU each appended event costs in
// this process (client, and the builder thread in /1) and in PostgreSQL: the
// difference between /1 and /0 is what the tree costs per event, whatever
// else the machine is doing.
void BM_AppendWholeGames(benchmark::State& state) {
  static int runs = 0;
  store::PostgresEventStore& store =
      NewStore(absl::StrCat("bench_append_", state.range(0), "_", runs++));
  std::unique_ptr<TransparencyLog> log;
  if (state.range(0) >= 1) {
    log = std::make_unique<TransparencyLog>(store.pool(), Signer());
    log->Start(absl::Milliseconds(state.range(0) == 1 ? 50 : 200), absl::Seconds(1));
  }
  const double server_before = ClusterCpuSeconds();
  const double client_before = ProcessCpuSeconds(getpid(), false);
  for (auto _ : state) AppendGame(store, "a");
  const double events = static_cast<double>(state.iterations() * kEventsPerGame);
  state.SetItemsProcessed(state.iterations() * kEventsPerGame);
  if (log != nullptr) {
    log->Stop();
    absl::StatusOr<uint64_t> size = log->CatchUp();
    if (!size.ok()) Die(size.status());
    state.counters["tree_size"] = static_cast<double>(*size);
  }
  const double client_after = ProcessCpuSeconds(getpid(), false);
  state.counters["client_cpu_us_per_event"] = (client_after - client_before) * 1e6 / events;
  state.counters["server_cpu_us_per_event"] = (ClusterCpuSeconds() - server_before) * 1e6 / events;
}
BENCHMARK(BM_AppendWholeGames)->Arg(0)->Arg(1)->Arg(2)->UseRealTime()->MinTime(5);

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
  TransparencyLog log(store.pool(), Signer());
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
