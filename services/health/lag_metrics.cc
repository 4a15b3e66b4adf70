#include "services/health/lag_metrics.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "services/health/prometheus_text.h"

namespace arbiter::health {
namespace {

// How long a scrape waits for another scrape's read of the figures.
constexpr absl::Duration kWaitForOtherRead = absl::Seconds(3);

void AddReadiness(PrometheusText& out, const HealthSnapshot& health, absl::Time now) {
  out.Gauge("arbiter_ready",
            "1 if this server is ready for traffic (as /readyz and the gRPC health service "
            "arbiter.v1.Readiness say), else 0.");
  out.Sample(health.readiness.ready);
  const bool answered = health.role.has_value();
  out.Gauge("arbiter_database_writable",
            "1 if the last probe reached a PostgreSQL primary that accepts writes, else 0.");
  out.Sample(answered && !health.role->in_recovery);
  if (answered) {
    out.Gauge("arbiter_database_in_recovery",
              "1 if the last probe reached a standby (pg_is_in_recovery()); absent when it "
              "reached no database.");
    out.Sample(health.role->in_recovery);
  }
  if (health.probed_at == absl::InfinitePast()) return;
  out.Gauge("arbiter_database_probe_seconds", "How long the last readiness probe took.");
  out.Sample(absl::ToDoubleSeconds(health.probe_latency));
  out.Gauge("arbiter_database_probe_age_seconds", "Seconds since the last readiness probe ended.");
  out.Sample(absl::ToDoubleSeconds(std::max(absl::ZeroDuration(), now - health.probed_at)));
}

void AddStandby(PrometheusText& out, const HealthSnapshot& health) {
  if (!health.role.has_value() || !health.role->in_recovery) return;
  if (health.role->replay_lag_bytes.has_value()) {
    out.Gauge("arbiter_standby_replay_lag_bytes",
              "On a standby: WAL received but not yet replayed, in bytes.");
    out.Sample(*health.role->replay_lag_bytes);
  }
  if (health.role->replay_lag_seconds.has_value()) {
    out.Gauge("arbiter_standby_replay_lag_seconds",
              "On a standby: seconds since the last replayed commit, 0 when all WAL received "
              "is replayed.");
    out.Sample(*health.role->replay_lag_seconds);
  }
}

void AddFollower(PrometheusText& out, const FollowerState& follower,
                 const std::optional<store::pg::StoreFigures>& figures) {
  out.Gauge("arbiter_follower_connected",
            "1 while the store's follower (LISTEN, read by position) holds its connection.");
  out.Sample(follower.connected);
  if (follower.position < 0) return;
  out.Gauge("arbiter_follower_position",
            "The last store position the follower reported to this server's caches and live "
            "feeds.");
  out.Sample(follower.position);
  if (!figures.has_value()) return;
  out.Gauge("arbiter_follower_lag_events",
            "Game events stored but not yet reported by the follower (head minus its position).");
  out.Sample(std::max<int64_t>(0, figures->head_position - follower.position));
}

void AddStore(PrometheusText& out, const store::pg::StoreFigures& figures) {
  out.Gauge("arbiter_store_head_position", "The store-wide position of the last stored game event.");
  out.Sample(figures.head_position);
  if (figures.projectors.has_value()) {
    out.Gauge("arbiter_projector_position",
              "The store position each projector's stored checkpoint has counted.");
    for (const store::pg::ProjectorCheckpoint& p : *figures.projectors) {
      out.Sample(p.position, {{"projector", p.projector}});
    }
    out.Gauge("arbiter_projector_lag_events",
              "Game events stored after each projector's checkpoint.");
    for (const store::pg::ProjectorCheckpoint& p : *figures.projectors) {
      out.Sample(std::max<int64_t>(0, figures.head_position - p.position),
                 {{"projector", p.projector}});
    }
  }
  out.Gauge("arbiter_transparency_tree_size", "Leaves of the transparency log's Merkle tree.");
  out.Sample(static_cast<int64_t>(figures.transparency_tree_size));
  out.Gauge("arbiter_transparency_unlogged_events",
            "Events stored (game and stream events) that are not yet leaves of the tree.");
  out.Sample(std::max<int64_t>(0, figures.head_position - figures.transparency_events_position) +
             figures.unlogged_stream_events);
}

}  // namespace

std::string MetricsText(const HealthSnapshot& health, absl::Time now,
                        const FollowerState& follower,
                        const std::optional<store::pg::StoreFigures>& figures) {
  PrometheusText out;
  AddReadiness(out, health, now);
  AddStandby(out, health);
  out.Gauge("arbiter_store_figures_ok",
            "1 if the store's figures (head, projectors, transparency log) were read from "
            "PostgreSQL within the last second; 0: they are left out.");
  out.Sample(figures.has_value());
  AddFollower(out, follower, figures);
  if (figures.has_value()) AddStore(out, *figures);
  return out.text();
}

LagMetrics::LagMetrics(const HealthMonitor& monitor, HealthSource& source,
                       std::function<FollowerState()> follower, absl::Duration max_age)
    : monitor_(monitor), source_(source), follower_(std::move(follower)), max_age_(max_age) {}

std::string LagMetrics::Text() {
  std::optional<store::pg::StoreFigures> figures = Figures();
  return MetricsText(monitor_.Current(), absl::Now(), follower_ ? follower_() : FollowerState{},
                     figures);
}

std::optional<store::pg::StoreFigures> LagMetrics::Figures() {
  {
    absl::MutexLock lock(&mu_);
    if (absl::Now() - read_at_ <= max_age_) return figures_;
    if (reading_) {
      auto done = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return !reading_; };
      mu_.AwaitWithTimeout(absl::Condition(&done), kWaitForOtherRead);
      if (absl::Now() - read_at_ <= max_age_) return figures_;
      return std::nullopt;
    }
    reading_ = true;
  }
  absl::StatusOr<store::pg::StoreFigures> read = source_.ReadFigures();
  if (!read.ok()) spdlog::debug("metrics: {}", read.status().ToString());
  absl::MutexLock lock(&mu_);
  reading_ = false;
  read_at_ = absl::Now();  // a failure too: scrapes may not hammer a failing database
  figures_.reset();
  if (read.ok()) figures_ = *std::move(read);
  return figures_;
}

}  // namespace arbiter::health
