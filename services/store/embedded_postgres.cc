#include "services/store/embedded_postgres.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"
#include "services/store/pg/status.h"

namespace arbiter::store {
namespace {

namespace fs = std::filesystem;

constexpr char kSuperuser[] = "postgres";
// The socket file is <dir>/.s.PGSQL.<port>; nothing listens on TCP, so the
// port number only names the file.
constexpr int kPort = 5432;

std::string FindBinDir(const std::string& configured) {
  if (!configured.empty()) return configured;
  for (const char* version : {"17", "16", "15", "14", "13"}) {
    const std::string dir = absl::StrCat("/usr/lib/postgresql/", version, "/bin");
    if (fs::exists(dir + "/pg_ctl") && fs::exists(dir + "/initdb")) return dir;
  }
  return "";
}

std::string ReadTail(const std::string& path, size_t max_bytes = 2000) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string all = text.str();
  if (all.size() > max_bytes) all = all.substr(all.size() - max_bytes);
  return all;
}

// Runs argv[0] with its output appended to `log`, as uid/gid when they are
// not -1. Returns the exit code, or -1 if it could not run.
int Run(const std::vector<std::string>& args, const std::string& log, int uid, int gid) {
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    // Only async-signal-safe calls from here to exec.
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    const int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, 0);
    if (gid >= 0) {
      if (setgroups(0, nullptr) != 0 || setgid(static_cast<gid_t>(gid)) != 0) _exit(126);
    }
    if (uid >= 0 && setuid(static_cast<uid_t>(uid)) != 0) _exit(126);
    if (chdir("/") != 0) _exit(126);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

absl::Status MakeDir(const std::string& path, int uid, int gid) {
  std::error_code error;
  fs::create_directories(path, error);
  if (error) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot create ", path, ": ", error.message()));
  }
  if (uid >= 0 && chown(path.c_str(), static_cast<uid_t>(uid), static_cast<gid_t>(gid)) != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot hand ", path, " to the postgres user: ", std::strerror(errno)));
  }
  if (chmod(path.c_str(), 0700) != 0) {
    return absl::FailedPreconditionError(absl::StrCat("cannot chmod ", path));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> MakeTempDir(const std::string& prefix) {
  std::string pattern = absl::StrCat("/tmp/", prefix, "XXXXXX");
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("mkdtemp ", pattern, ": ", std::strerror(errno)));
  }
  return std::string(buffer.data());
}

// When the cluster runs as another user, every existing ancestor of `path`
// must let that user through.
absl::Status CheckReachable(const std::string& path, int uid, int gid) {
  if (uid < 0) return absl::OkStatus();
  for (fs::path dir = fs::path(path).parent_path(); !dir.empty(); dir = dir.parent_path()) {
    struct stat info {};
    if (stat(dir.c_str(), &info) == 0) {
      const bool through = (info.st_uid == static_cast<uid_t>(uid) && (info.st_mode & S_IXUSR)) ||
                           (info.st_gid == static_cast<gid_t>(gid) && (info.st_mode & S_IXGRP)) ||
                           (info.st_mode & S_IXOTH);
      if (!through) {
        return absl::FailedPreconditionError(absl::StrCat(
            "the cluster runs as the user \"postgres\", which cannot enter ", dir.string(),
            "; choose a data directory it can reach (e.g. under /var/lib or /tmp)"));
      }
    }
    if (dir == dir.root_path()) break;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> EmbeddedPostgres::Start(
    const EmbeddedPostgresOptions& options) {
  std::unique_ptr<EmbeddedPostgres> pg(new EmbeddedPostgres());
  pg->bin_dir_ = FindBinDir(options.bin_dir);
  if (pg->bin_dir_.empty()) {
    return absl::FailedPreconditionError(
        "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin "
        "(install postgresql, or configure a database URL)");
  }
  ARBITER_RETURN_IF_ERROR(pg->ChooseUser());
  ARBITER_RETURN_IF_ERROR(pg->MakeDirectories(options.data_dir));
  pg->log_file_ = pg->socket_dir_ + "/tools.log";
  pg->superuser_ = kSuperuser;
  if (!fs::exists(pg->data_dir_ + "/PG_VERSION")) {
    ARBITER_RETURN_IF_ERROR(pg->InitDataDirectory());
  }
  ARBITER_RETURN_IF_ERROR(pg->WriteConfig(options.extra_config));
  pg->StopLeftOverServer();
  ARBITER_RETURN_IF_ERROR(pg->StartServer());
  pg->conninfo_ = pg->ConninfoFor(options.database);
  ARBITER_RETURN_IF_ERROR(pg->CreateDatabase(options.database));
  return pg;
}

absl::Status EmbeddedPostgres::ChooseUser() {
  if (geteuid() != 0) return absl::OkStatus();
  const passwd* user = getpwnam(kSuperuser);
  if (user == nullptr) {
    return absl::FailedPreconditionError(
        "running as root, but there is no \"postgres\" user to run the cluster as");
  }
  run_as_uid_ = static_cast<int>(user->pw_uid);
  run_as_gid_ = static_cast<int>(user->pw_gid);
  return absl::OkStatus();
}

absl::Status EmbeddedPostgres::MakeDirectories(const std::string& data_dir) {
  const int uid = run_as_uid_;
  const int gid = run_as_gid_;
  if (data_dir.empty()) {
    ARBITER_ASSIGN_OR_RETURN(base_dir_, MakeTempDir("arbiter-pg-"));
    temporary_ = true;
    ARBITER_RETURN_IF_ERROR(MakeDir(base_dir_, uid, gid));
    data_dir_ = base_dir_ + "/data";
  } else {
    data_dir_ = fs::absolute(data_dir).lexically_normal().string();
    while (data_dir_.size() > 1 && data_dir_.back() == '/') data_dir_.pop_back();
  }
  ARBITER_ASSIGN_OR_RETURN(socket_dir_, MakeTempDir("arbiter-pgsock-"));
  ARBITER_RETURN_IF_ERROR(MakeDir(socket_dir_, uid, gid));
  ARBITER_RETURN_IF_ERROR(CheckReachable(data_dir_, uid, gid));
  return MakeDir(data_dir_, uid, gid);
}

absl::Status EmbeddedPostgres::InitDataDirectory() {
  std::vector<std::string> args = {bin_dir_ + "/initdb", "-D", data_dir_, "-U",
                                   kSuperuser, "--auth=trust", "-E", "UTF8", "--locale=C"};
  if (temporary_) args.push_back("--no-sync");
  if (Run(args, log_file_, run_as_uid_, run_as_gid_) != 0) {
    return absl::InternalError(
        absl::StrCat("initdb ", data_dir_, " failed: ", ReadTail(log_file_)));
  }
  std::ofstream conf(data_dir_ + "/postgresql.conf", std::ios::app);
  conf << "\n# Written by Arbiter's embedded launcher: its settings are in arbiter.conf.\n"
       << "include_if_exists = 'arbiter.conf'\n";
  return absl::OkStatus();
}

absl::Status EmbeddedPostgres::WriteConfig(const std::string& extra_config) {
  // Rewritten at every start: the socket directory is new each time.
  const std::string path = data_dir_ + "/arbiter.conf";
  std::ofstream conf(path, std::ios::trunc);
  conf << "# Written by Arbiter at every start; edits are lost.\n"
       << "listen_addresses = ''\n"
       << "unix_socket_directories = '" << socket_dir_ << "'\n"
       << "unix_socket_permissions = 0700\n"
       << "port = " << kPort << "\n"
       << "fsync = on\n"
       << "synchronous_commit = on\n"
       << "max_connections = 100\n"
       << "logging_collector = off\n"
       << extra_config << "\n";
  conf.close();
  if (run_as_uid_ >= 0 && chown(path.c_str(), static_cast<uid_t>(run_as_uid_),
                                static_cast<gid_t>(run_as_gid_)) != 0) {
    return absl::FailedPreconditionError(absl::StrCat("cannot chown ", path));
  }
  return absl::OkStatus();
}

void EmbeddedPostgres::StopLeftOverServer() {
  // A server left running by an earlier process would hold the data
  // directory (and listen on a socket directory nobody knows): stop it.
  const std::string pg_ctl = bin_dir_ + "/pg_ctl";
  if (Run({pg_ctl, "-D", data_dir_, "status"}, log_file_, run_as_uid_, run_as_gid_) == 0) {
    Run({pg_ctl, "-D", data_dir_, "-m", "fast", "-w", "stop"}, log_file_, run_as_uid_,
        run_as_gid_);
  }
}

absl::Status EmbeddedPostgres::CreateDatabase(const std::string& database) {
  try {
    pqxx::connection admin(ConninfoFor("postgres"));
    pqxx::nontransaction txn(admin);
    if (txn.exec_params("SELECT 1 FROM pg_database WHERE datname = $1", database).empty()) {
      txn.exec("CREATE DATABASE " + txn.quote_name(database));
    }
  } catch (const std::exception& e) {
    return pg::StatusFromException(e, "creating the database");
  }
  return absl::OkStatus();
}

std::string EmbeddedPostgres::ConninfoFor(const std::string& database) const {
  return absl::StrCat("host=", socket_dir_, " port=", kPort, " user=", superuser_,
                      " dbname=", database);
}

absl::Status EmbeddedPostgres::StartServer() {
  const std::string postgres = bin_dir_ + "/postgres";
  const std::string server_log = data_dir_ + "/server.log";
  std::vector<std::string> args = {postgres, "-D", data_dir_};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t parent = getpid();
  const int uid = run_as_uid_;
  const int gid = run_as_gid_;
  const pid_t pid = fork();
  if (pid < 0) return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  if (pid == 0) {
    // Only async-signal-safe calls from here to exec.
    if (gid >= 0 && (setgroups(0, nullptr) != 0 || setgid(static_cast<gid_t>(gid)) != 0)) _exit(126);
    if (uid >= 0 && setuid(static_cast<uid_t>(uid)) != 0) _exit(126);
    // After setuid, which clears it: SIGINT (fast shutdown) when we die.
    if (prctl(PR_SET_PDEATHSIG, SIGINT) != 0 || getppid() != parent) _exit(125);
    const int fd = open(server_log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    const int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, 0);
    if (chdir("/") != 0) _exit(126);
    setsid();  // a terminal's Ctrl-C reaches us, not the server directly
    execv(argv[0], argv.data());
    _exit(127);
  }
  server_pid_ = pid;
  // Ready when it accepts a connection (up to two minutes: crash recovery).
  for (int attempt = 0; attempt < 2400; ++attempt) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      server_pid_ = -1;
      return absl::InternalError(
          absl::StrCat("postgres exited during start-up; its log: ", ReadTail(server_log)));
    }
    try {
      pqxx::connection probe(ConninfoFor("postgres") + " connect_timeout=2");
      return absl::OkStatus();
    } catch (const std::exception&) {
      usleep(50 * 1000);
    }
  }
  StopServer().IgnoreError();
  return absl::DeadlineExceededError(
      absl::StrCat("postgres did not accept connections within 120 s; its log: ", ReadTail(server_log)));
}

absl::Status EmbeddedPostgres::StopServer() {
  if (server_pid_ < 0) return absl::OkStatus();
  const pid_t pid = server_pid_;
  server_pid_ = -1;
  kill(pid, SIGINT);  // fast shutdown: cut connections, checkpoint, exit
  for (int waited_ms = 0;; waited_ms += 20) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno == ECHILD)) return absl::OkStatus();
    if (waited_ms == 60000) kill(pid, SIGQUIT);  // immediate shutdown
    if (waited_ms > 70000) return absl::InternalError("postgres does not stop");
    usleep(20 * 1000);
  }
}

absl::Status EmbeddedPostgres::Restart() {
  ARBITER_RETURN_IF_ERROR(StopServer());
  return StartServer();
}

absl::Status EmbeddedPostgres::Stop() {
  absl::Status status = StopServer();
  std::error_code ignored;
  if (temporary_ && !base_dir_.empty()) {
    fs::remove_all(base_dir_, ignored);
    base_dir_.clear();
  }
  if (!socket_dir_.empty()) {
    fs::remove_all(socket_dir_, ignored);
    socket_dir_.clear();
  }
  return status;
}

EmbeddedPostgres::~EmbeddedPostgres() { Stop().IgnoreError(); }

}  // namespace arbiter::store
