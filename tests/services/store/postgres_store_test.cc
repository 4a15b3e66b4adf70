// What only the PostgreSQL store can show: the database enforcing
// append-only events, the service role's privileges, global order under
// concurrent and slow writers, a server restart mid-run, and migrations.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <pqxx/pqxx>

#include <optional>
#include <set>
#include <thread>

#include "engine/core/sha256.h"
#include "services/store/event_hash.h"
#include "services/store/internal/store_rules.h"
#include "services/store/migrations.h"
#include "tests/services/store/postgres_test_env.h"
#include "tests/services/store/store_test_util.h"

namespace arbiter::store {
namespace {

using testing::Append;
using testing::CreateRequest;
using testing::Events;

class PostgresStoreTest : public ::testing::Test {
 protected:
  void SetUp() override { store_ = testing::FreshPostgresStore(&conninfo_); }

  void CreateGame(const std::string& game_id) {
    absl::StatusOr<GameRecord> game = store_->CreateGame(CreateRequest(game_id));
    ASSERT_TRUE(game.ok()) << game.status();
  }

  // Runs `sql` as the superuser (optionally as `role`); returns the SQLSTATE
  // of the error, or "" if it succeeded.
  std::string SqlStateOf(const std::string& sql, const std::string& role = "") {
    pqxx::connection conn(conninfo_);
    try {
      pqxx::work txn(conn);
      if (!role.empty()) txn.exec("SET ROLE " + role);
      txn.exec(sql);
      txn.commit();
      return "";
    } catch (const pqxx::insufficient_privilege&) {
      return "42501";  // libpqxx 6.4 throws this one without its SQLSTATE
    } catch (const pqxx::sql_error& e) {
      return e.sqlstate().empty() ? std::string("?") + e.what() : e.sqlstate();
    }
  }

  int64_t CountEvents() {
    pqxx::connection conn(conninfo_);
    pqxx::read_transaction txn(conn);
    return txn.exec1("SELECT count(*) FROM events")[0].as<int64_t>();
  }

  // The stored hash (hex) of event `sequence` of game g1.
  std::optional<std::string> ReadStoredHash(int64_t sequence) {
    absl::StatusOr<std::vector<StoredEvent>> read = store_->ReadGameEvents("g1", sequence - 1, 1);
    if (!read.ok() || read->empty()) return std::nullopt;
    return read->front().hash;
  }

  std::string conninfo_;
  std::unique_ptr<PostgresEventStore> store_;
};

TEST_F(PostgresStoreTest, TriggersRefuseEditsEvenFromTheSuperuser) {
  CreateGame("g1");
  ASSERT_TRUE(store_->Append(Append("g1", 0, "r1", Events("e", 3))).ok());
  EXPECT_EQ(SqlStateOf("UPDATE events SET payload = 'x' WHERE sequence = 2"), "AR001");
  EXPECT_EQ(SqlStateOf("DELETE FROM events WHERE sequence = 3"), "AR001");
  EXPECT_EQ(SqlStateOf("TRUNCATE events CASCADE"), "AR001");
  EXPECT_EQ(SqlStateOf("DELETE FROM append_requests"), "AR001");
  EXPECT_EQ(CountEvents(), 3);
}

TEST_F(PostgresStoreTest, TheServiceRoleMayOnlyInsertAndSelectEvents) {
  CreateGame("g1");
  ASSERT_TRUE(store_->Append(Append("g1", 0, "r1", Events("e", 3))).ok());
  // Privileges refuse before any trigger runs: 42501 insufficient_privilege.
  EXPECT_EQ(SqlStateOf("UPDATE events SET type = 'x'", "arbiter_service"), "42501");
  EXPECT_EQ(SqlStateOf("DELETE FROM events", "arbiter_service"), "42501");
  EXPECT_EQ(SqlStateOf("TRUNCATE events", "arbiter_service"), "42501");
  EXPECT_EQ(SqlStateOf("UPDATE append_requests SET digest = ''", "arbiter_service"), "42501");
  EXPECT_EQ(SqlStateOf("UPDATE games SET players = '{x}'", "arbiter_service"), "42501");
  EXPECT_EQ(SqlStateOf("SELECT count(*) FROM events", "arbiter_service"), "");
  EXPECT_EQ(CountEvents(), 3);
}

TEST_F(PostgresStoreTest, TriggersRefuseEditsOfAppendRequestsEvenFromTheSuperuser) {
  CreateGame("g1");
  ASSERT_TRUE(store_->Append(Append("g1", 0, "r1", Events("e", 3))).ok());
  EXPECT_EQ(SqlStateOf("UPDATE append_requests SET digest = ''"), "AR001");
  EXPECT_EQ(SqlStateOf("TRUNCATE append_requests"), "AR001");
  EXPECT_EQ(SqlStateOf("TRUNCATE append_requests CASCADE"), "AR001");
  // The retry still gets its first answer.
  absl::StatusOr<AppendResult> retry = store_->Append(Append("g1", 0, "r1", Events("e", 3)));
  ASSERT_TRUE(retry.ok()) << retry.status();
  EXPECT_TRUE(retry->replayed);
}

TEST_F(PostgresStoreTest, TheServiceRoleUpdatesOnlyTheColumnsGrantedToIt) {
  CreateGame("g1");
  ASSERT_TRUE(store_->Append(Append("g1", 0, "r1", Events("e", 3))).ok());
  const std::string kRole = "arbiter_service";
  // games: status, last_sequence and last_hash only (the writer's bookkeeping).
  EXPECT_EQ(SqlStateOf("UPDATE games SET status = status", kRole), "");
  EXPECT_EQ(SqlStateOf("UPDATE games SET last_sequence = last_sequence, last_hash = last_hash",
                       kRole), "");
  for (const char* column : {"game_id", "game", "ruleset_id", "ruleset_hash", "seed",
                             "created_by", "created_at", "league_id", "tournament_id"}) {
    EXPECT_EQ(SqlStateOf(absl::StrCat("UPDATE games SET ", column, " = ", column), kRole), "42501")
        << column;
  }
  EXPECT_EQ(SqlStateOf("DELETE FROM games", kRole), "42501");
  // store_head: last_position only; tokens: read and insert only.
  EXPECT_EQ(SqlStateOf("UPDATE store_head SET last_position = last_position", kRole), "");
  EXPECT_EQ(SqlStateOf("UPDATE store_head SET id = id", kRole), "42501");
  EXPECT_EQ(SqlStateOf("DELETE FROM store_head", kRole), "42501");
  EXPECT_EQ(SqlStateOf("DELETE FROM tokens", kRole), "42501");
  EXPECT_EQ(SqlStateOf("DELETE FROM schema_migrations", kRole), "42501");
  EXPECT_EQ(SqlStateOf("INSERT INTO schema_migrations SELECT * FROM schema_migrations", kRole),
            "42501");
}

TEST_F(PostgresStoreTest, VerificationFindsAGameRowThatDisagreesWithItsEvents) {
  CreateGame("g1");
  ASSERT_TRUE(store_->Append(Append("g1", 0, "r1", Events("e", 3))).ok());
  ASSERT_EQ(SqlStateOf("UPDATE games SET last_sequence = 2 WHERE game_id = 'g1'"), "");
  absl::Status status = store_->VerifyGame("g1").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(status.message(), "game \"g1\" records 2 events but 3 are stored");

  ASSERT_EQ(SqlStateOf("UPDATE games SET last_sequence = 3, last_hash = repeat('2', 64) "
                       "WHERE game_id = 'g1'"), "");
  status = store_->VerifyGame("g1").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(status.message(), "game \"g1\": the recorded last hash does not match the last event");
}

// Two writers sending the same request at once (a client retrying before the
// first answer came): one writes, the other is answered with the same
// result, not ABORTED for a stale expected sequence.
TEST_F(PostgresStoreTest, AConcurrentRetryIsAnsweredNotAborted) {
  CreateGame("g1");
  for (int round = 0; round < 10; ++round) {
    const AppendRequest request =
        Append("g1", round * 2, absl::StrCat("r", round), Events(absl::StrCat("e", round), 2));
    std::vector<absl::StatusOr<AppendResult>> results(2, absl::UnknownError("not run"));
    std::vector<std::thread> twins;
    for (int t = 0; t < 2; ++t) {
      twins.emplace_back([&, t] { results[static_cast<std::size_t>(t)] = store_->Append(request); });
    }
    for (std::thread& t : twins) t.join();
    for (const absl::StatusOr<AppendResult>& result : results) {
      ASSERT_TRUE(result.ok()) << "round " << round << ": " << result.status();
      EXPECT_EQ(result->first_sequence, round * 2 + 1);
    }
    EXPECT_NE(results[0]->replayed, results[1]->replayed) << "round " << round;
  }
  EXPECT_EQ(CountEvents(), 20);
}

// The store's transactions are written for READ COMMITTED; a database whose
// default is SERIALIZABLE must not change them (a twin waiting for the
// game's lock would otherwise fail to serialize instead of being answered).
TEST_F(PostgresStoreTest, TransactionsAreReadCommittedWhateverTheDatabasesDefault) {
  {
    pqxx::connection conn(conninfo_);
    pqxx::nontransaction txn(conn);
    const std::string db = txn.exec1("SELECT current_database()")[0].as<std::string>();
    txn.exec("ALTER DATABASE " + txn.quote_name(db) +
             " SET default_transaction_isolation = 'serializable'");
  }
  PostgresOptions options;
  options.conninfo = conninfo_;
  absl::StatusOr<std::unique_ptr<PostgresEventStore>> store = PostgresEventStore::Open(options);
  ASSERT_TRUE(store.ok()) << store.status();
  std::string isolation;
  ASSERT_TRUE((*store)
                  ->pool()
                  .Run("reading the isolation level",
                        [&isolation](pqxx::connection_base& conn) {
                          pqxx::work txn(conn);
                          isolation = txn.exec1("SHOW transaction_isolation")[0].as<std::string>();
                          return absl::OkStatus();
                        })
                  .ok());
  EXPECT_EQ(isolation, "read committed");

  ASSERT_TRUE((*store)->CreateGame(testing::CreateRequest("serial")).ok());
  for (int round = 0; round < 10; ++round) {
    const AppendRequest request = Append("serial", round * 2, absl::StrCat("s", round),
                                         Events(absl::StrCat("s", round), 2));
    std::vector<absl::StatusOr<AppendResult>> results(2, absl::UnknownError("not run"));
    std::vector<std::thread> twins;
    for (int t = 0; t < 2; ++t) {
      twins.emplace_back(
          [&, t] { results[static_cast<std::size_t>(t)] = (*store)->Append(request); });
    }
    for (std::thread& t : twins) t.join();
    for (const absl::StatusOr<AppendResult>& result : results) {
      ASSERT_TRUE(result.ok()) << "round " << round << ": " << result.status();
    }
  }
}

TEST_F(PostgresStoreTest, ABrokenLinkIsFoundByVerification) {
  CreateGame("g1");
  const std::vector<NewEvent> events = Events("e", 4);
  ASSERT_TRUE(store_->Append(Append("g1", 0, "r1", events)).ok());
  // An intruder with the superuser password disables the triggers and
  // replaces event 2 by another with a hash of its own that is right for
  // its contents: event 3's hash, over event 2's, no longer holds. (The
  // previous hash is not stored since migration 0022: the link is the
  // previous event's hash itself.)
  const std::string prev = *ReadStoredHash(1);
  const std::string forged = EventHash(prev, 2, "g1", "e-1", "action", "forged");
  pqxx::connection conn(conninfo_);
  pqxx::work edit(conn);
  edit.exec("SET session_replication_role = replica");
  edit.exec_params("UPDATE events SET payload = 'forged'::bytea, hash = decode($1, 'hex') "
                   "WHERE sequence = 2",
                   forged);
  edit.commit();
  absl::Status status = store_->VerifyGame("g1").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(status.message(),
            "event 3 (\"e-2\") of game \"g1\": its stored hash does not match its contents");
}

// A missing event leaves its successor without a link.
TEST_F(PostgresStoreTest, ADeletedEventLeavesItsSuccessorUnlinked) {
  CreateGame("g1");
  ASSERT_TRUE(store_->Append(Append("g1", 0, "r1", Events("e", 4))).ok());
  pqxx::connection conn(conninfo_);
  pqxx::work edit(conn);
  edit.exec("SET session_replication_role = replica");
  edit.exec("DELETE FROM events WHERE sequence = 2");
  edit.commit();
  absl::Status status = store_->VerifyGame("g1").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
}

// Without keep_json_copies the payload bytes are the only copy: nothing
// else of the event is lost.
TEST_F(PostgresStoreTest, WithoutKeepJsonCopiesThePayloadIsTheOnlyCopy) {
  std::string conninfo;
  std::unique_ptr<PostgresEventStore> lean = testing::FreshPostgresStore(&conninfo, false);
  ASSERT_TRUE(lean->CreateGame(testing::CreateRequest("g1")).ok());
  const std::vector<NewEvent> events = Events("e", 2);
  ASSERT_TRUE(lean->Append(Append("g1", 0, "r1", events)).ok());
  absl::StatusOr<std::vector<StoredEvent>> read = lean->ReadGameEvents("g1", 0, 10);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 2u);
  EXPECT_EQ((*read)[0].json, "");
  EXPECT_EQ((*read)[1].payload, events[1].payload);
  pqxx::connection conn(conninfo);
  pqxx::read_transaction txn(conn);
  EXPECT_EQ(txn.exec1("SELECT count(*) FROM events WHERE payload_json IS NOT NULL")[0].as<int>(), 0);
  EXPECT_TRUE(lean->VerifyGame("g1").ok());
}

TEST_F(PostgresStoreTest, AnEditedJsonCopyIsNotAChainError) {
  CreateGame("g1");
  ASSERT_TRUE(store_->Append(Append("g1", 0, "r1", Events("e", 2))).ok());
  pqxx::connection conn(conninfo_);
  pqxx::work edit(conn);
  edit.exec("SET session_replication_role = replica");
  edit.exec("UPDATE events SET payload_json = '{\"n\": 99}' WHERE sequence = 1");
  edit.commit();
  // The JSON copy is a convenience, not the record: the payload bytes are.
  EXPECT_TRUE(store_->VerifyGame("g1").ok());
}

// The JSON copy is kept as the writer's text (migration 0006), not parsed
// into jsonb: key order and spacing survive, and so does a number beyond
// numeric's range, which jsonb would refuse.
TEST_F(PostgresStoreTest, TheJsonCopyIsKeptAsTheWriterSentIt) {
  CreateGame("g1");
  std::vector<NewEvent> events = Events("e", 3);
  events[0].json = "{\"z\":1,  \"a\":[2 ,3]}";
  events[2].json = "1e999999";
  ASSERT_TRUE(store_->Append(Append("g1", 0, "r1", events)).ok());
  absl::StatusOr<std::vector<StoredEvent>> read = store_->ReadGameEvents("g1", 0, 10);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 3u);
  EXPECT_EQ((*read)[0].json, "{\"z\":1,  \"a\":[2 ,3]}");
  EXPECT_EQ((*read)[2].json, "1e999999");
}

// Text that is not JSON is refused before PostgreSQL sees it, whichever
// way PostgreSQL would have taken it; nothing is written.
TEST_F(PostgresStoreTest, TextThatIsNotJsonIsInvalidArgumentAndWritesNothing) {
  CreateGame("g1");
  std::vector<NewEvent> events = Events("e", 3);
  events[2].json = "{\"a\":01}";  // a leading zero: not JSON
  absl::Status status = store_->Append(Append("g1", 0, "r1", events)).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_EQ(CountEvents(), 0);
  EXPECT_EQ(*store_->HeadPosition(), 0);
}

TEST_F(PostgresStoreTest, AReusedEventIdWithTheSameContentSaysSo) {
  CreateGame("g1");
  CreateGame("g2");
  ASSERT_TRUE(store_->Append(Append("g1", 0, "r1", Events("e", 2))).ok());
  absl::Status status = store_->Append(Append("g2", 0, "r2", Events("e", 1))).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(status.message(), "event id \"e-0\" is already stored as sequence 1 of game \"g1\" "
                              "with the same content (retry with the original request id)");
}

// Readers that follow the store by position, while writers append to many
// games and some appends stall inside their transaction after taking their
// positions (a trigger sleeps on events of type "slow"). Every reader must
// see positions 1, 2, 3, ... with no jump, and in the end every
// acknowledged event.
TEST_F(PostgresStoreTest, GlobalReadersNeverSkipAnEventOfASlowerTransaction) {
  ASSERT_EQ(SqlStateOf(R"sql(
    CREATE FUNCTION slow_down() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.type = 'slow' THEN PERFORM pg_sleep(0.05); END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER slow_down BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION slow_down();
    -- Also between taking positions and committing, where a slow writer
    -- holds positions that faster readers must not skip.
    CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.last_position % 5 = 0 THEN PERFORM pg_sleep(0.03); END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER slow_commit BEFORE INSERT ON append_requests
      FOR EACH ROW EXECUTE FUNCTION slow_commit();
  )sql"), "");
  constexpr int kWriters = 4;
  constexpr int kBatches = 25;
  for (int w = 0; w < kWriters; ++w) CreateGame(absl::StrCat("g", w));
  std::atomic<bool> writing{true};
  std::atomic<int64_t> acknowledged{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      const std::string game = absl::StrCat("g", w);
      int64_t sequence = 0;
      for (int b = 0; b < kBatches; ++b) {
        const std::string tag = absl::StrCat(game, "-", b);
        std::vector<NewEvent> events = Events(tag, 3);
        if ((b + w) % 4 == 0) events[1].type = "slow";
        absl::StatusOr<AppendResult> result = store_->Append(Append(game, sequence, tag, events));
        ASSERT_TRUE(result.ok()) << result.status();
        sequence = result->last_sequence;
        acknowledged += 3;
      }
    });
  }
  constexpr int kReaders = 3;
  std::vector<int64_t> seen(kReaders, 0);
  std::vector<int> jumps(kReaders, 0);
  std::vector<std::thread> readers;
  for (int r = 0; r < kReaders; ++r) {
    readers.emplace_back([&, r] {
      int64_t last = 0;
      for (;;) {
        const bool final_pass = !writing.load();
        absl::StatusOr<std::vector<StoredEvent>> page = store_->ReadAll(last, 5 + r);
        ASSERT_TRUE(page.ok()) << page.status();
        for (const StoredEvent& event : *page) {
          if (event.position != last + 1) ++jumps[r];
          last = event.position;
          ++seen[r];
        }
        if (page->empty() && final_pass) return;
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  writing = false;
  for (std::thread& reader : readers) reader.join();
  for (int r = 0; r < kReaders; ++r) {
    EXPECT_EQ(jumps[r], 0) << "reader " << r;
    EXPECT_EQ(seen[r], acknowledged.load()) << "reader " << r;
  }
  EXPECT_EQ(*store_->HeadPosition(), kWriters * kBatches * 3);
}

TEST_F(PostgresStoreTest, CallsBeyondThePoolWaitForAConnection) {
  PostgresOptions options;
  options.conninfo = conninfo_;
  options.max_connections = 2;
  absl::StatusOr<std::unique_ptr<PostgresEventStore>> small = PostgresEventStore::Open(options);
  ASSERT_TRUE(small.ok()) << small.status();
  constexpr int kWriters = 8;
  for (int w = 0; w < kWriters; ++w) CreateGame(absl::StrCat("pool-", w));
  std::vector<std::thread> writers;
  std::atomic<int> written{0};
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      const std::string game = absl::StrCat("pool-", w);
      int64_t sequence = 0;
      for (int b = 0; b < 10; ++b) {
        const std::string tag = absl::StrCat(game, "-", b);
        absl::StatusOr<AppendResult> result =
            (*small)->Append(Append(game, sequence, tag, Events(tag, 2)));
        ASSERT_TRUE(result.ok()) << result.status();
        sequence = result->last_sequence;
        written += 2;
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  EXPECT_EQ(written.load(), kWriters * 20);
  EXPECT_EQ(CountEvents(), kWriters * 20);
  pqxx::connection conn(conninfo_);
  pqxx::read_transaction txn(conn);
  EXPECT_LE(txn.exec1("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                      "AND pid <> pg_backend_pid()")[0].as<int>(),
            2 + 1)  // the pool, and the fixture's own store
      << "the pool opened more connections than allowed";
}

TEST_F(PostgresStoreTest, ACallThatFindsThePoolBusyTooLongIsUnavailable) {
  ASSERT_EQ(SqlStateOf(R"sql(
    CREATE FUNCTION hold() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.type = 'hold' THEN PERFORM pg_sleep(1); END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER hold BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION hold();
  )sql"), "");
  CreateGame("busy");
  PostgresOptions options;
  options.conninfo = conninfo_;
  options.max_connections = 1;
  options.connection_wait = absl::Milliseconds(100);
  absl::StatusOr<std::unique_ptr<PostgresEventStore>> single = PostgresEventStore::Open(options);
  ASSERT_TRUE(single.ok()) << single.status();
  std::vector<NewEvent> held = Events("held", 1);
  held[0].type = "hold";
  std::thread holder([&] { ASSERT_TRUE((*single)->Append(Append("busy", 0, "h", held)).ok()); });
  absl::SleepFor(absl::Milliseconds(300));
  absl::StatusOr<GameRecord> waited = (*single)->GetGame("busy");
  EXPECT_EQ(waited.status().code(), absl::StatusCode::kUnavailable) << waited.status();
  EXPECT_NE(waited.status().message().find("all 1 connections to PostgreSQL stayed busy"),
            absl::string_view::npos)
      << waited.status();
  holder.join();
  EXPECT_TRUE((*single)->GetGame("busy").ok()) << "the connection is back in the pool";
}

// PostgreSQL is restarted while a writer appends; the writer retries each
// request (same request id) while the store is Unavailable. Every
// acknowledged event must be stored exactly once.
TEST_F(PostgresStoreTest, EveryAcknowledgedEventSurvivesARestartExactlyOnce) {
  constexpr int kGames = 3;
  constexpr int kBatches = 60;
  for (int g = 0; g < kGames; ++g) CreateGame(absl::StrCat("g", g));
  // The cluster is shared by the program's tests: flush what they wrote now,
  // so that the restart's shutdown checkpoint is quick.
  ASSERT_EQ(SqlStateOf("CHECKPOINT"), "");
  std::atomic<int> done{0};
  std::atomic<int> unavailable{0};
  std::vector<std::map<std::string, AppendResult>> acked(kGames);
  std::atomic<int> stopped{0};  // writers that returned, done or failed
  std::vector<std::thread> writers;
  for (int g = 0; g < kGames; ++g) {
    writers.emplace_back([&, g] {
      struct CountOnReturn {
        std::atomic<int>& count;
        ~CountOnReturn() { ++count; }
      } count_on_return{stopped};
      const std::string game = absl::StrCat("g", g);
      int64_t sequence = 0;
      for (int b = 0; b < kBatches; ++b) {
        const std::string tag = absl::StrCat(game, "-", b);
        const AppendRequest request = Append(game, sequence, tag, Events(tag, 5));
        for (int attempt = 0;; ++attempt) {
          absl::StatusOr<AppendResult> result = store_->Append(request);
          if (result.ok()) {
            acked[g][tag] = *result;
            sequence = result->last_sequence;
            ++done;
            break;
          }
          ASSERT_EQ(result.status().code(), absl::StatusCode::kUnavailable) << result.status();
          ASSERT_LT(attempt, 2400) << "the store never came back";  // 60 s
          ++unavailable;
          std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
      }
    });
  }
  while (done.load() < kGames * kBatches / 3 && stopped.load() == 0) std::this_thread::yield();
  if (stopped.load() > 0) {
    for (std::thread& writer : writers) writer.join();
    FAIL() << "a writer failed before the restart";
  }
  ASSERT_TRUE(testing::Cluster().Restart().ok());
  for (std::thread& writer : writers) writer.join();
  EXPECT_GT(unavailable.load(), 0) << "the restart was not noticed";

  for (int g = 0; g < kGames; ++g) {
    const std::string game = absl::StrCat("g", g);
    absl::StatusOr<std::vector<StoredEvent>> events = store_->ReadGameEvents(game, 0, 10000);
    ASSERT_TRUE(events.ok()) << events.status();
    ASSERT_EQ(events->size(), static_cast<size_t>(kBatches * 5));
    std::set<std::string> ids;
    for (const StoredEvent& event : *events) EXPECT_TRUE(ids.insert(event.event_id).second);
    for (const auto& [tag, result] : acked[g]) {
      EXPECT_EQ((*events)[result.last_sequence - 1].event_id, tag + "-4");
      EXPECT_EQ((*events)[result.last_sequence - 1].position, result.last_position);
    }
    EXPECT_TRUE(store_->VerifyGame(game).ok());
  }
  EXPECT_EQ(*store_->HeadPosition(), kGames * kBatches * 5);
}

class MigrationsTest : public ::testing::Test {
 protected:
  std::string conninfo_ = testing::FreshDatabase();  // built-ins applied
};

TEST(ConcurrentMigrations, RunnersStartedTogetherApplyEachMigrationOnce) {
  const std::string conninfo = testing::FreshDatabase(0);
  constexpr int kRunners = 4;
  std::vector<absl::Status> results(kRunners);
  std::vector<std::thread> runners;
  for (int r = 0; r < kRunners; ++r) {
    runners.emplace_back([&, r] { results[static_cast<std::size_t>(r)] = ApplyMigrations(conninfo); });
  }
  for (std::thread& t : runners) t.join();
  for (const absl::Status& result : results) EXPECT_TRUE(result.ok()) << result;
  pqxx::connection conn(conninfo);
  pqxx::read_transaction txn(conn);
  const pqxx::row counts =
      txn.exec1("SELECT count(*), count(DISTINCT version) FROM schema_migrations");
  EXPECT_EQ(counts[0].as<int64_t>(), static_cast<int64_t>(BuiltinMigrations().size()));
  EXPECT_EQ(counts[1].as<int64_t>(), static_cast<int64_t>(BuiltinMigrations().size()));
}

TEST_F(MigrationsTest, ApplyingTwiceChangesNothing) {
  ASSERT_TRUE(ApplyMigrations(conninfo_).ok());
  pqxx::connection conn(conninfo_);
  pqxx::read_transaction txn(conn);
  EXPECT_EQ(txn.exec1("SELECT count(*) FROM schema_migrations")[0].as<size_t>(),
            BuiltinMigrations().size());
  EXPECT_EQ(txn.exec1("SELECT checksum FROM schema_migrations WHERE version = 1")[0]
                .as<std::string>(),
            engine::Sha256Hex(BuiltinMigrations()[0].sql));
}

TEST_F(MigrationsTest, AChangedLandedFileIsRefused) {
  std::vector<Migration> changed = BuiltinMigrations();
  changed[0].sql += "\n-- an innocent-looking edit\n";
  absl::Status status = ApplyMigrations(conninfo_, changed);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("0001_event_store.sql was changed after it was applied"),
            absl::string_view::npos)
      << status;
}

TEST_F(MigrationsTest, AnUnknownLandedVersionIsRefused) {
  std::vector<Migration> older = {BuiltinMigrations()[0]};
  absl::Status status = ApplyMigrations(conninfo_, older);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("does not know"), absl::string_view::npos) << status;
}

TEST_F(MigrationsTest, ANewFileIsAppliedOnceAndAFailingOneRollsBack) {
  std::vector<Migration> next = BuiltinMigrations();
  next.push_back({900, "0900_note.sql", "CREATE TABLE note (n int);"});
  ASSERT_TRUE(ApplyMigrations(conninfo_, next).ok());
  ASSERT_TRUE(ApplyMigrations(conninfo_, next).ok());
  next.push_back({901, "0901_broken.sql", "CREATE TABLE half (n int); SELECT no_such_column;"});
  EXPECT_EQ(ApplyMigrations(conninfo_, next).code(), absl::StatusCode::kInternal);
  pqxx::connection conn(conninfo_);
  pqxx::read_transaction txn(conn);
  EXPECT_EQ(txn.exec1("SELECT count(*) FROM schema_migrations WHERE version >= 900")[0].as<int>(), 1);
  EXPECT_TRUE(txn.exec("SELECT 1 FROM pg_tables WHERE tablename = 'half'").empty());
}

// Tests of migrations write rows as an older schema had them. The game
// "old" with `last_sequence` events, the last with hash `last_hash`.
void InsertOldGame(pqxx::work& txn, int64_t last_sequence, const std::string& last_hash) {
  txn.exec_params(
      "INSERT INTO games (game_id, game, ruleset_id, ruleset_hash, seed, players, created_by, "
      "create_request_id, create_digest, last_sequence, last_hash) VALUES ('old', 'atlantica', "
      "'standard', repeat('a', 64), 1, '{ana,ben}', 'o', 'create-old', repeat('d', 64), $1, $2)",
      last_sequence, last_hash);
}

// The batch of game "old" from `first` to `last` at the same positions.
void InsertOldBatch(pqxx::work& txn, int64_t first, int64_t last, const std::string& last_hash) {
  txn.exec_params(
      "INSERT INTO append_requests (request_id, game_id, digest, first_sequence, "
      "last_sequence, first_position, last_position, last_hash) "
      "VALUES ($1, 'old', repeat('d', 64), $2, $3, $2, $3, $4)",
      absl::StrCat("append-", first), first, last, last_hash);
}

// Applies the remaining migrations and opens the store as its superuser.
std::unique_ptr<PostgresEventStore> MigrateAndOpen(const std::string& conninfo) {
  EXPECT_TRUE(ApplyMigrations(conninfo).ok());
  PostgresOptions options;
  options.conninfo = conninfo;
  options.keep_json_copies = true;
  absl::StatusOr<std::unique_ptr<PostgresEventStore>> store = PostgresEventStore::Open(options);
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

// Migration 0004 moved store-wide positions from the events rows to their
// batches: events written under the old schema keep their positions and
// their chain.
TEST(MigrationTo0004, EventsStoredBeforeKeepTheirPositionsAndChain) {
  const std::string conninfo = testing::FreshDatabase(3);
  const std::vector<NewEvent> first = Events("old-a", 3);
  const std::vector<NewEvent> second = Events("old-b", 2);
  const std::vector<std::string> first_hashes =
      internal::ChainHashes("old", GenesisHash(), 1, first);
  const std::vector<std::string> second_hashes =
      internal::ChainHashes("old", first_hashes.back(), 4, second);
  {
    pqxx::connection conn(conninfo);
    pqxx::work txn(conn);
    InsertOldGame(txn, 5, second_hashes.back());
    // Two batches, positions 1-3 and 4-5, as appends under 0001 wrote them.
    auto write = [&](const std::vector<NewEvent>& events, const std::vector<std::string>& hashes,
                     const std::string& prev, int64_t first_sequence) {
      for (size_t i = 0; i < events.size(); ++i) {
        const int64_t sequence = first_sequence + static_cast<int64_t>(i);
        txn.exec_params(
            "INSERT INTO events (position, game_id, sequence, event_id, type, payload, "
            "recorded_by, prev_hash, hash) VALUES ($1, 'old', $1, $2, $3, $4, 'o', $5, $6)",
            sequence, events[i].event_id, events[i].type, pqxx::binarystring(events[i].payload),
            i == 0 ? prev : hashes[i - 1], hashes[i]);
      }
      InsertOldBatch(txn, first_sequence,
                     first_sequence + static_cast<int64_t>(events.size()) - 1, hashes.back());
    };
    write(first, first_hashes, GenesisHash(), 1);
    write(second, second_hashes, first_hashes.back(), 4);
    txn.exec("UPDATE store_head SET last_position = 5");
    txn.commit();
  }
  std::unique_ptr<PostgresEventStore> store = MigrateAndOpen(conninfo);
  ASSERT_NE(store, nullptr);
  absl::StatusOr<std::vector<StoredEvent>> all = store->ReadAll(0, 100);
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ((*all)[i].position, i + 1);
    EXPECT_EQ((*all)[i].sequence, i + 1);
  }
  EXPECT_EQ((*all)[4].event_id, second[1].event_id);
  EXPECT_TRUE(store->VerifyGame("old").ok());
  // New appends continue after the old positions.
  absl::StatusOr<AppendResult> next = store->Append(Append("old", 5, "new", Events("new", 2)));
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->first_position, 6);
  pqxx::connection conn(conninfo);
  pqxx::read_transaction txn(conn);
  EXPECT_EQ(txn.exec1("SELECT string_agg(position::text, ',' ORDER BY position) "
                      "FROM events_in_order")[0].as<std::string>(),
            "1,2,3,4,5,6,7");
}

// Migration 0006 turned the JSON copies from jsonb into json: copies stored
// before keep their (jsonb-normalised) text, and new ones keep the writer's.
TEST(MigrationTo0006, JsonCopiesStoredBeforeStayReadable) {
  const std::string conninfo = testing::FreshDatabase(5);
  const std::vector<NewEvent> events = Events("old", 1);
  const std::vector<std::string> hashes = internal::ChainHashes("old", GenesisHash(), 1, events);
  {
    pqxx::connection conn(conninfo);
    pqxx::work txn(conn);
    InsertOldGame(txn, 1, hashes[0]);
    txn.exec_params(
        "INSERT INTO events (game_id, sequence, event_id, type, payload, payload_json, "
        "recorded_by, prev_hash, hash) VALUES ('old', 1, $1, $2, $3, "
        "'{\"b\":1,\"a\":[1,2]}'::jsonb, 'o', $4, $5)",
        events[0].event_id, events[0].type, pqxx::binarystring(events[0].payload), GenesisHash(),
        hashes[0]);
    InsertOldBatch(txn, 1, 1, hashes[0]);
    txn.exec("UPDATE store_head SET last_position = 1");
    txn.commit();
  }
  std::unique_ptr<PostgresEventStore> store = MigrateAndOpen(conninfo);
  ASSERT_NE(store, nullptr);
  absl::StatusOr<std::vector<StoredEvent>> read = store->ReadGameEvents("old", 0, 10);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 1u);
  EXPECT_EQ((*read)[0].json, "{\"a\": [1, 2], \"b\": 1}");
  std::vector<NewEvent> more = Events("new", 1);
  more[0].json = "{\"b\":1,\"a\":[1,2]}";
  ASSERT_TRUE(store->Append(Append("old", 1, "new", more)).ok());
  read = store->ReadGameEvents("old", 1, 10);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 1u);
  EXPECT_EQ((*read)[0].json, "{\"b\":1,\"a\":[1,2]}");
  EXPECT_TRUE(store->VerifyGame("old").ok());
  pqxx::connection conn(conninfo);
  pqxx::read_transaction txn(conn);
  EXPECT_EQ(txn.exec1("SELECT count(*) FROM events_in_order WHERE payload_json::jsonb ? 'a'")[0]
                .as<int>(),
            2);
}

TEST_F(MigrationsTest, AnUnreachableServerIsUnavailable) {
  EXPECT_EQ(ApplyMigrations("host=/nonexistent-dir port=1 dbname=x connect_timeout=2").code(),
            absl::StatusCode::kUnavailable);
}

// Migration 0018 gave result rows copies of their events' payload and time:
// results stored before it get theirs from the events, results stored after
// from the trigger, and a league's scan (which reads only the copies) gives
// what ReadResults gives from the events.
TEST(MigrationTo0018, ResultsStoredBeforeGetTheirCopiesFromTheEvents) {
  const std::string conninfo = testing::FreshDatabase(17);
  auto finished = [](const std::string& id) {
    NewEvent event;
    event.event_id = id;
    event.type = kGameFinishedType;
    event.payload = absl::StrCat("result ", id, std::string("\0\t\\", 3));
    return event;
  };
  {
    // The game row, its events and their batch as the schema of migration
    // 17 holds them.
    const GameRecord game = CreateRequest("before").game;
    std::vector<NewEvent> events = Events("before", 2);
    events.push_back(finished("before-end"));
    const std::vector<std::string> hashes =
        internal::ChainHashes("before", GenesisHash(), 1, events);
    pqxx::connection conn(conninfo);
    pqxx::work txn(conn);
    txn.exec_params(
        "INSERT INTO games (game_id, game, ruleset_id, ruleset_hash, seed, players, created_by, "
        "league_id, create_request_id, create_digest, status, last_sequence, last_hash) "
        "VALUES ($1, $2, $3, $4, $5, $6::text[], $7, 'north', 'create-before', 'd', 'active', "
        "3, $8)",
        game.game_id, game.game, game.ruleset_id, game.ruleset_hash, *game.seed,
        "{ana,ben,cy}", game.created_by, hashes.back());
    for (size_t i = 0; i < events.size(); ++i) {
      txn.exec_params(
          "INSERT INTO events (game_id, sequence, event_id, type, payload, recorded_by, "
          "prev_hash, hash) VALUES ('before', $1, $2, $3, $4, 'referee', $5, $6)",
          static_cast<int64_t>(i) + 1, events[i].event_id, events[i].type,
          pqxx::binarystring(events[i].payload), i == 0 ? GenesisHash() : hashes[i - 1],
          hashes[i]);
    }
    txn.exec_params(
        "INSERT INTO append_requests (request_id, game_id, digest, first_sequence, "
        "last_sequence, first_position, last_position, last_hash) "
        "VALUES ('play-before', 'before', repeat('d', 64), 1, 3, 1, 3, $1)",
        hashes.back());
    txn.exec("UPDATE store_head SET last_position = 3");
    txn.commit();
  }
  std::unique_ptr<PostgresEventStore> store = MigrateAndOpen(conninfo);
  ASSERT_NE(store, nullptr);
  CreateGameRequest request = CreateRequest("after");
  request.game.league_id = "north";
  ASSERT_TRUE(store->CreateGame(request).ok());
  ASSERT_TRUE(store->Append(Append("after", 0, "play-after", {finished("after-end")})).ok());

  absl::StatusOr<std::vector<ResultEvent>> read = store->ReadResults(0, 0, "north", 10);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 2u);
  std::vector<ResultEvent> scanned;
  ASSERT_TRUE(store
                  ->ScanLeagueResults("north", 0, 0,
                                      [&](const ResultEvent& r) {
                                        scanned.push_back(r);
                                        return absl::OkStatus();
                                      })
                  .ok());
  ASSERT_EQ(scanned.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE((*read)[i].event.event_id);
    EXPECT_EQ(scanned[i].event.game_id, (*read)[i].event.game_id);
    EXPECT_EQ(scanned[i].event.payload, (*read)[i].event.payload);
    EXPECT_EQ(scanned[i].event.recorded_at, (*read)[i].event.recorded_at);
  }
  EXPECT_EQ(scanned[0].event.payload, finished("before-end").payload);
  // The copies are as append-only as the rows.
  pqxx::connection conn(conninfo);
  pqxx::work txn(conn);
  EXPECT_THROW(txn.exec("UPDATE game_results SET payload = 'forged'"), pqxx::sql_error);
}

}  // namespace
}  // namespace arbiter::store
