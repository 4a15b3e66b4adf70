#include "services/store/embedded_postgres.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <pqxx/pqxx>

namespace arbiter::store {
namespace {

int64_t CountRows(const std::string& conninfo) {
  pqxx::connection conn(conninfo);
  pqxx::read_transaction txn(conn);
  return txn.exec1("SELECT count(*) FROM kept")[0].as<int64_t>();
}

TEST(EmbeddedPostgres, StartsAPrivateClusterWithoutATcpPort) {
  absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> pg = EmbeddedPostgres::Start({});
  ASSERT_TRUE(pg.ok()) << pg.status();
  pqxx::connection conn((*pg)->conninfo());
  pqxx::read_transaction txn(conn);
  EXPECT_EQ(txn.exec1("SHOW listen_addresses")[0].as<std::string>(), "");
  EXPECT_EQ(txn.exec1("SHOW synchronous_commit")[0].as<std::string>(), "on");
  EXPECT_EQ(txn.exec1("SELECT current_database()")[0].as<std::string>(), "arbiter");
}

TEST(EmbeddedPostgres, ReusesItsDataDirectoryAfterAStop) {
  char pattern[] = "/tmp/arbiter-pg-reuse-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string base = pattern;
  // When run as root the cluster runs as "postgres", which must get through.
  ASSERT_EQ(chmod(pattern, 0711), 0);
  EmbeddedPostgresOptions options;
  options.data_dir = base + "/data";
  {
    absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> pg = EmbeddedPostgres::Start(options);
    ASSERT_TRUE(pg.ok()) << pg.status();
    pqxx::connection conn((*pg)->conninfo());
    pqxx::work txn(conn);
    txn.exec("CREATE TABLE kept (n int); INSERT INTO kept VALUES (1), (2)");
    txn.commit();
  }
  {
    absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> pg = EmbeddedPostgres::Start(options);
    ASSERT_TRUE(pg.ok()) << pg.status();
    EXPECT_EQ(CountRows((*pg)->conninfo()), 2);
    ASSERT_TRUE((*pg)->Restart().ok());
    EXPECT_EQ(CountRows((*pg)->conninfo()), 2);
  }
  EXPECT_TRUE(std::filesystem::exists(options.data_dir + "/PG_VERSION"));
  std::filesystem::remove_all(base);
}

TEST(EmbeddedPostgres, RemovesATemporaryClusterWhenStopped) {
  absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> pg = EmbeddedPostgres::Start({});
  ASSERT_TRUE(pg.ok()) << pg.status();
  ASSERT_TRUE((*pg)->Stop().ok());
  ASSERT_TRUE((*pg)->Stop().ok());  // idempotent
  EXPECT_THROW(pqxx::connection((*pg)->conninfo()), pqxx::broken_connection);
}

}  // namespace
}  // namespace arbiter::store
