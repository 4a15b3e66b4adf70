#include "tests/services/store/postgres_test_env.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <pqxx/pqxx>

#include "absl/strings/str_cat.h"
#include "services/store/migrations.h"

namespace arbiter::store::testing {
namespace {

std::unique_ptr<EmbeddedPostgres>& Instance() {
  static auto* instance = new std::unique_ptr<EmbeddedPostgres>();
  return *instance;
}

// Stops the cluster when the test program ends.
class ClusterEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { Instance().reset(); }
};

const bool kRegistered = [] {
  ::testing::AddGlobalTestEnvironment(new ClusterEnvironment());
  return true;
}();

}  // namespace

EmbeddedPostgres& Cluster() {
  std::unique_ptr<EmbeddedPostgres>& instance = Instance();
  if (instance == nullptr) {
    EmbeddedPostgresOptions options;
    // Small and quick: the tests need durability semantics, not speed.
    options.extra_config = "shared_buffers = '32MB'\nmax_connections = 60";
    absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> started = EmbeddedPostgres::Start(options);
    if (!started.ok()) {
      ADD_FAILURE() << "cannot start PostgreSQL: " << started.status();
      std::abort();
    }
    instance = *std::move(started);
  }
  return *instance;
}

namespace {

void CreateDatabase(const std::string& name, const std::string& template_name = "") {
  pqxx::connection admin(Cluster().ConninfoFor("postgres"));
  pqxx::nontransaction txn(admin);
  txn.exec("CREATE DATABASE " + name + (template_name.empty() ? "" : " TEMPLATE " + template_name));
}

// Creates database `name` and applies the built-in migrations up to `up_to`.
void CreateMigratedDatabase(const std::string& name, int up_to) {
  CreateDatabase(name);
  std::vector<Migration> migrations;
  for (const Migration& migration : BuiltinMigrations()) {
    if (migration.version <= up_to) migrations.push_back(migration);
  }
  absl::Status migrated = ApplyMigrations(Cluster().ConninfoFor(name), migrations);
  EXPECT_TRUE(migrated.ok()) << migrated;
}

}  // namespace

std::string FreshDatabase(int up_to) {
  static std::atomic<int> counter{0};
  const std::string name = absl::StrCat("test_", counter++);
  if (up_to < std::numeric_limits<int>::max()) {
    CreateMigratedDatabase(name, up_to);
  } else {
    // Fully migrated databases are copies of one template, migrated once per
    // program: a copy is much faster than running every migration again.
    static const bool kTemplateReady = [] {
      CreateMigratedDatabase("test_template", std::numeric_limits<int>::max());
      return true;
    }();
    (void)kTemplateReady;
    CreateDatabase(name, "test_template");
  }
  return Cluster().ConninfoFor(name);
}

std::unique_ptr<PostgresEventStore> FreshPostgresStore(std::string* conninfo,
                                                       bool keep_json_copies) {
  PostgresOptions options;
  options.conninfo = FreshDatabase();
  options.keep_json_copies = keep_json_copies;
  if (conninfo != nullptr) *conninfo = options.conninfo;
  absl::StatusOr<std::unique_ptr<PostgresEventStore>> store = PostgresEventStore::Open(options);
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

}  // namespace arbiter::store::testing

// LeakSanitizer: libpqxx 6.4 does not free the PGresult of a statement whose
// connection broke (it throws broken_connection first). The restart test
// breaks connections on purpose; our code never holds a PGresult itself.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:PQmakeEmptyPGresult\n";
}
