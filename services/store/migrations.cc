#include "services/store/migrations.h"

#include <map>
#include <pqxx/pqxx>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "engine/core/sha256.h"
#include "services/store/pg/status.h"

namespace arbiter::store {
namespace {

// schema_migrations: stored: never renumber. One row per applied file.
constexpr char kCreateTable[] = R"sql(
CREATE TABLE IF NOT EXISTS schema_migrations (
  version    integer PRIMARY KEY,
  name       text NOT NULL,
  checksum   text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE schema_migrations IS 'Migrations applied to this database; files must never change once applied.';
COMMENT ON COLUMN schema_migrations.version IS 'NNNN from the file name.';
COMMENT ON COLUMN schema_migrations.name IS 'The file name.';
COMMENT ON COLUMN schema_migrations.checksum IS 'SHA-256 (hex) of the file as applied.';
COMMENT ON COLUMN schema_migrations.applied_at IS 'When it was applied.';
)sql";

// Any constant shared by all runners: they queue on it.
constexpr int64_t kAdvisoryLockKey = 0x4172626974657201;  // "Arbiter" 0x01

absl::Status CheckOrder(const std::vector<Migration>& migrations) {
  for (size_t i = 0; i < migrations.size(); ++i) {
    if (migrations[i].version <= 0 || (i > 0 && migrations[i].version <= migrations[i - 1].version)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "migration ", migrations[i].name, " is out of order or has a bad version"));
    }
  }
  return absl::OkStatus();
}

absl::Status Apply(pqxx::connection& conn, const std::vector<Migration>& migrations) {
  {
    pqxx::nontransaction setup(conn);
    setup.exec("SET client_min_messages = warning");
    setup.exec(kCreateTable);
  }
  std::map<int, std::pair<std::string, std::string>> applied;  // version -> name, checksum
  {
    pqxx::read_transaction read(conn);
    for (const pqxx::row& row : read.exec("SELECT version, name, checksum FROM schema_migrations")) {
      applied[row[0].as<int>()] = {row[1].as<std::string>(), row[2].as<std::string>()};
    }
  }
  std::map<int, const Migration*> known;
  for (const Migration& migration : migrations) known[migration.version] = &migration;
  for (const auto& [version, recorded] : applied) {
    auto it = known.find(version);
    if (it == known.end()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the database has migration ", version, " (", recorded.first,
          ") that this program does not know; run a newer Arbiter"));
    }
    if (engine::Sha256Hex(it->second->sql) != recorded.second) {
      return absl::FailedPreconditionError(absl::StrCat(
          "migration ", it->second->name, " was changed after it was applied (checksum ",
          recorded.second.substr(0, 12), "... recorded); landed migrations must never be edited"));
    }
  }
  for (const Migration& migration : migrations) {
    if (applied.count(migration.version) > 0) continue;
    try {
      pqxx::work work(conn);
      work.exec(migration.sql);
      work.exec_params("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                       migration.version, migration.name, engine::Sha256Hex(migration.sql));
      work.commit();
    } catch (const pqxx::sql_error& e) {
      return absl::InternalError(
          absl::StrCat("migration ", migration.name, " failed: ", e.what()));
    }
  }
  return absl::OkStatus();
}

}  // namespace

namespace {

// A hot standby accepts connections but no writes: say so before the
// migrations fail on it one statement at a time.
absl::Status RefuseAStandby(pqxx::connection_base& conn) {
  pqxx::nontransaction txn(conn);
  const pqxx::row row = txn.exec1(
      "SELECT pg_is_in_recovery(), coalesce(host(inet_server_addr()), 'the local socket'), "
      "coalesce(inet_server_port()::text, '')");
  if (!row[0].as<bool>()) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "the database server at ", row[1].as<std::string>(),
      row[2].as<std::string>().empty() ? "" : ":", row[2].as<std::string>(),
      " is a standby (read-only): give arbiterd the primary, or list every node of the cluster "
      "with target_session_attrs=read-write in --database (docs/replication.md); nothing was "
      "written"));
}

}  // namespace

absl::Status ApplyMigrations(const std::string& conninfo) {
  return ApplyMigrations(conninfo, BuiltinMigrations());
}

absl::Status ApplyMigrations(const std::string& conninfo, const std::vector<Migration>& migrations) {
  ARBITER_RETURN_IF_ERROR(CheckOrder(migrations));
  try {
    pqxx::connection conn(conninfo);
    ARBITER_RETURN_IF_ERROR(RefuseAStandby(conn));
    {
      pqxx::nontransaction lock(conn);
      lock.exec_params("SELECT pg_advisory_lock($1)", kAdvisoryLockKey);
    }
    absl::Status status = Apply(conn, migrations);
    pqxx::nontransaction unlock(conn);
    unlock.exec_params("SELECT pg_advisory_unlock($1)", kAdvisoryLockKey);
    return status;
  } catch (const std::exception& e) {
    absl::Status status = pg::StatusFromException(e, "applying migrations");
    if (status.code() != absl::StatusCode::kUnavailable) return status;
    // libpq names each host it tried and why it failed: a host that answered
    // as a standby ("read-only", "hot standby") or one it could not reach.
    const bool a_standby_answered = absl::StrContains(status.message(), "read-only") ||
                                    absl::StrContains(status.message(), "hot standby");
    if (a_standby_answered && absl::StrContains(conninfo, "target_session_attrs=read-write")) {
      return absl::UnavailableError(absl::StrCat(
          status.message(),
          ". None of the hosts in the connection string accepted writes: is a primary up? "
          "(scripts/pg-cluster status shows the cluster's; docs/replication.md); nothing was "
          "written"));
    }
    // (A server that answered with an error, such as an unknown database or
    // a refused login, says FATAL: that one was reached.)
    if (!a_standby_answered && absl::StrContains(status.message(), "connection to server") &&
        !absl::StrContains(status.message(), "FATAL")) {
      return absl::UnavailableError(absl::StrCat(
          status.message(),
          ". So none of the hosts in the connection string could be reached: is PostgreSQL "
          "running there, and are the hosts and ports of --database right? Nothing was written"));
    }
    return status;
  }
}

}  // namespace arbiter::store
