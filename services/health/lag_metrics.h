// LagMetrics: the figures arbiterd exports for Prometheus (the website's
// /metrics, docs/replication.md, "Health and lag for orchestrators"):
// readiness and the last probe (from HealthMonitor's memory), the store
// follower's position (in memory), and the store's figures (the head, each
// projector's checkpoint, the transparency log's progress; on a standby its
// replay lag), read from PostgreSQL at most once per `max_age` however often
// it is scraped: a scrape within max_age of the last read gets that read's
// figures, and scrapes at the same time share one read.
//
// Nothing secret is in the text: positions, counts, lags, durations, 1/0
// states and projector names ("leagues"); no game, league, player, token or
// seed, and no database text. When the store's figures cannot be read they
// are left out and arbiter_store_figures_ok is 0. Thread-safe.
#ifndef ARBITER_SERVICES_HEALTH_LAG_METRICS_H_
#define ARBITER_SERVICES_HEALTH_LAG_METRICS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/health/health_monitor.h"
#include "services/health/health_source.h"
#include "services/store/pg/health_queries.h"

namespace arbiter::health {

// How far the store's follower has reported (store/follower_progress.h).
struct FollowerState {
  int64_t position = -1;  // -1: not yet
  bool connected = false;
};

// The text of /metrics for what is known at `now` (figures: nullopt when
// they could not be read).
std::string MetricsText(const HealthSnapshot& health, absl::Time now,
                        const FollowerState& follower,
                        const std::optional<store::pg::StoreFigures>& figures);

class LagMetrics {
 public:
  // `monitor` and `source` must outlive this object.
  LagMetrics(const HealthMonitor& monitor, HealthSource& source,
             std::function<FollowerState()> follower, absl::Duration max_age = absl::Seconds(1));

  // MetricsText of now. Waits at most for one read of the figures (bounded
  // by the source) and, if another scrape's read is in flight, for that.
  std::string Text();

 private:
  std::optional<store::pg::StoreFigures> Figures();

  const HealthMonitor& monitor_;
  HealthSource& source_;
  const std::function<FollowerState()> follower_;
  const absl::Duration max_age_;

  absl::Mutex mu_;
  bool reading_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<store::pg::StoreFigures> figures_ ABSL_GUARDED_BY(mu_);  // the last read's
  absl::Time read_at_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
};

}  // namespace arbiter::health

#endif  // ARBITER_SERVICES_HEALTH_LAG_METRICS_H_
