#include "services/health/standby_read_figures.h"

#include "absl/strings/str_cat.h"
#include "services/health/prometheus_text.h"

namespace arbiter::health {

std::string StandbyReadFigures(const store::pg::StandbyReadStats& stats) {
  PrometheusText text;
  text.Counter("arbiter_standby_reads_total",
               "Read-only calls served by a read database (--read-database) alone");
  text.Sample(stats.served_by_standby);
  text.Counter("arbiter_standby_read_fallbacks_total",
               "Read-only calls sent to the primary: the read database had not replayed the "
               "write's position within --read-wait-ms (lag), or could not be reached");
  text.Sample(stats.fallbacks_lag, {{"reason", "lag"}});
  text.Sample(stats.fallbacks_unreachable, {{"reason", "unreachable"}});
  text.Histogram("arbiter_standby_read_wait_seconds",
                 "How long read-only calls carrying arbiter-read-after waited for a read "
                 "database to replay it (until it had, or until they went to the primary)");
  for (std::size_t i = 0; i < store::pg::StandbyReadStats::kWaitBounds.size(); ++i) {
    text.SuffixedSample("_bucket", stats.wait_buckets[i],
                        {{"le", absl::StrCat(store::pg::StandbyReadStats::kWaitBounds[i])}});
  }
  text.SuffixedSample("_bucket", stats.waits, {{"le", "+Inf"}});
  text.SuffixedSample("_sum", stats.wait_seconds_sum);
  text.SuffixedSample("_count", stats.waits);
  return text.text();
}

}  // namespace arbiter::health
