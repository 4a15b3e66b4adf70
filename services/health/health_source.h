// HealthSource: where arbiterd's health answers come from: one readiness
// probe, the store's figures, and a way to cut either when it runs past its
// bound. PgHealthSource is the real one, on the service's pool; the tests of
// HealthMonitor and LagMetrics use fakes. Implementations are thread-safe
// with one Probe and one ReadFigures running at a time (each has its own
// thread in HealthMonitor and LagMetrics) and CutLate called from a third.
#ifndef ARBITER_SERVICES_HEALTH_HEALTH_SOURCE_H_
#define ARBITER_SERVICES_HEALTH_HEALTH_SOURCE_H_

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/store/pg/health_queries.h"
#include "services/store/pg/pool.h"
#include "services/store/pg/socket_cutter.h"

namespace arbiter::health {

class HealthSource {
 public:
  virtual ~HealthSource() = default;
  // One probe; the errors of store::pg::ProbeDatabase.
  virtual absl::StatusOr<store::pg::DatabaseRole> Probe() = 0;
  // The store's figures; the errors of store::pg::ReadStoreFigures.
  virtual absl::StatusOr<store::pg::StoreFigures> ReadFigures() = 0;
  // Cuts a Probe or ReadFigures that has run past its bound (it then fails
  // with DeadlineExceeded).
  virtual void CutLate(absl::Time now) = 0;
};

// The real source: the queries of store/pg/health_queries.h on `pool`, each
// bounded by `bound`.
class PgHealthSource final : public HealthSource {
 public:
  PgHealthSource(store::pg::PgPool& pool, absl::Duration bound) : pool_(pool), bound_(bound) {}

  absl::StatusOr<store::pg::DatabaseRole> Probe() override {
    return store::pg::ProbeDatabase(pool_, bound_, probe_cutter_);
  }
  absl::StatusOr<store::pg::StoreFigures> ReadFigures() override {
    return store::pg::ReadStoreFigures(pool_, bound_, figures_cutter_);
  }
  void CutLate(absl::Time now) override {
    probe_cutter_.CutIfLate(now);
    figures_cutter_.CutIfLate(now);
  }

 private:
  store::pg::PgPool& pool_;
  const absl::Duration bound_;
  store::pg::SocketCutter probe_cutter_;
  store::pg::SocketCutter figures_cutter_;
};

}  // namespace arbiter::health

#endif  // ARBITER_SERVICES_HEALTH_HEALTH_SOURCE_H_
