#include "tests/services/store/hot_standby.h"

#include <sys/stat.h>
#include <unistd.h>

#include <pqxx/pqxx>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"

namespace arbiter::store::testing {

namespace {

std::string BinDir() {
  for (const char* version : {"17", "16", "15", "14"}) {
    const std::string dir = absl::StrCat("/usr/lib/postgresql/", version, "/bin");
    if (std::filesystem::exists(dir + "/pg_basebackup")) return dir;
  }
  return "/usr/bin";
}

}  // namespace

absl::StatusOr<std::unique_ptr<HotStandby>> HotStandby::Of(const EmbeddedPostgres& primary) {
  std::unique_ptr<HotStandby> standby(new HotStandby(primary));
  char pattern[] = "/tmp/arbiter-standby-XXXXXX";
  if (mkdtemp(pattern) == nullptr) return absl::InternalError("mkdtemp failed");
  standby->base_ = pattern;
  if (chmod(standby->base_.c_str(), 0755) != 0) return absl::InternalError("chmod failed");
  const bool root = geteuid() == 0;
  if (root && std::system(absl::StrCat("chown postgres: ", standby->base_).c_str()) != 0) {
    return absl::InternalError("chown failed");
  }
  std::string host, port;
  for (absl::string_view part : absl::StrSplit(primary.ConninfoFor("postgres"), ' ')) {
    if (absl::ConsumePrefix(&part, "host=")) host = std::string(part);
    if (absl::ConsumePrefix(&part, "port=")) port = std::string(part);
  }
  const std::string backup = absl::StrCat(
      root ? "runuser -u postgres -- " : "", BinDir(), "/pg_basebackup -h ", host, " -p ", port,
      " -U postgres -D ", standby->base_, "/data -R -X stream -c fast --no-sync");
  if (std::system(backup.c_str()) != 0) return absl::InternalError("failed: " + backup);
  EmbeddedPostgresOptions options;
  options.data_dir = standby->base_ + "/data";
  options.database = "postgres";
  // A throwaway copy: no fsync (nor the sync of the whole copy at start).
  // A standby needs at least the primary's max_connections.
  options.extra_config = "shared_buffers = '32MB'\nmax_connections = 200\nfsync = off";
  absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> server = EmbeddedPostgres::Start(options);
  if (!server.ok()) return server.status();
  standby->server_ = *std::move(server);
  return standby;
}

HotStandby::~HotStandby() {
  if (server_ != nullptr) {
    if (absl::Status s = server_->Stop(); !s.ok()) {
      std::fprintf(stderr, "stopping the standby: %s\n", std::string(s.message()).c_str());
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(base_, ignored);
}

std::string HotStandby::ConninfoFor(const std::string& database) const {
  return server_->ConninfoFor(database);
}

void HotStandby::PauseReplay() {
  pqxx::connection conn(ConninfoFor("postgres"));
  pqxx::nontransaction txn(conn);
  txn.exec("SELECT pg_wal_replay_pause()");
  // Paused once it says so (it may finish the record it is applying).
  for (int i = 0; i < 500; ++i) {
    if (txn.exec1("SELECT pg_get_wal_replay_pause_state()")[0].as<std::string>() == "paused") {
      return;
    }
    absl::SleepFor(absl::Milliseconds(10));
  }
  std::fprintf(stderr, "the standby did not pause its replay within 5 s\n");
}

void HotStandby::ResumeReplay() {
  pqxx::connection conn(ConninfoFor("postgres"));
  pqxx::nontransaction txn(conn);
  txn.exec("SELECT pg_wal_replay_resume()");
}

bool HotStandby::CatchUp(absl::Duration within) {
  std::string target;
  {
    pqxx::connection primary(primary_.ConninfoFor("postgres"));
    pqxx::nontransaction txn(primary);
    target = txn.exec1("SELECT pg_current_wal_lsn()::text")[0].as<std::string>();
  }
  pqxx::connection conn(ConninfoFor("postgres"));
  pqxx::nontransaction txn(conn);
  const absl::Time deadline = absl::Now() + within;
  while (absl::Now() < deadline) {
    if (txn.exec1("SELECT coalesce(pg_last_wal_replay_lsn() >= " + txn.quote(target) +
                  "::pg_lsn, false)")[0]
            .as<bool>()) {
      return true;
    }
    absl::SleepFor(absl::Milliseconds(5));
  }
  return false;
}

}  // namespace arbiter::store::testing
