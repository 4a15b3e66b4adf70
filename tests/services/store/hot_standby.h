// A hot standby of a PostgreSQL cluster started with the server's launcher
// (the tests' cluster, postgres_test_env.h, or a benchmark's): pg_basebackup
// -R of the whole cluster, started with the same launcher, streaming from
// it. Databases the cluster creates later reach it by replication too, so
// one standby serves every FreshDatabase of a program. Used by the health
// probe's tests, the reads from standbys and their benchmark; no gtest.
#ifndef ARBITER_TESTS_SERVICES_STORE_HOT_STANDBY_H_
#define ARBITER_TESTS_SERVICES_STORE_HOT_STANDBY_H_

#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/store/embedded_postgres.h"
#include "tests/services/store/postgres_test_env.h"

namespace arbiter::store::testing {

class HotStandby {
 public:
  // Starts one of `primary`, whose superuser is "postgres". The error of
  // the step that failed.
  static absl::StatusOr<std::unique_ptr<HotStandby>> Of(const EmbeddedPostgres& primary);
  // Of the tests' cluster (started if need be). Null, with the error on
  // stderr, if it cannot.
  static std::unique_ptr<HotStandby> Start() {
    absl::StatusOr<std::unique_ptr<HotStandby>> standby = Of(Cluster());
    if (standby.ok()) return *std::move(standby);
    std::fprintf(stderr, "cannot start a hot standby: %s\n",
                 std::string(standby.status().message()).c_str());
    return nullptr;
  }
  // Stops it and deletes its directory.
  ~HotStandby();
  HotStandby(const HotStandby&) = delete;
  HotStandby& operator=(const HotStandby&) = delete;

  // A database of the standby, as the cluster's superuser.
  std::string ConninfoFor(const std::string& database) const;
  // Stops and resumes applying WAL (pg_wal_replay_pause / _resume): while
  // paused it receives commits but shows none.
  void PauseReplay();
  void ResumeReplay();
  // True once it has replayed all WAL the primary had written when called.
  bool CatchUp(absl::Duration within = absl::Seconds(30));

 private:
  explicit HotStandby(const EmbeddedPostgres& primary) : primary_(primary) {}
  const EmbeddedPostgres& primary_;
  std::string base_;
  std::unique_ptr<EmbeddedPostgres> server_;
};

}  // namespace arbiter::store::testing

#endif  // ARBITER_TESTS_SERVICES_STORE_HOT_STANDBY_H_
