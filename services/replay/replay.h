// Replay of a whole log: the verdict, the first violation and the standings.
#ifndef ARBITER_SERVICES_REPLAY_REPLAY_H_
#define ARBITER_SERVICES_REPLAY_REPLAY_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "arbiter/v1/report.pb.h"
#include "engine/core/ruleset_registry.h"
#include "services/log/log_file.h"
#include "services/replay/referee.h"

namespace arbiter::replay {

struct ReplayOptions {
  // Stop after this log line (1 = just the header); nullopt = the whole log.
  std::optional<int64_t> stop_after_line;
};

// Replays `log`. Errors (malformed header or action) are Status with
// "line N: ..."; an illegal action is not an error: the referee's verdict says
// "illegal" and replay stops there, leaving the state as it was before.
absl::StatusOr<Referee> Replay(const log::GameLog& log, const engine::RulesetRegistry& registry,
                               const ReplayOptions& options = {});

// The report `arbiter replay --json` prints.
v1::ReplayReport MakeReport(const Referee& referee);

}  // namespace arbiter::replay

#endif  // ARBITER_SERVICES_REPLAY_REPLAY_H_
