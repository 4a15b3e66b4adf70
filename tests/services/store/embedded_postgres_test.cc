#include "services/store/embedded_postgres.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <thread>

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

TEST(EmbeddedPostgres, ListensOnAPrivateSocketAndSyncsToDisk) {
  absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> pg = EmbeddedPostgres::Start({});
  ASSERT_TRUE(pg.ok()) << pg.status();
  pqxx::connection conn((*pg)->conninfo());
  pqxx::read_transaction txn(conn);
  EXPECT_EQ(txn.exec1("SHOW unix_socket_permissions")[0].as<std::string>(), "0700");
  EXPECT_EQ(txn.exec1("SHOW fsync")[0].as<std::string>(), "on");
  EXPECT_EQ(txn.exec1("SHOW full_page_writes")[0].as<std::string>(), "on");
  // The socket's directory is the owner's alone.
  const std::string socket_dir = txn.exec1("SHOW unix_socket_directories")[0].as<std::string>();
  struct stat info {};
  ASSERT_EQ(stat(socket_dir.c_str(), &info), 0) << socket_dir;
  EXPECT_EQ(info.st_mode & 0777, 0700u) << socket_dir;
}

// A process that starts a cluster and dies without stopping it (SIGKILL)
// leaves no server running: the server gets a fast-shutdown signal.
TEST(EmbeddedPostgres, StopsWhenTheProcessThatStartedItDies) {
  char pattern[] = "/tmp/arbiter-pg-orphan-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  ASSERT_EQ(chmod(pattern, 0711), 0);  // as in ReusesItsDataDirectoryAfterAStop
  const std::filesystem::path data = std::filesystem::path(pattern) / "data";
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(ready[0]);
    EmbeddedPostgresOptions options;
    options.data_dir = data.string();
    absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> pg = EmbeddedPostgres::Start(options);
    const char started = pg.ok() ? '1' : '0';
    if (write(ready[1], &started, 1) != 1 || !pg.ok()) _exit(1);
    for (;;) pause();  // until the parent kills it
  }
  close(ready[1]);
  char started = '0';
  const bool read_one = read(ready[0], &started, 1) == 1;
  close(ready[0]);
  const std::filesystem::path pid_file = data / "postmaster.pid";
  const bool running = std::filesystem::exists(pid_file);
  kill(child, SIGKILL);
  ASSERT_EQ(waitpid(child, nullptr, 0), child);
  ASSERT_TRUE(read_one && started == '1') << "the child could not start a cluster";
  ASSERT_TRUE(running);
  // PostgreSQL removes postmaster.pid when it has shut down.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::filesystem::exists(pid_file) && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_FALSE(std::filesystem::exists(pid_file)) << "the orphaned server is still running";
  std::error_code ignored;
  std::filesystem::remove_all(pattern, ignored);
}

}  // namespace
}  // namespace arbiter::store
