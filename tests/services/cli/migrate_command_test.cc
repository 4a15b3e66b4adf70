// `arbiter migrate` against a real PostgreSQL started by the test harness.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <pqxx/pqxx>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/store/migrations.h"
#include "tests/services/store/postgres_test_env.h"

namespace {

using ::testing::HasSubstr;

struct CommandResult {
  int exit_code = -1;
  std::string output;
};

CommandResult Arbiter(const std::string& args, const std::string& env = "") {
  const std::string command = env + " " + std::string(ARBITER_BIN_DIR) + "/arbiter " + args + " 2>&1";
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) result.output += buffer.data();
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string EmptyDatabase(const std::string& name) {
  pqxx::connection admin(arbiter::store::testing::Cluster().conninfo());
  pqxx::nontransaction txn(admin);
  txn.exec("DROP DATABASE IF EXISTS " + name);
  txn.exec("CREATE DATABASE " + name);
  return arbiter::store::testing::Cluster().ConninfoFor(name);
}

int64_t AppliedMigrations(const std::string& conninfo) {
  pqxx::connection conn(conninfo);
  pqxx::read_transaction txn(conn);
  return txn.exec1("SELECT count(*) FROM schema_migrations")[0].as<int64_t>();
}

TEST(ArbiterMigrate, AppliesEveryMigrationOnceAndIsIdempotent) {
  const std::string conninfo = EmptyDatabase("cli_migrate");
  const CommandResult first = Arbiter("migrate --database '" + conninfo + "'");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_EQ(AppliedMigrations(conninfo),
            static_cast<int64_t>(arbiter::store::BuiltinMigrations().size()));
  const CommandResult again = Arbiter("migrate --database '" + conninfo + "'");
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(AppliedMigrations(conninfo),
            static_cast<int64_t>(arbiter::store::BuiltinMigrations().size()));
}

TEST(ArbiterMigrate, TakesTheDatabaseFromTheEnvironment) {
  const std::string conninfo = EmptyDatabase("cli_migrate_env");
  const CommandResult result = Arbiter("migrate", "ARBITER_DATABASE_URL='" + conninfo + "'");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_GT(AppliedMigrations(conninfo), 0);
}

TEST(ArbiterMigrate, WithoutADatabaseExitsTwoAndSaysWhatIsMissing) {
  const CommandResult result = Arbiter("migrate", "env -u ARBITER_DATABASE_URL");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr("--database"));
}

TEST(ArbiterMigrate, AnUnreachableServerExitsOneWithTheReason) {
  const CommandResult result = Arbiter("migrate --database 'host=/nonexistent/socket dbname=x connect_timeout=2'");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("arbiter: "));
}

}  // namespace
