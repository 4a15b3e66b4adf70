// SocketCutter: lets one thread cut the connection that another thread's
// query is waiting on, once the query's deadline has passed. It calls
// shutdown(2) on the connection's socket, so libpq's wait ends at once with
// a lost connection (the pool then drops it, pool.h) instead of lasting
// until TCP gives up on a server that stopped answering: a SIGSTOPped
// postmaster, a machine gone from the network. The health probe
// (health_queries.h) is the user: its answers must come within a bound.
//
// The socket is only touched while it is armed, and the querying thread
// disarms it before its connection can be closed, so a cut never reaches a
// reused file descriptor. Thread-safe; one query armed at a time.
#ifndef ARBITER_SERVICES_STORE_PG_SOCKET_CUTTER_H_
#define ARBITER_SERVICES_STORE_PG_SOCKET_CUTTER_H_

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace arbiter::store::pg {

class SocketCutter {
 public:
  // A query is about to wait on `socket`; it may be cut after `deadline`.
  void Arm(int socket, absl::Time deadline);
  // The query is over (answered or failed); true if it was cut. Call it
  // before the connection can be closed.
  bool Disarm();
  // Cuts the armed socket if `now` is past its deadline; true if it did.
  bool CutIfLate(absl::Time now);

 private:
  absl::Mutex mu_;
  int socket_ ABSL_GUARDED_BY(mu_) = -1;
  absl::Time deadline_ ABSL_GUARDED_BY(mu_) = absl::InfiniteFuture();
  bool cut_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace arbiter::store::pg

#endif  // ARBITER_SERVICES_STORE_PG_SOCKET_CUTTER_H_
