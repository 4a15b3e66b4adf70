#include "services/health/readiness.h"

#include "absl/strings/str_cat.h"

namespace arbiter::health {
namespace {

constexpr char kNoPrimary[] = "no writable PostgreSQL: ";

Readiness NotReady(absl::string_view why) { return {false, absl::StrCat(kNoPrimary, why)}; }

Readiness DecideStandby(const store::pg::DatabaseRole& role, const ReadinessPolicy& policy) {
  if (!policy.standby_max_lag.has_value()) {
    return NotReady("connected to a standby (read-only, in recovery)");
  }
  if (!role.replay_lag_seconds.has_value()) {
    return {false, "standby: its replay lag is unknown (nothing replayed yet)"};
  }
  const absl::Duration lag = absl::Seconds(*role.replay_lag_seconds);
  if (lag > *policy.standby_max_lag) {
    return {false, absl::StrCat("standby: replay is ", absl::FormatDuration(absl::Trunc(lag, absl::Milliseconds(1))),
                                " behind (at most ", absl::FormatDuration(*policy.standby_max_lag),
                                ")")};
  }
  return {true, ""};
}

}  // namespace

Readiness Decide(const absl::StatusOr<store::pg::DatabaseRole>& probe,
                 const ReadinessPolicy& policy) {
  if (probe.ok()) return probe->in_recovery ? DecideStandby(*probe, policy) : Readiness{true, ""};
  const std::string bound = absl::FormatDuration(policy.bound);
  switch (probe.status().code()) {
    case absl::StatusCode::kDeadlineExceeded:
      return NotReady(absl::StrCat("no answer within ", bound));
    case absl::StatusCode::kResourceExhausted:
      return {false, absl::StrCat("PostgreSQL busy: no free connection within ", bound)};
    case absl::StatusCode::kUnavailable:
      return NotReady("cannot connect (refused or lost; the server log says why)");
    default:
      return NotReady(absl::StrCat("the probe failed (",
                                   absl::StatusCodeToString(probe.status().code()),
                                   "; the server log says why)"));
  }
}

Readiness Silent(absl::Duration silent) {
  if (silent == absl::InfiniteDuration()) return NotReady("not probed yet");
  return NotReady(
      absl::StrCat("no answer for ", absl::FormatDuration(absl::Trunc(silent, absl::Seconds(1)))));
}

}  // namespace arbiter::health
