// EmbeddedPostgres: a private PostgreSQL cluster started by this process.
//
// Used when Arbiter has no database configured, and by the tests. It runs
// Debian's initdb / pg_ctl (/usr/lib/postgresql/<version>/bin) on a data
// directory of its own, listens only on a Unix socket in a private
// directory (listen_addresses = ''), and is stopped by the destructor.
// An existing initialised data directory is reused, so data survive a
// restart of the program. When the process runs as root, the cluster runs as
// the unprivileged user "postgres" (the data directory is handed to it);
// otherwise it runs as the current user. The server is a child process that
// receives a fast-shutdown signal if this process dies without stopping it,
// so a crashed test or server leaves no cluster running.
// Not thread-safe: one owner starts, restarts and stops it. Call Start and
// Restart from a thread that lives as long as the cluster (e.g. main): Linux
// delivers the shutdown signal when the thread that started the server ends.
#ifndef ARBITER_SERVICES_STORE_EMBEDDED_POSTGRES_H_
#define ARBITER_SERVICES_STORE_EMBEDDED_POSTGRES_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace arbiter::store {

struct EmbeddedPostgresOptions {
  // Where the cluster lives. Empty: a fresh temporary directory, deleted
  // when the cluster stops (for tests and throwaway runs).
  std::string data_dir;
  // Directory holding initdb, pg_ctl and postgres. Empty: the first of
  // /usr/lib/postgresql/{17,16,15,14}/bin that exists.
  std::string bin_dir;
  std::string database = "arbiter";  // created if missing
  // Extra lines for postgresql.conf (e.g. "shared_buffers = '256MB'").
  std::string extra_config;
};

class EmbeddedPostgres {
 public:
  // initdb (if needed), start, wait until ready, create the database.
  // Errors: FailedPrecondition (no PostgreSQL binaries, no "postgres" user
  // when root, unusable directory), Internal (initdb/pg_ctl failed; the
  // message quotes its log).
  static absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> Start(
      const EmbeddedPostgresOptions& options);
  ~EmbeddedPostgres();  // Stop(), errors ignored

  EmbeddedPostgres(const EmbeddedPostgres&) = delete;
  EmbeddedPostgres& operator=(const EmbeddedPostgres&) = delete;

  // libpq connection string for the database as the cluster's superuser.
  const std::string& conninfo() const { return conninfo_; }
  // The same for another database of the cluster.
  std::string ConninfoFor(const std::string& database) const;

  // Stops (fast shutdown: open connections are cut) and starts again.
  absl::Status Restart();
  // Stops the server (fast shutdown) but keeps its directories and the
  // socket's path: Restart starts it again at the same address. For tests
  // of a database that goes away and comes back.
  absl::Status Shutdown() { return StopServer(); }
  // Stops the server; idempotent. A temporary data directory is removed.
  absl::Status Stop();
  // The postmaster's process id; -1 while stopped.
  int server_pid() const { return server_pid_; }

 private:
  EmbeddedPostgres() = default;
  // The steps of Start: whom the cluster runs as (the "postgres" user when
  // this process is root), its directories, initdb on a new data directory,
  // arbiter.conf (rewritten at every start), stopping a server an earlier
  // process left running, and creating the database.
  absl::Status ChooseUser();
  absl::Status MakeDirectories(const std::string& data_dir);
  absl::Status InitDataDirectory();
  absl::Status WriteConfig(const std::string& extra_config);
  void StopLeftOverServer();
  absl::Status CreateDatabase(const std::string& database);
  absl::Status StartServer();
  absl::Status StopServer();

  std::string bin_dir_;
  std::string base_dir_;    // holds data/, run/ and the log
  std::string data_dir_;
  std::string socket_dir_;
  std::string log_file_;
  std::string conninfo_;
  std::string superuser_;
  bool temporary_ = false;
  int server_pid_ = -1;  // the postmaster, a child of this process; -1: stopped
  int run_as_uid_ = -1;  // -1: this process's user
  int run_as_gid_ = -1;
};

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_EMBEDDED_POSTGRES_H_
