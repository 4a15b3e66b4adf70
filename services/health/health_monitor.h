// HealthMonitor: arbiterd's readiness, kept current by probing the
// database once per `interval` on a thread of its own (readiness.h decides
// what an answer means). Whoever asks (/readyz, the gRPC health service,
// /metrics) reads memory and never makes a query: however often
// orchestrators probe, the database sees one `SELECT pg_is_in_recovery()`
// per interval per server, and an answer is at most about one interval
// old.
//
// A second thread ticks every `tick`: it cuts a probe that has run past its
// bound (HealthSource::CutLate), so a server that stopped answering is
// reported within about the bound; it declares the server not ready when no
// probe has ended for interval + 2 x bound (one stuck opening a connection);
// and it tells `on_change` of every change of readiness (the gRPC health
// service follows it), logging the change with the failed probe's status,
// which the public reason leaves out. Thread-safe.
#ifndef ARBITER_SERVICES_HEALTH_HEALTH_MONITOR_H_
#define ARBITER_SERVICES_HEALTH_HEALTH_MONITOR_H_

#include <functional>
#include <optional>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/health/health_source.h"
#include "services/health/readiness.h"

namespace arbiter::health {

struct HealthOptions {
  absl::Duration interval = absl::Seconds(1);  // between the starts of two probes
  absl::Duration tick = absl::Milliseconds(100);
  ReadinessPolicy policy;  // with each probe's bound
};

// What the last probe found and what follows from it.
struct HealthSnapshot {
  Readiness readiness;
  std::string detail;  // the failed probe's status: for the log, not for answers
  std::optional<store::pg::DatabaseRole> role;  // the last probe's answer, if any
  absl::Duration probe_latency;                 // how long the last probe took
  absl::Time probed_at = absl::InfinitePast();  // when it ended
};

class HealthMonitor {
 public:
  // `source` must outlive this object; `on_change` (may be empty) is called
  // with each new readiness, from Start and then the ticking thread.
  HealthMonitor(HealthSource& source, HealthOptions options,
                std::function<void(bool ready)> on_change);
  ~HealthMonitor() { Stop(); }
  HealthMonitor(const HealthMonitor&) = delete;
  HealthMonitor& operator=(const HealthMonitor&) = delete;

  // Probes once (so Current is meaningful on return), tells on_change, and
  // starts both threads.
  void Start();
  // Stops both threads (a probe in flight is first let finish or cut).
  // Idempotent.
  void Stop();

  // The readiness now: the last probe's, or not ready if none has ended
  // for interval + 2 x bound. No I/O.
  HealthSnapshot Current() const { return CurrentAt(absl::Now()); }

 private:
  void ProbeOnce();
  void ProbeLoop();
  void TickLoop();
  HealthSnapshot CurrentAt(absl::Time now) const;
  // Tells on_change (and the log) if readiness changed since it last did.
  void Publish(absl::Time now);

  HealthSource& source_;
  const HealthOptions options_;
  const std::function<void(bool)> on_change_;

  mutable absl::Mutex mu_;
  HealthSnapshot last_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;      // the prober ends
  bool prober_done_ ABSL_GUARDED_BY(mu_) = false;   // then the ticker

  absl::Mutex publish_mu_;
  std::optional<bool> published_ ABSL_GUARDED_BY(publish_mu_);

  std::thread prober_;
  std::thread ticker_;
};

}  // namespace arbiter::health

#endif  // ARBITER_SERVICES_HEALTH_HEALTH_MONITOR_H_
