// A PostgreSQL cluster of a test program's own, for tests that stop or
// restart its server or run whole arbiterd on it, which the tests' shared
// cluster (postgres_test_env.h) must not be put through. It runs in a fresh
// directory /tmp/<prefix>-XXXXXX (mode 0755, so that the cluster's user,
// "postgres" when run as root, passes through), removed when it stops.
// No gtest. Not thread-safe.
#ifndef ARBITER_TESTS_SERVICES_STORE_PRIVATE_CLUSTER_H_
#define ARBITER_TESTS_SERVICES_STORE_PRIVATE_CLUSTER_H_

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "services/store/embedded_postgres.h"

namespace arbiter::store::testing {

class PrivateCluster {
 public:
  // Its server in <dir>/pg with the database "postgres" and 32 MB of shared
  // buffers. The error of the step that failed.
  static absl::StatusOr<std::unique_ptr<PrivateCluster>> Start(const std::string& prefix) {
    std::string pattern = absl::StrCat("/tmp/", prefix, "-XXXXXX");
    if (mkdtemp(pattern.data()) == nullptr) {
      return absl::InternalError(absl::StrCat("mkdtemp ", pattern, ": ", std::strerror(errno)));
    }
    std::unique_ptr<PrivateCluster> cluster(new PrivateCluster(pattern));
    if (chmod(pattern.c_str(), 0755) != 0) {
      return absl::InternalError(absl::StrCat("chmod ", pattern, ": ", std::strerror(errno)));
    }
    EmbeddedPostgresOptions options;
    options.data_dir = pattern + "/pg";
    options.database = "postgres";
    options.extra_config = "shared_buffers = '32MB'";
    absl::StatusOr<std::unique_ptr<EmbeddedPostgres>> server = EmbeddedPostgres::Start(options);
    if (!server.ok()) return server.status();
    cluster->server_ = *std::move(server);
    return cluster;
  }

  ~PrivateCluster() { (void)Stop(); }
  PrivateCluster(const PrivateCluster&) = delete;
  PrivateCluster& operator=(const PrivateCluster&) = delete;

  // Stops the server and removes the directory; the server's stop error.
  absl::Status Stop() {
    absl::Status stopped = absl::OkStatus();
    if (server_ != nullptr) stopped = server_->Stop();
    server_.reset();
    std::error_code ignored;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
    dir_.clear();
    return stopped;
  }

  EmbeddedPostgres& server() { return *server_; }
  // The directory: the server's data in "pg", room for the test's own files.
  const std::string& dir() const { return dir_; }

 private:
  explicit PrivateCluster(std::string dir) : dir_(std::move(dir)) {}
  std::string dir_;
  std::unique_ptr<EmbeddedPostgres> server_;
};

}  // namespace arbiter::store::testing

#endif  // ARBITER_TESTS_SERVICES_STORE_PRIVATE_CLUSTER_H_
