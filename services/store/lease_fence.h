// LeaseFence: what a singleton's write carries so that the database can
// refuse it once the writer no longer holds its lease (docs/replication.md,
// "Singletons").
//
// A lease (a row of the table `leases`, migration 0023) names one piece of
// work that must run in one arbiterd at a time: "projector:leagues",
// "transparency", "reveal-sweeper". Whoever takes it over from an expired
// holder gets the next fencing token, so a token only ever grows. A fenced
// write checks, in its own transaction and after locking the lease row
// against a takeover (FOR SHARE), that the row still names this holder and
// token and has not expired by the database's clock; a holder that was
// paused or cut off past its lease fails that check and writes nothing.
// Plain data, and the status of a refused write; the check itself is
// store::pg::CheckFence (pg/leases.h).
#ifndef ARBITER_SERVICES_STORE_LEASE_FENCE_H_
#define ARBITER_SERVICES_STORE_LEASE_FENCE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace arbiter::store {

struct LeaseFence {
  std::string name;    // the lease, e.g. "transparency"
  std::string holder;  // the holder id the lease was granted to
  int64_t token = 0;   // the fencing token of that grant
  // How long a fenced transaction may sit idle before PostgreSQL ends it
  // (the lease's time to live unless set otherwise), so that a holder paused
  // inside one cannot keep the rows it locked from the next holder.
  absl::Duration idle_limit = absl::Seconds(10);
};

// The status of a fenced write refused because the lease is no longer its
// grant (taken over, or expired): Aborted, marked so that IsLeaseLost
// tells it from other conflicts (a checkpoint that moved).
absl::Status LeaseLostError(absl::string_view message);
bool IsLeaseLost(const absl::Status& status);

}  // namespace arbiter::store

#endif  // ARBITER_SERVICES_STORE_LEASE_FENCE_H_
