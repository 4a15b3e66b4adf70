#include "services/arbiterd/database.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "engine/core/status_macros.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "services/access/token_format.h"
#include "services/store/migrations.h"

namespace arbiter::arbiterd {

absl::StatusOr<Database> OpenDatabase(const DatabaseOptions& options) {
  Database db;
  if (options.url.empty()) {
    std::error_code error;
    std::filesystem::create_directories(options.data_dir, error);
    if (error) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot create the data directory ", options.data_dir, ": ",
                       error.message()));
    }
    store::EmbeddedPostgresOptions embedded;
    embedded.data_dir = (std::filesystem::path(options.data_dir) / "postgres").string();
    auto pg = store::EmbeddedPostgres::Start(embedded);
    if (!pg.ok()) return pg.status();
    db.embedded = *std::move(pg);
    db.conninfo = db.embedded->conninfo();
  } else {
    db.conninfo = options.url;
  }
  ARBITER_RETURN_IF_ERROR(store::ApplyMigrations(db.conninfo));
  store::PostgresOptions pg_options;
  pg_options.conninfo = db.conninfo;
  pg_options.max_connections = options.max_connections;
  pg_options.keep_json_copies = options.keep_json_copies;
  auto events = store::PostgresEventStore::Open(pg_options);
  if (!events.ok()) return events.status();
  db.events = *std::move(events);
  db.tokens = std::make_unique<store::PostgresTokenStore>(db.events->pool());
  if (!options.read_urls.empty()) {
    store::pg::StandbyReadOptions reads;
    reads.conninfos = options.read_urls;
    reads.wait = absl::Milliseconds(options.read_wait_ms);
    reads.max_lag = absl::Milliseconds(options.read_max_lag_ms);
    reads.max_connections = options.max_connections;
    db.standby_reads = std::make_unique<store::pg::StandbyReads>(db.events->pool(), reads);
  }
  return db;
}

absl::StatusOr<std::optional<std::string>> BootstrapAdminToken(store::TokenStore& tokens,
                                                               const std::string& data_dir) {
  ARBITER_ASSIGN_OR_RETURN(int64_t count, tokens.Count());
  if (count > 0) return std::optional<std::string>();
  ARBITER_ASSIGN_OR_RETURN(access::NewToken token, access::GenerateToken());
  token.record.role = store::Role::kAdmin;
  token.record.principal = "admin";
  token.record.created_by = "arbiterd";
  std::error_code error;
  std::filesystem::create_directories(data_dir, error);
  const std::string path = (std::filesystem::path(data_dir) / "admin.token").string();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat("cannot write ", path, ": ", std::strerror(errno)));
  }
  const std::string line = token.token + "\n";
  const bool written = ::fchmod(fd, 0600) == 0 &&
                       ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) &&
                       ::fsync(fd) == 0;
  ::close(fd);
  if (!written) return absl::InternalError(absl::StrCat("cannot write ", path));
  if (absl::Status s = tokens.Insert(token.record); !s.ok()) {
    ::unlink(path.c_str());
    return s;
  }
  return std::optional<std::string>(path);
}

}  // namespace arbiter::arbiterd
