// Misconfiguration refused at start, with nothing written: whole arbiterd
// (services/arbiterd, in this process) on databases of a PostgreSQL cluster
// of the test's own. Several arbiterd share one database and sign one
// transparency log, so a second server with another key or another origin
// must not start; nor one whose key does not verify the checkpoints of a
// log from before the binding, nor any server when the binding row
// contradicts the log's own checkpoints (someone who can write the database
// changed it); nor one given a connection string none of whose hosts
// answers. Each refusal names the problem and leaves every table's rows and
// the server's files as they were (docs/replication.md, "Misconfiguration
// is refused at start").
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pqxx/pqxx>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "services/arbiterd/arbiterd.h"
#include "services/arbiterd/transparency_key.h"
#include "services/store/migrations.h"
#include "services/store/pg/pool.h"
#include "services/store/embedded_postgres.h"
#include "services/transparency/note.h"
#include "tests/services/store/private_cluster.h"

namespace arbiter::arbiterd {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kOrigin[] = "arbiter.test/log";

// Every table's rows, as text, by table: what "nothing written" compares.
using Contents = std::map<std::string, std::string>;
// Every file under a directory, with its bytes.
using Files = std::map<std::string, std::string>;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Files FilesUnder(const std::string& dir) {
  Files files;
  std::error_code error;
  if (!std::filesystem::exists(dir, error)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files[entry.path().string()] = ReadFile(entry.path().string());
  }
  return files;
}

// A TCP port on 127.0.0.1 that refuses connections (bound, then closed).
int ClosedPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    close(fd);
    return 1;  // port 1: nothing listens there either
  }
  close(fd);
  return ntohs(address.sin_port);
}

// The 32 bytes of the public key in a verifier key line.
std::string PublicKeyOf(const std::string& verifier_key) {
  absl::StatusOr<transparency::NoteVerifier> verifier =
      transparency::NoteVerifier::Parse(verifier_key);
  EXPECT_TRUE(verifier.ok()) << verifier.status();
  return verifier.ok() ? verifier->public_key() : std::string();
}

class ArbiterdConfigTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<std::unique_ptr<store::testing::PrivateCluster>> started =
        store::testing::PrivateCluster::Start("arbiter-config");
    ASSERT_TRUE(started.ok()) << started.status();
    own_ = started->release();
    cluster_ = &own_->server();
    base_ = &own_->dir();
  }

  static void TearDownTestSuite() {
    if (own_ != nullptr) {
      EXPECT_TRUE(own_->Stop().ok());
    }
    delete own_;
    own_ = nullptr;
    cluster_ = nullptr;
    base_ = nullptr;
  }

  void SetUp() override {
    ASSERT_NE(cluster_, nullptr);
    static int counter = 0;
    database_ = absl::StrCat("config_", ++counter);
    dir_ = absl::StrCat(*base_, "/", database_);
    std::filesystem::create_directories(dir_);
    pqxx::connection conn(cluster_->ConninfoFor("postgres"));
    pqxx::nontransaction txn(conn);
    txn.exec(absl::StrCat("CREATE DATABASE ", database_));
  }

  // A server named `name` (its data directory dir_/name) signing with the
  // key in `key_path` under `origin`.
  Flags FlagsFor(const std::string& name, const std::string& key_path,
                 const std::string& origin = kOrigin) const {
    Flags flags;
    flags.database.url = cluster_->ConninfoFor(database_);
    flags.database.data_dir = absl::StrCat(dir_, "/", name);
    flags.server.listen = "127.0.0.1:0";
    flags.web.listen = "";
    flags.reveal_sweep_seconds = 0;
    flags.checkpoint_seconds = 0.2;
    flags.grace_seconds = 1;
    flags.transparency_key = key_path;
    flags.log_origin = origin;
    Complete(flags);
    return flags;
  }

  // A key file of a new key, with no verifier key beside it.
  std::string NewKeyFile(const std::string& name) const {
    absl::StatusOr<transparency::NoteSigner> signer = transparency::NoteSigner::Generate(kOrigin);
    EXPECT_TRUE(signer.ok());
    const std::string path = absl::StrCat(dir_, "/", name, ".key");
    std::ofstream(path) << signer->PrivateKeyPem();
    return path;
  }

  // Starts the first server, on key dir_/a.key, and waits for its first
  // checkpoint.
  std::unique_ptr<Arbiterd> StartFirst() {
    absl::StatusOr<std::unique_ptr<Arbiterd>> a = Arbiterd::Start(FlagsFor("a", KeyA()));
    EXPECT_TRUE(a.ok()) << a.status();
    if (!a.ok()) return nullptr;
    const absl::Time deadline = absl::Now() + absl::Seconds(30);
    while (Count("transparency_checkpoints") == 0 && absl::Now() < deadline) {
      absl::SleepFor(absl::Milliseconds(50));
    }
    EXPECT_GT(Count("transparency_checkpoints"), 0) << "the first server signed no checkpoint";
    return *std::move(a);
  }
  std::string KeyA() const { return dir_ + "/a.key"; }
  // The first server's verifier key, as its transparency.pub holds it.
  std::string VerifierA() const {
    return std::string(absl::StripAsciiWhitespace(ReadFile(dir_ + "/a.pub")));
  }

  // Runs `sql` as the superuser in the test's database.
  std::string Sql(const std::string& sql) const {
    pqxx::connection conn(cluster_->ConninfoFor(database_));
    pqxx::work txn(conn);
    pqxx::result rows = txn.exec(sql);
    txn.commit();
    return rows.empty() || rows[0].empty() || rows[0][0].is_null() ? ""
                                                                   : rows[0][0].as<std::string>();
  }
  int64_t Count(const std::string& table) const {
    return std::stoll(Sql(absl::StrCat("SELECT count(*) FROM ", table)));
  }

  // Every base table of the schema with its rows (leases left out with
  // `without_leases`: a running holder renews them).
  Contents Snapshot(bool without_leases = false) const {
    Contents contents;
    pqxx::connection conn(cluster_->ConninfoFor(database_));
    pqxx::read_transaction txn(conn);
    for (const pqxx::row& table : txn.exec(
             "SELECT table_name FROM information_schema.tables "
             "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1")) {
      const std::string name = table[0].as<std::string>();
      if (without_leases && name == "leases") continue;
      contents[name] = txn.exec1(absl::StrCat("SELECT count(*) || ' ' || coalesce(md5(string_agg("
                                              "t::text, '|' ORDER BY t::text)), '') FROM ",
                                              name, " t"))[0]
                           .as<std::string>();
    }
    return contents;
  }

  static store::testing::PrivateCluster* own_;
  static const std::string* base_;
  static store::EmbeddedPostgres* cluster_;
  std::string database_;
  std::string dir_;
};

store::testing::PrivateCluster* ArbiterdConfigTest::own_ = nullptr;
const std::string* ArbiterdConfigTest::base_ = nullptr;
store::EmbeddedPostgres* ArbiterdConfigTest::cluster_ = nullptr;

TEST_F(ArbiterdConfigTest, ASecondServerWithAnotherKeyIsRefusedAndWritesNothing) {
  std::unique_ptr<Arbiterd> a = StartFirst();
  ASSERT_NE(a, nullptr);
  a->Stop();  // nothing moves in the database from here on
  const std::string key_b = NewKeyFile("b");
  const Contents before = Snapshot();
  const Files files_before = FilesUnder(dir_);

  absl::StatusOr<std::unique_ptr<Arbiterd>> b = Arbiterd::Start(FlagsFor("b", key_b));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), absl::StatusCode::kFailedPrecondition);
  const std::string message(b.status().message());
  EXPECT_THAT(message, HasSubstr("transparency key: this database's transparency log is bound to"));
  EXPECT_THAT(message, HasSubstr(VerifierA()));
  EXPECT_THAT(message, HasSubstr("the keys differ (the origin is the same)"));
  EXPECT_THAT(message, HasSubstr(key_b));
  EXPECT_THAT(message, HasSubstr("--transparency-key"));
  EXPECT_THAT(message, HasSubstr("nothing was written"));
  EXPECT_EQ(Snapshot(), before);
  EXPECT_EQ(FilesUnder(dir_), files_before);  // no admin token, no verifier key for b
}

TEST_F(ArbiterdConfigTest, ASecondServerWithAnotherOriginIsRefusedWhileTheFirstRuns) {
  std::unique_ptr<Arbiterd> a = StartFirst();
  ASSERT_NE(a, nullptr);
  const Contents before = Snapshot(/*without_leases=*/true);
  const std::string pub_before = ReadFile(dir_ + "/a.pub");

  // The same key file, under another name.
  absl::StatusOr<std::unique_ptr<Arbiterd>> b =
      Arbiterd::Start(FlagsFor("b", KeyA(), "other.test/log"));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), absl::StatusCode::kFailedPrecondition);
  const std::string message(b.status().message());
  EXPECT_THAT(message, HasSubstr(VerifierA()));
  EXPECT_THAT(message, HasSubstr(") has origin \"other.test/log\""));
  EXPECT_THAT(message, HasSubstr("the origins differ (the key is the same)"));
  EXPECT_THAT(message, HasSubstr("--log-origin \"arbiter.test/log\""));
  EXPECT_THAT(message, HasSubstr("nothing was written"));
  EXPECT_EQ(Snapshot(/*without_leases=*/true), before);
  EXPECT_EQ(ReadFile(dir_ + "/a.pub"), pub_before);  // not rewritten under the other origin
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/b"));
}

TEST_F(ArbiterdConfigTest, ASecondServerWithTheSameKeyAndOriginStarts) {
  std::unique_ptr<Arbiterd> a = StartFirst();
  ASSERT_NE(a, nullptr);
  absl::StatusOr<std::unique_ptr<Arbiterd>> b = Arbiterd::Start(FlagsFor("b", KeyA()));
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_GT((*b)->grpc_port(), 0);
  EXPECT_EQ(Count("transparency_log_binding"), 1);
  EXPECT_EQ(Sql("SELECT origin FROM transparency_log_binding"), kOrigin);
  EXPECT_THAT(Sql("SELECT bound_by FROM transparency_log_binding"),
              HasSubstr("the first server to start on this database"));
}

TEST_F(ArbiterdConfigTest, AServerWithoutAKeyFileOnABoundDatabaseIsRefusedAndCreatesNone) {
  std::unique_ptr<Arbiterd> a = StartFirst();
  ASSERT_NE(a, nullptr);
  const std::string missing = dir_ + "/b.key";
  absl::StatusOr<std::unique_ptr<Arbiterd>> b = Arbiterd::Start(FlagsFor("b", missing));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(b.status().message()),
              HasSubstr(absl::StrCat("this server has no key at ", missing)));
  EXPECT_THAT(std::string(b.status().message()), HasSubstr("no key was created"));
  EXPECT_FALSE(std::filesystem::exists(missing));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/b.pub"));
}

// A database whose log signed checkpoints before migration 0024: the table
// is dropped and the migration forgotten, so the next start applies it.
TEST_F(ArbiterdConfigTest, ALogFromBeforeTheBindingIsBoundToTheKeyThatVerifiesItsCheckpoints) {
  std::unique_ptr<Arbiterd> a = StartFirst();
  ASSERT_NE(a, nullptr);
  a->Stop();
  a.reset();
  Sql("DROP TABLE transparency_log_binding; DELETE FROM schema_migrations WHERE version = 24");
  const std::string latest = Sql("SELECT max(tree_size) FROM transparency_checkpoints");

  const std::string key_b = NewKeyFile("b");
  absl::StatusOr<std::unique_ptr<Arbiterd>> b = Arbiterd::Start(FlagsFor("b", key_b));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), absl::StatusCode::kFailedPrecondition);
  const std::string message(b.status().message());
  EXPECT_THAT(message, HasSubstr("predates migration 0024"));
  EXPECT_THAT(message, HasSubstr(absl::StrCat("tree size ", latest, ") is signed by key \"",
                                              kOrigin, "\" with key id ")));
  EXPECT_THAT(message, HasSubstr("does not verify"));
  EXPECT_THAT(message, HasSubstr("nothing was written"));
  EXPECT_EQ(Count("transparency_log_binding"), 0);  // the migration ran; nothing bound

  absl::StatusOr<std::unique_ptr<Arbiterd>> again = Arbiterd::Start(FlagsFor("a", KeyA()));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(Count("transparency_log_binding"), 1);
  EXPECT_EQ(absl::StrCat(Sql("SELECT origin FROM transparency_log_binding"), "+"),
            VerifierA().substr(0, std::string(kOrigin).size() + 1));
  EXPECT_EQ(Sql("SELECT encode(public_key, 'hex') FROM transparency_log_binding"),
            absl::BytesToHexString(PublicKeyOf(VerifierA())));
  EXPECT_THAT(Sql("SELECT bound_by FROM transparency_log_binding"),
              HasSubstr(absl::StrCat("from the latest checkpoint (tree size ", latest, ")")));
}

// Someone who can write the database puts their own key in the binding
// row: neither their server nor the rightful one signs on under it.
TEST_F(ArbiterdConfigTest, ABindingRowRewrittenToAnotherKeyIsRefusedAndSaidSo) {
  std::unique_ptr<Arbiterd> a = StartFirst();
  ASSERT_NE(a, nullptr);
  a->Stop();
  a.reset();
  const std::string key_f = NewKeyFile("forger");
  absl::StatusOr<transparency::NoteSigner> forger =
      transparency::NoteSigner::FromPrivateKeyPem(kOrigin, ReadFile(key_f));
  ASSERT_TRUE(forger.ok());
  Sql(absl::StrCat(
      "ALTER TABLE transparency_log_binding DISABLE TRIGGER USER; "
      "UPDATE transparency_log_binding SET public_key = decode('",
      absl::BytesToHexString(PublicKeyOf(forger->VerifierKey())),
      "', 'hex'); ALTER TABLE transparency_log_binding ENABLE TRIGGER USER"));
  const Contents before = Snapshot();

  for (const std::string& key : {key_f, KeyA()}) {
    absl::StatusOr<std::unique_ptr<Arbiterd>> b = Arbiterd::Start(FlagsFor("b", key));
    ASSERT_FALSE(b.ok()) << key;
    EXPECT_EQ(b.status().code(), absl::StatusCode::kFailedPrecondition);
    const std::string message(b.status().message());
    EXPECT_THAT(message, HasSubstr(forger->VerifierKey())) << key;
    EXPECT_THAT(message, HasSubstr("does not verify with that key")) << key;
    EXPECT_THAT(message, HasSubstr("was changed by someone who can write the database")) << key;
    EXPECT_THAT(message, HasSubstr("nothing was written")) << key;
  }
  EXPECT_EQ(Snapshot(), before);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/b/admin.token"));
}

TEST_F(ArbiterdConfigTest, OfTwoFirstServersStartingAtOnceOneBindsTheLogAndTheOtherLeavesNoKey) {
  const std::string key_a = KeyA(), key_b = dir_ + "/b.key";  // neither exists yet
  absl::StatusOr<std::unique_ptr<Arbiterd>> a = absl::UnknownError("not run");
  absl::StatusOr<std::unique_ptr<Arbiterd>> b = absl::UnknownError("not run");
  std::thread first([&] { a = Arbiterd::Start(FlagsFor("a", key_a)); });
  std::thread second([&] { b = Arbiterd::Start(FlagsFor("b", key_b)); });
  first.join();
  second.join();
  ASSERT_NE(a.ok(), b.ok()) << a.status() << " / " << b.status();
  const absl::Status& refused = a.ok() ? b.status() : a.status();
  const std::string& loser_key = a.ok() ? key_b : key_a;
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_THAT(std::string(refused.message()), HasSubstr("nothing was written"));
  EXPECT_FALSE(std::filesystem::exists(loser_key));
  EXPECT_EQ(Count("transparency_log_binding"), 1);
}

// The race above made certain: another server claims the log between this
// server's decision and its claim.
TEST_F(ArbiterdConfigTest, AServerThatLosesTheClaimIsRefusedAndRemovesTheKeyItMade) {
  ASSERT_TRUE(store::ApplyMigrations(cluster_->ConninfoFor(database_)).ok());
  store::pg::PgPoolOptions options;
  options.conninfo = cluster_->ConninfoFor(database_);
  store::pg::PgPool pool(options);
  const std::string key_b = dir_ + "/b.key";
  absl::StatusOr<transparency::NoteSigner> other = transparency::NoteSigner::Generate(kOrigin);
  ASSERT_TRUE(other.ok());
  absl::StatusOr<transparency::LoadedKey> key = TakeTransparencyKey(pool, key_b, kOrigin, [&] {
    EXPECT_TRUE(std::filesystem::exists(key_b));  // made for the claim
    Sql(absl::StrCat("INSERT INTO transparency_log_binding (origin, public_key, bound_by) "
                     "VALUES ('", kOrigin, "', decode('",
                     absl::BytesToHexString(PublicKeyOf(other->VerifierKey())),
                     "', 'hex'), 'the other server')"));
  });
  ASSERT_FALSE(key.ok());
  EXPECT_EQ(key.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(key.status().message()), HasSubstr(other->VerifierKey()));
  EXPECT_THAT(std::string(key.status().message()), HasSubstr("written by the other server"));
  EXPECT_FALSE(std::filesystem::exists(key_b));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/b.pub"));
  EXPECT_EQ(Sql("SELECT bound_by FROM transparency_log_binding"), "the other server");
}

TEST_F(ArbiterdConfigTest, AConnectionStringWhoseHostsAllRefuseIsRefusedAndWritesNothing) {
  const int p1 = ClosedPort(), p2 = ClosedPort();
  Flags flags = FlagsFor("c", dir_ + "/c.key");
  flags.database.url = absl::StrCat("postgresql://arbiter@127.0.0.1:", p1, ",127.0.0.1:", p2,
                                    "/arbiter?target_session_attrs=read-write&connect_timeout=2");
  const absl::Time start = absl::Now();
  absl::StatusOr<std::unique_ptr<Arbiterd>> c = Arbiterd::Start(flags);
  ASSERT_FALSE(c.ok());
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  EXPECT_EQ(c.status().code(), absl::StatusCode::kUnavailable);
  const std::string message(c.status().message());
  EXPECT_THAT(message, HasSubstr(absl::StrCat("port ", p1, " failed: Connection refused")));
  EXPECT_THAT(message, HasSubstr(absl::StrCat("port ", p2, " failed: Connection refused")));
  EXPECT_THAT(message, HasSubstr("none of the hosts in the connection string could be reached"));
  EXPECT_THAT(message, Not(HasSubstr("accepted writes")));
  EXPECT_THAT(message, HasSubstr("Nothing was written"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/c"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/c.key"));
}

}  // namespace
}  // namespace arbiter::arbiterd
