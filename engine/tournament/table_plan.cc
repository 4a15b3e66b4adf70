#include "engine/tournament/table_plan.h"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>

#include "absl/strings/str_cat.h"

namespace arbiter::engine::tournament {
namespace {

// Lexicographic cost of a partition (see the header).
using Cost = std::array<int, 3>;

Cost TableCost(int size, int preferred) {
  return {size == preferred ? 0 : 1, size > preferred ? size - preferred : preferred - size,
          size > preferred ? 1 : 0};
}

Cost Add(const Cost& a, const Cost& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }

// Best partition of n into allowed sizes, or nullopt. Dynamic programming
// over 0..n; among equal costs the first size tried (largest) wins, so the
// answer is deterministic.
std::optional<std::vector<int>> Partition(const std::vector<int>& allowed, int preferred, int n) {
  std::vector<int> sizes = allowed;
  std::sort(sizes.begin(), sizes.end(), std::greater<int>());
  std::vector<std::optional<Cost>> best(n + 1);
  std::vector<int> choice(n + 1, 0);
  best[0] = Cost{0, 0, 0};
  for (int k = 1; k <= n; ++k) {
    for (int size : sizes) {
      if (size > k || !best[k - size].has_value()) continue;
      const Cost cost = Add(*best[k - size], TableCost(size, preferred));
      if (!best[k].has_value() || cost < *best[k]) {
        best[k] = cost;
        choice[k] = size;
      }
    }
  }
  if (!best[n].has_value()) return std::nullopt;
  std::vector<int> out;
  for (int k = n; k > 0; k -= choice[k]) out.push_back(choice[k]);
  std::sort(out.begin(), out.end(), std::greater<int>());
  return out;
}

}  // namespace

absl::StatusOr<TablePlan> PlanTables(const TournamentSettings& settings, int players) {
  const int smallest = *std::min_element(settings.table_sizes.begin(), settings.table_sizes.end());
  const int needed = settings.leftover == Leftover::kByes ? settings.preferred_size : smallest;
  if (players < needed) {
    return absl::FailedPreconditionError(
        absl::StrCat(players, " players cannot fill a table (the smallest allowed here is ",
                     needed, ")"));
  }
  TablePlan plan;
  if (settings.leftover == Leftover::kByes) {
    plan.sizes.assign(players / settings.preferred_size, settings.preferred_size);
    plan.byes = players % settings.preferred_size;
    return plan;
  }
  for (int byes = 0; byes <= players - smallest; ++byes) {
    std::optional<std::vector<int>> sizes =
        Partition(settings.table_sizes, settings.preferred_size, players - byes);
    if (sizes.has_value()) {
      plan.sizes = *std::move(sizes);
      plan.byes = byes;
      return plan;
    }
  }
  return absl::FailedPreconditionError(absl::StrCat(players, " players cannot fill a table"));
}

}  // namespace arbiter::engine::tournament
