#include "services/health/health_monitor.h"

#include <spdlog/spdlog.h>

#include <utility>

namespace arbiter::health {

HealthMonitor::HealthMonitor(HealthSource& source, HealthOptions options,
                             std::function<void(bool ready)> on_change)
    : source_(source), options_(std::move(options)), on_change_(std::move(on_change)) {}

void HealthMonitor::Start() {
  if (ticker_.joinable()) return;
  ticker_ = std::thread([this] { TickLoop(); });  // first: it may cut the probe below
  ProbeOnce();
  Publish(absl::Now());
  prober_ = std::thread([this] { ProbeLoop(); });
}

void HealthMonitor::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  // The ticker goes on cutting while the prober finishes its probe.
  if (prober_.joinable()) prober_.join();
  {
    absl::MutexLock lock(&mu_);
    prober_done_ = true;
  }
  if (ticker_.joinable()) ticker_.join();
}

void HealthMonitor::ProbeOnce() {
  const absl::Time start = absl::Now();
  absl::StatusOr<store::pg::DatabaseRole> probe = source_.Probe();
  const absl::Time end = absl::Now();
  HealthSnapshot next;
  next.readiness = Decide(probe, options_.policy);
  if (probe.ok()) {
    next.role = *probe;
  } else {
    next.detail = probe.status().ToString();
  }
  next.probe_latency = end - start;
  next.probed_at = end;
  absl::MutexLock lock(&mu_);
  last_ = std::move(next);
}

void HealthMonitor::ProbeLoop() {
  absl::Time next = absl::Now() + options_.interval;
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      mu_.AwaitWithDeadline(absl::Condition(&stopping_), next);
      if (stopping_) return;
    }
    next = absl::Now() + options_.interval;
    ProbeOnce();
  }
}

void HealthMonitor::TickLoop() {
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      mu_.AwaitWithTimeout(absl::Condition(&prober_done_), options_.tick);
      if (prober_done_) return;
    }
    const absl::Time now = absl::Now();
    source_.CutLate(now);
    Publish(now);
  }
}

HealthSnapshot HealthMonitor::CurrentAt(absl::Time now) const {
  HealthSnapshot snapshot;
  {
    absl::MutexLock lock(&mu_);
    snapshot = last_;
  }
  const absl::Duration silent = now - snapshot.probed_at;
  if (silent > options_.interval + 2 * options_.policy.bound) {
    snapshot.readiness = Silent(silent);
    snapshot.detail = "no probe has ended since the last one reported";
  }
  return snapshot;
}

void HealthMonitor::Publish(absl::Time now) {
  const HealthSnapshot snapshot = CurrentAt(now);
  absl::MutexLock lock(&publish_mu_);
  if (published_ == snapshot.readiness.ready) return;
  published_ = snapshot.readiness.ready;
  if (snapshot.readiness.ready) {
    spdlog::info("readiness: ready");
  } else {
    spdlog::warn("readiness: not ready: {} ({})", snapshot.readiness.reason, snapshot.detail);
  }
  if (on_change_) on_change_(snapshot.readiness.ready);
}

}  // namespace arbiter::health
