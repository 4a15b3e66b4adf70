// The figures of reads from standbys (store::pg::StandbyReads,
// docs/replication.md "Reads from standbys") in Prometheus' text format, for
// /metrics beside the lag figures: reads served by a read database, reads
// sent to the primary and why, and how long reads that carried a write's
// WAL position waited for it. Counts only: no host, game or token.
// Thread-safe (a pure function).
#ifndef ARBITER_SERVICES_HEALTH_STANDBY_READ_FIGURES_H_
#define ARBITER_SERVICES_HEALTH_STANDBY_READ_FIGURES_H_

#include <string>

#include "services/store/pg/standby_reads.h"

namespace arbiter::health {

std::string StandbyReadFigures(const store::pg::StandbyReadStats& stats);

}  // namespace arbiter::health

#endif  // ARBITER_SERVICES_HEALTH_STANDBY_READ_FIGURES_H_
