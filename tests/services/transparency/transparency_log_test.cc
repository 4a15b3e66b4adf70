// The transparency log on a real PostgreSQL: every event of games and
// streams becomes a leaf exactly once, the stored tree agrees with the pure
// code, proofs from the stored subtrees verify, a second builder continues
// the first one's tree, concurrent appends are neither lost nor doubled, and
// checkpoints are signed notes of the tree.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "engine/merkle/compact_range.h"
#include "engine/merkle/merkle.h"
#include "services/store/event_hash.h"
#include "services/store/internal/store_rules.h"
#include "services/store/migrations.h"
#include "services/store/postgres_stream_store.h"
#include "services/transparency/checkpoint.h"
#include "services/transparency/transparency_log.h"
#include "tests/services/store/postgres_test_env.h"
#include "tests/services/store/store_test_util.h"

namespace arbiter::transparency {
namespace {

using engine::merkle::Hash;
using store::testing::Append;
using store::testing::CreateRequest;
using store::testing::Events;

class TransparencyLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = store::testing::FreshPostgresStore(&conninfo_);
    ASSERT_NE(store_, nullptr);
    streams_ = std::make_unique<store::PostgresStreamStore>(store_->pool());
    log_ = std::make_unique<TransparencyLog>(store_->pool(), *NoteSigner::Generate("test.example/log"));
  }

  // A game with `events` events appended in batches of 3.
  void Game(const std::string& id, int events) {
    ASSERT_TRUE(store_->CreateGame(CreateRequest(id)).ok());
    int64_t at = 0;
    while (at < events) {
      const int n = std::min(3, static_cast<int>(events - at));
      auto batch = Events(absl::StrCat(id, "-", at), n);
      ASSERT_TRUE(store_->Append(Append(id, at, absl::StrCat(id, "-req-", at), batch)).ok());
      at += n;
    }
  }

  void StreamEvent(const std::string& stream, int64_t expected) {
    store::StreamAppendRequest request;
    request.stream_id = stream;
    request.expected_sequence = expected;
    request.kind = "league";
    request.request_id = absl::StrCat(stream, "-", expected);
    request.recorded_by = "organiser";
    request.type = "settings";
    request.payload = absl::StrCat("settings ", expected);
    ASSERT_TRUE(streams_->Append(request).ok());
  }

  // Every leaf hash in leaf order, from the event tables (not the tree).
  std::vector<Hash> LeavesFromEvents() {
    pqxx::connection conn(conninfo_);
    pqxx::work txn(conn);
    std::vector<Hash> out;
    for (const pqxx::row& row : txn.exec(
             "SELECT coalesce(e.hash, s.hash) FROM transparency_leaves l "
             "LEFT JOIN events_in_order e ON e.position = l.position "
             "LEFT JOIN stream_events s ON s.stream_id = l.stream_id AND s.sequence = l.sequence "
             "ORDER BY l.leaf_index")) {
      out.push_back(*EventLeafHash(row[0].as<std::string>()));
    }
    return out;
  }

  int64_t Count(const std::string& sql) {
    pqxx::connection conn(conninfo_);
    pqxx::work txn(conn);
    return txn.exec1(sql)[0].as<int64_t>();
  }

  std::string conninfo_;
  std::unique_ptr<store::PostgresEventStore> store_;
  std::unique_ptr<store::PostgresStreamStore> streams_;
  std::unique_ptr<TransparencyLog> log_;
};

TEST_F(TransparencyLogTest, EveryGameAndStreamEventBecomesOneLeaf) {
  Game("g1", 7);
  StreamEvent("leagues/north", 0);
  Game("g2", 4);
  StreamEvent("leagues/north", 1);
  StreamEvent("leagues/south", 0);
  absl::StatusOr<uint64_t> size = log_->CatchUp();
  ASSERT_TRUE(size.ok()) << size.status();
  EXPECT_EQ(*size, 14u);
  EXPECT_EQ(Count("SELECT count(*) FROM transparency_leaves WHERE position IS NOT NULL"), 11);
  EXPECT_EQ(Count("SELECT count(*) FROM transparency_leaves WHERE stream_id IS NOT NULL"), 3);
  // Game events first, by position; then streams by id and sequence.
  EXPECT_EQ(Count("SELECT position FROM transparency_leaves WHERE leaf_index = 10"), 11);
  EXPECT_EQ(Count("SELECT leaf_index FROM transparency_leaves "
                  "WHERE stream_id = 'leagues/south'"),
            13);
  // Nothing new: nothing added.
  EXPECT_EQ(*log_->CatchUp(), 14u);
  EXPECT_EQ(Count("SELECT count(*) FROM transparency_leaves"), 14);
  // One run of game events and one run per stream.
  EXPECT_EQ(Count("SELECT count(*) FROM transparency_segments"), 3);
  EXPECT_EQ(*log_->LeafOfPosition(11), std::optional<uint64_t>(10));
  EXPECT_EQ(*log_->LeafOfPosition(12), std::nullopt);
  EXPECT_EQ(*log_->LeafOfStreamEvent("leagues/north", 2), std::optional<uint64_t>(12));
  EXPECT_EQ(*log_->LeafOfStreamEvent("leagues/north", 3), std::nullopt);
}

TEST_F(TransparencyLogTest, StoredTreeAgreesWithThePureCodeAndItsProofsVerify) {
  Game("g1", 5);
  ASSERT_TRUE(log_->CatchUp().ok());
  StreamEvent("leagues/north", 0);
  Game("g2", 13);
  ASSERT_TRUE(log_->CatchUp().ok());
  const std::vector<Hash> leaves = LeavesFromEvents();
  ASSERT_EQ(leaves.size(), 19u);
  for (uint64_t size = 0; size <= leaves.size(); ++size) {
    auto prefix = absl::MakeConstSpan(leaves).subspan(0, size);
    ASSERT_EQ(*log_->RootAt(size), engine::merkle::RootOf(prefix)) << size;
    for (uint64_t i = 0; i < size; ++i) {
      absl::StatusOr<std::vector<Hash>> proof = log_->InclusionProof(i, size);
      ASSERT_TRUE(proof.ok()) << proof.status();
      ASSERT_TRUE(engine::merkle::VerifyInclusion(i, size, leaves[i], *proof,
                                                  engine::merkle::RootOf(prefix))
                      .ok());
    }
    for (uint64_t old_size = 0; old_size <= size; ++old_size) {
      absl::StatusOr<std::vector<Hash>> proof = log_->ConsistencyProof(old_size, size);
      ASSERT_TRUE(proof.ok()) << proof.status();
      ASSERT_TRUE(engine::merkle::VerifyConsistency(
                      old_size, size, engine::merkle::RootOf(prefix.subspan(0, old_size)),
                      engine::merkle::RootOf(prefix), *proof)
                      .ok())
          << old_size << " -> " << size;
    }
  }
  EXPECT_EQ(log_->InclusionProof(19, 19).status().message(),
            "no inclusion proof of leaf 19 in a tree of 19 leaves: the log has 19");
  EXPECT_EQ(log_->ConsistencyProof(3, 20).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(TransparencyLogTest, ASecondBuilderContinuesTheSameTree) {
  Game("g1", 6);
  ASSERT_TRUE(log_->CatchUp().ok());
  TransparencyLog second(store_->pool(), *NoteSigner::Generate("test.example/log"));
  Game("g2", 9);
  ASSERT_EQ(*second.CatchUp(), 15u);
  Game("g3", 2);
  ASSERT_EQ(*log_->CatchUp(), 17u);  // its cached frontier is stale: it reloads
  EXPECT_EQ(*log_->RootAt(17), engine::merkle::RootOf(LeavesFromEvents()));
}

TEST_F(TransparencyLogTest, ConcurrentAppendsAreNeitherLostNorDoubled) {
  std::atomic<bool> done{false};
  std::thread builder([&] {
    while (!done.load()) ASSERT_TRUE(log_->CatchUp().ok());
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w) {
    writers.emplace_back([&, w] {
      for (int g = 0; g < 5; ++g) Game(absl::StrCat("w", w, "-g", g), 7);
    });
  }
  for (std::thread& t : writers) t.join();
  done = true;
  builder.join();
  ASSERT_EQ(*log_->CatchUp(), 140u);
  EXPECT_EQ(Count("SELECT count(DISTINCT position) FROM transparency_leaves"), 140);
  EXPECT_EQ(Count("SELECT max(position) FROM transparency_leaves"), 140);
  EXPECT_EQ(*log_->RootAt(140), engine::merkle::RootOf(LeavesFromEvents()));
}

TEST_F(TransparencyLogTest, PublishSignsTheTreeAsItIs) {
  EXPECT_EQ(log_->LatestCheckpoint().status().code(), absl::StatusCode::kNotFound);
  Game("g1", 4);
  absl::StatusOr<StoredCheckpoint> first = log_->Publish();
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->size, 4u);
  NoteVerifier verifier = *NoteVerifier::Parse(log_->signer().VerifierKey());
  absl::StatusOr<Checkpoint> opened = OpenCheckpoint(verifier, first->note);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_EQ(opened->size, 4u);
  EXPECT_EQ(opened->root, engine::merkle::RootOf(LeavesFromEvents()));
  // Publishing again without growth returns the same checkpoint.
  EXPECT_EQ(log_->Publish()->note, first->note);
  Game("g2", 1);
  EXPECT_EQ(log_->Publish()->size, 5u);
  EXPECT_EQ(log_->LatestCheckpoint()->size, 5u);
  EXPECT_EQ(log_->CheckpointAt(4)->note, first->note);
  EXPECT_EQ(log_->CheckpointAt(3).status().message(), "no checkpoint of tree size 3 was signed");
}

TEST_F(TransparencyLogTest, TheServiceRoleCannotRewriteTheTree) {
  Game("g1", 3);
  ASSERT_TRUE(log_->CatchUp().ok());
  pqxx::connection conn(conninfo_);
  pqxx::work txn(conn);
  txn.exec0("SET ROLE arbiter_service");
  EXPECT_THROW(txn.exec0("UPDATE transparency_tiles SET hashes = hashes"), pqxx::sql_error);
}

TEST_F(TransparencyLogTest, TheSuperuserCannotEditLeavesWithTriggersOn) {
  Game("g1", 3);
  ASSERT_TRUE(log_->Publish().ok());
  pqxx::connection conn(conninfo_);
  for (const char* sql : {"DELETE FROM transparency_segments", "TRUNCATE transparency_tiles",
                          "UPDATE transparency_checkpoints SET note = ''"}) {
    pqxx::work txn(conn);
    try {
      txn.exec0(sql);
      ADD_FAILURE() << sql << " was allowed";
    } catch (const pqxx::sql_error& e) {
      EXPECT_EQ(e.sqlstate(), "AR001") << sql;
    }
  }
}

// Trees past the first tiles of three levels, built in steps of uneven
// length by builders that take turns (each restores the other's tiles): the
// root at every step, and proofs at sampled leaves, agree with the pure code.
TEST_F(TransparencyLogTest, TilesAnswerForLargerTreesBuiltByBuildersTakingTurns) {
  TransparencyLog other(store_->pool(), *NoteSigner::Generate("test.example/log"));
  std::vector<uint64_t> sizes;
  int turn = 0;
  for (int events : {1, 14, 2, 33, 16, 200, 7, 47, 255, 1, 17}) {
    Game(absl::StrCat("t", turn), events);
    TransparencyLog& builder = (turn++ % 2 == 0) ? *log_ : other;
    absl::StatusOr<uint64_t> size = builder.CatchUp();
    ASSERT_TRUE(size.ok()) << size.status();
    sizes.push_back(*size);
  }
  const std::vector<Hash> leaves = LeavesFromEvents();
  ASSERT_EQ(leaves.size(), 593u);
  ASSERT_EQ(sizes.back(), 593u);
  // About one tile per fifteen leaves, plus a partial tile per level a step
  // left unfinished: far fewer rows than the 2 * 593 subtrees.
  EXPECT_LE(Count("SELECT count(*) FROM transparency_tiles"), 593 / 15 + 3 * 11);
  for (uint64_t size : sizes) {
    auto prefix = absl::MakeConstSpan(leaves).subspan(0, size);
    const Hash root = engine::merkle::RootOf(prefix);
    ASSERT_EQ(*log_->RootAt(size), root) << size;
    for (uint64_t i : {uint64_t{0}, size / 3, size / 2, size - 1}) {
      absl::StatusOr<std::vector<Hash>> proof = other.InclusionProof(i, size);
      ASSERT_TRUE(proof.ok()) << proof.status();
      EXPECT_TRUE(engine::merkle::VerifyInclusion(i, size, leaves[i], *proof, root).ok())
          << i << " in " << size;
    }
    for (uint64_t old_size : sizes) {
      if (old_size > size) break;
      absl::StatusOr<std::vector<Hash>> proof = log_->ConsistencyProof(old_size, size);
      ASSERT_TRUE(proof.ok()) << proof.status();
      EXPECT_TRUE(engine::merkle::VerifyConsistency(
                      old_size, size, engine::merkle::RootOf(prefix.subspan(0, old_size)), root,
                      *proof)
                      .ok())
          << old_size << " -> " << size;
    }
  }
}

// A database whose tree was stored one row per subtree (migration 0010) is
// moved into tiles by migration 0014: the same roots and proofs, and the
// builder carries on from the moved tiles.
TEST(TransparencyTilesMigrationTest, SubtreesStoredBeforeTilesMoveIntoTiles) {
  const std::string conninfo = store::testing::FreshDatabase(11);
  std::vector<Hash> leaves;
  for (int i = 0; i < 300; ++i) leaves.push_back(engine::merkle::LeafHash(absl::StrCat("old ", i)));
  {
    pqxx::connection conn(conninfo);
    pqxx::work txn(conn);
    engine::merkle::CompactRange range;
    for (const Hash& leaf : leaves) {
      for (const auto& [id, hash] : range.Append(leaf)) {
        txn.exec_params0(
            "INSERT INTO transparency_nodes (level, index, hash) VALUES ($1, $2, decode($3, 'hex'))",
            id.level, id.index, engine::merkle::ToHex(hash));
      }
    }
    txn.exec0("UPDATE transparency_head SET tree_size = 300");
    txn.commit();
  }
  ASSERT_TRUE(store::ApplyMigrations(conninfo).ok());
  store::PostgresOptions options;
  options.conninfo = conninfo;
  absl::StatusOr<std::unique_ptr<store::PostgresEventStore>> store =
      store::PostgresEventStore::Open(options);
  ASSERT_TRUE(store.ok()) << store.status();
  TransparencyLog log((*store)->pool(), *NoteSigner::Generate("test.example/log"));
  for (uint64_t size : {uint64_t{1}, uint64_t{16}, uint64_t{17}, uint64_t{256}, uint64_t{299},
                        uint64_t{300}}) {
    auto prefix = absl::MakeConstSpan(leaves).subspan(0, size);
    const Hash root = engine::merkle::RootOf(prefix);
    ASSERT_EQ(*log.RootAt(size), root) << size;
    absl::StatusOr<std::vector<Hash>> proof = log.InclusionProof(size - 1, size);
    ASSERT_TRUE(proof.ok()) << proof.status();
    EXPECT_TRUE(
        engine::merkle::VerifyInclusion(size - 1, size, leaves[size - 1], *proof, root).ok());
  }
  // New events extend the moved tree.
  ASSERT_TRUE((*store)->CreateGame(CreateRequest("after")).ok());
  const auto batch = Events("after", 20);
  ASSERT_TRUE((*store)->Append(Append("after", 0, "after-req", batch)).ok());
  ASSERT_EQ(*log.CatchUp(), 320u);
  pqxx::connection conn(conninfo);
  pqxx::work txn(conn);
  for (const pqxx::row& row :
       txn.exec("SELECT encode(hash, 'hex') FROM events WHERE game_id = 'after' ORDER BY sequence")) {
    leaves.push_back(*EventLeafHash(row[0].as<std::string>()));
  }
  ASSERT_EQ(leaves.size(), 320u);
  EXPECT_EQ(*log.RootAt(320), engine::merkle::RootOf(leaves));
  EXPECT_EQ(*log.RootAt(300), engine::merkle::RootOf(absl::MakeConstSpan(leaves).subspan(0, 300)));
}

// Migration 0022 (lean event rows). Events stored under migration 0021, as
// the store wrote them then: each game's batches interleaved, derived and
// writer-chosen event ids, JSON copies and none, a finished game.
struct OldBatch {
  std::string game;
  int64_t first_sequence;
  std::vector<store::NewEvent> events;
  std::string recorded_by;
};

std::vector<OldBatch> OldBatches() {
  auto derived = [](const std::string& game, int64_t first, int count) {
    std::vector<store::NewEvent> events = Events(game, count);
    for (int i = 0; i < count; ++i) {
      events[i].event_id = store::DerivedEventId(game, first + i);
      if (i % 2 == 1) events[i].json.clear();
    }
    return events;
  };
  std::vector<store::NewEvent> chosen = Events("chosen", 3);
  chosen[2].type = store::kGameFinishedType;
  chosen[2].json.clear();
  return {OldBatch{"dealt", 1, derived("dealt", 1, 3), "referee"},
          OldBatch{"chosen", 1, chosen, "organiser"},
          OldBatch{"dealt", 4, derived("dealt", 4, 2), "ann"}};
}

// Writes `batches` into a database at migration 0021, with their chains;
// answers each event's hash in position order.
std::vector<std::string> WriteOldStore(const std::string& conninfo,
                                       const std::vector<OldBatch>& batches) {
  pqxx::connection conn(conninfo);
  pqxx::work txn(conn);
  std::map<std::string, std::pair<int64_t, std::string>> heads;  // game: sequence, hash
  std::vector<std::string> in_order;
  int64_t position = 0;
  for (const OldBatch& batch : batches) {
    if (!heads.count(batch.game)) {
      txn.exec_params0(
          "INSERT INTO games (game_id, game, ruleset_id, ruleset_hash, seed, players, created_by, "
          "create_request_id, create_digest) VALUES ($1, 'atlantis', 'standard', repeat('a', 64), "
          "7, '{ann,bob}', 'organiser', $2, repeat('d', 64))",
          batch.game, "create-" + batch.game);
      heads[batch.game] = {0, store::GenesisHash()};
    }
    auto& [sequence, prev] = heads[batch.game];
    const std::vector<std::string> hashes =
        store::internal::ChainHashes(batch.game, prev, sequence + 1, batch.events);
    for (size_t i = 0; i < batch.events.size(); ++i) {
      const store::NewEvent& event = batch.events[i];
      txn.exec_params0(
          "INSERT INTO events (game_id, sequence, event_id, type, payload, payload_json, "
          "recorded_by, prev_hash, hash) VALUES ($1, $2, $3, $4, $5, NULLIF($6, '')::json, $7, "
          "$8, $9)",
          batch.game, sequence + 1 + static_cast<int64_t>(i), event.event_id, event.type,
          pqxx::binarystring(event.payload), event.json, batch.recorded_by,
          i == 0 ? prev : hashes[i - 1], hashes[i]);
      in_order.push_back(hashes[i]);
    }
    const int64_t count = static_cast<int64_t>(batch.events.size());
    txn.exec_params0(
        "INSERT INTO append_requests (request_id, game_id, digest, first_sequence, last_sequence, "
        "first_position, last_position, last_hash) VALUES ($1, $2, repeat('d', 64), $3, $4, $5, "
        "$6, $7)",
        absl::StrCat(batch.game, "-", batch.first_sequence), batch.game, sequence + 1,
        sequence + count, position + 1, position + count, hashes.back());
    txn.exec_params0("UPDATE games SET last_sequence = $1, last_hash = $2 WHERE game_id = $3",
                     sequence + count, hashes.back(), batch.game);
    sequence += count;
    prev = hashes.back();
    position += count;
  }
  txn.exec_params0("UPDATE store_head SET last_position = $1", position);
  txn.commit();
  return in_order;
}

// Every stored field of every event, as text, in position order: through
// events_in_order before 0022, through events_readable after.
std::vector<std::string> EveryField(const std::string& conninfo, const std::string& view) {
  pqxx::connection conn(conninfo);
  pqxx::read_transaction txn(conn);
  std::vector<std::string> rows;
  for (const pqxx::row& row : txn.exec(absl::StrCat(
           "SELECT concat_ws('|', position, game_id, sequence, event_id, type, "
           "encode(payload, 'hex'), payload_json::text, recorded_by, recorded_at, prev_hash, hash) "
           "FROM ", view, " ORDER BY position"))) {
    rows.push_back(row[0].as<std::string>());
  }
  return rows;
}

TEST(MigrationTo0022, EveryEventHashAndTheTransparencyRootStayTheSame) {
  const std::string conninfo = store::testing::FreshDatabase(21);
  const std::vector<std::string> hashes = WriteOldStore(conninfo, OldBatches());
  const std::vector<std::string> before = EveryField(conninfo, "events_in_order");
  ASSERT_EQ(before.size(), 8u);
  std::vector<Hash> leaves;
  for (const std::string& hash : hashes) leaves.push_back(*EventLeafHash(hash));

  ASSERT_TRUE(store::ApplyMigrations(conninfo).ok());
  // Every field reads the same, derived ones included; only the writer-chosen
  // ids are still stored (SQL's derivation is the C++ one).
  EXPECT_EQ(EveryField(conninfo, "events_readable"), before);
  {
    pqxx::connection conn(conninfo);
    pqxx::read_transaction txn(conn);
    EXPECT_EQ(txn.exec1("SELECT string_agg(event_id, ',' ORDER BY event_id) FROM events")[0]
                  .as<std::string>(),
              "chosen-0,chosen-1,chosen-2");
  }
  store::PostgresOptions options;
  options.conninfo = conninfo;
  std::unique_ptr<store::PostgresEventStore> store = *store::PostgresEventStore::Open(options);
  absl::StatusOr<std::vector<store::StoredEvent>> all = store->ReadAll(0, 100);
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 8u);
  for (size_t i = 0; i < all->size(); ++i) EXPECT_EQ((*all)[i].hash, hashes[i]) << i;
  EXPECT_EQ((*all)[4].event_id, "chosen-1");
  EXPECT_EQ((*all)[4].recorded_by, "organiser");
  EXPECT_EQ((*all)[6].event_id, store::DerivedEventId("dealt", 4));
  EXPECT_EQ((*all)[6].prev_hash, hashes[2]);
  for (const char* game : {"dealt", "chosen"}) EXPECT_TRUE(store->VerifyGame(game).ok()) << game;
  // The finished game's result, recorded under 0021, reads the same event.
  absl::StatusOr<std::vector<store::ResultEvent>> results = store->ReadResults(0, 0, "", 10);
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 1u);
  EXPECT_EQ((*results)[0].event.hash, hashes[5]);
  EXPECT_EQ((*results)[0].event.recorded_by, "organiser");
  // The log built from the rewritten rows has the leaves of the old ones.
  TransparencyLog log(store->pool(), *NoteSigner::Generate("test.example/log"));
  ASSERT_EQ(*log.CatchUp(), 8u);
  EXPECT_EQ(*log.RootAt(8), engine::merkle::RootOf(leaves));
  // New appends continue the chains.
  std::vector<store::NewEvent> more = Events("more", 1);
  more[0].event_id = store::DerivedEventId("dealt", 6);
  absl::StatusOr<store::AppendResult> appended =
      store->Append(Append("dealt", 5, "dealt-6", more));
  ASSERT_TRUE(appended.ok()) << appended.status();
  EXPECT_TRUE(store->VerifyGame("dealt").ok());
}

TEST(MigrationTo0022, AStoreWhoseLinksDisagreeIsNotRewritten) {
  const std::string conninfo = store::testing::FreshDatabase(21);
  WriteOldStore(conninfo, OldBatches());
  {
    pqxx::connection conn(conninfo);
    pqxx::work txn(conn);
    txn.exec0("SET session_replication_role = replica");
    txn.exec0("UPDATE events SET prev_hash = repeat('1', 64) WHERE game_id = 'dealt' AND sequence = 4");
    txn.commit();
  }
  const std::vector<std::string> before = EveryField(conninfo, "events_in_order");
  absl::Status status = store::ApplyMigrations(conninfo);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("event 4 of game \"dealt\": its prev_hash is not the previous "
                                  "event's hash"),
            std::string::npos)
      << status;
  // Nothing changed: the old rows are all there, under the old schema.
  EXPECT_EQ(EveryField(conninfo, "events_in_order"), before);
  pqxx::connection conn(conninfo);
  pqxx::read_transaction txn(conn);
  EXPECT_EQ(txn.exec1("SELECT max(version) FROM schema_migrations")[0].as<int>(), 21);
}

}  // namespace
}  // namespace arbiter::transparency
