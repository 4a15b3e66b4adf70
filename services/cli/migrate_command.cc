// `arbiter migrate --database URL`: applies the schema migrations compiled
// into this binary to a PostgreSQL server (ARBITER_DATABASE_URL if no flag).
#include <cstdlib>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "services/cli/commands.h"
#include "services/store/migrations.h"

namespace arbiter::cli {
namespace {

int RunMigrate(std::string database) {
  if (database.empty()) {
    if (const char* env = std::getenv("ARBITER_DATABASE_URL")) database = env;
  }
  if (database.empty()) {
    return ReportError(absl::InvalidArgumentError(
        "no database: pass --database URL or set ARBITER_DATABASE_URL "
        "(e.g. postgresql://arbiter@localhost/arbiter)"));
  }
  const absl::Status status = store::ApplyMigrations(database);
  if (!status.ok()) return ReportError(status);
  std::cout << "migrations applied: " << store::BuiltinMigrations().size() << " known, database up to date\n";
  return kExitOk;
}

}  // namespace

void AddMigrateCommand(CLI::App& app, const GlobalOptions& /*global*/, int& exit_code) {
  auto database = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("migrate", "Apply the schema migrations to a PostgreSQL database");
  cmd->add_option("--database", *database,
                  "libpq connection string or URL (default: $ARBITER_DATABASE_URL)");
  cmd->callback([database, &exit_code] { exit_code = RunMigrate(*database); });
}

}  // namespace arbiter::cli
