// Readiness: whether arbiterd should be sent traffic now, decided from one
// probe of its database (services/store/pg/health_queries.h), and when not,
// the one-line reason that /readyz shows to anyone who asks. The reason
// names the kind of failure only, never the database's own text (host
// names, users, paths): the server log has that detail (health_monitor.h).
// Kubernetes' readiness and the gRPC health protocol's service
// "arbiter.v1.Readiness" both follow this decision (docs/replication.md,
// "Health and lag for orchestrators"). Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_HEALTH_READINESS_H_
#define ARBITER_SERVICES_HEALTH_READINESS_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/store/pg/health_queries.h"

namespace arbiter::health {

struct ReadinessPolicy {
  // How long one probe may take: the wait for a pooled connection and the
  // query each (beyond: the probe fails with DeadlineExceeded).
  absl::Duration bound = absl::Seconds(1);
  // A standby counts as ready while its replay lag is at most this (a read
  // replica, issue 26 item 4). nullopt: only a writable primary is ready,
  // which is arbiterd today (every call may write).
  std::optional<absl::Duration> standby_max_lag;
};

struct Readiness {
  bool ready = false;
  std::string reason;  // one line; empty when ready
};

// What the probe's answer means under `policy`.
Readiness Decide(const absl::StatusOr<store::pg::DatabaseRole>& probe,
                 const ReadinessPolicy& policy);

// Not ready because no probe has ended for `silent` (one stuck opening a
// connection, which nothing but connect_timeout ends); `silent` infinite:
// none has ended yet.
Readiness Silent(absl::Duration silent);

}  // namespace arbiter::health

#endif  // ARBITER_SERVICES_HEALTH_READINESS_H_
