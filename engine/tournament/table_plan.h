// TablePlan: how many tables of which sizes a round has for a number of
// players, and how many players sit out with a bye.
//
//   Leftover::kByes:          n / preferred tables of the preferred size;
//                             n % preferred players get a bye.
//   Leftover::kMixedSizes: sizes from the allowed ones summing to n,
//                             chosen to minimise, in this order, (1) the number
//                             of tables not of the preferred size, (2) the sum
//                             of |size - preferred|, (3) the number of tables
//                             larger than preferred. Listed largest first.
//                             If no sum of allowed sizes is n, the fewest
//                             players that make one possible get a bye.
// Pure; deterministic.
#ifndef ARBITER_ENGINE_TOURNAMENT_TABLE_PLAN_H_
#define ARBITER_ENGINE_TOURNAMENT_TABLE_PLAN_H_

#include <vector>

#include "absl/status/statusor.h"
#include "engine/tournament/settings.h"

namespace arbiter::engine::tournament {

struct TablePlan {
  std::vector<int> sizes;  // table 1 first
  int byes = 0;
};

// FailedPrecondition if `players` cannot fill even one table.
absl::StatusOr<TablePlan> PlanTables(const TournamentSettings& settings, int players);

}  // namespace arbiter::engine::tournament

#endif  // ARBITER_ENGINE_TOURNAMENT_TABLE_PLAN_H_
