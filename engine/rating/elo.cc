// Multiplayer Elo. Every pair of teams at the table is one game between the
// teams' mean ratings, with the logistic expectation of Elo's formula
// (E = 1 / (1 + 10^((R_other - R_team) / 400))) and score 1, 0.5 or 0. A
// team's change is K / (teams - 1) times the sum over its pairs of
// (score - expectation), so a table of n teams moves a team at most as far as
// one two-player game would; every member of a team moves by the team's
// change. With two teams this is Elo's own rule.
#include <cmath>

#include "engine/rating/internal/systems.h"

namespace arbiter::engine::rating::internal {

Ratings RateElo(const EloConfig& config, const std::vector<Team>& teams) {
  const std::size_t n = teams.size();
  std::vector<double> mean(n, 0);
  for (std::size_t t = 0; t < n; ++t) {
    for (const Rating& player : teams[t].players) mean[t] += player.mu;
    mean[t] /= static_cast<double>(teams[t].players.size());
  }
  const double k_per_pair = config.k / static_cast<double>(n - 1);
  Ratings out(n);
  for (std::size_t t = 0; t < n; ++t) {
    double surprise = 0;
    for (std::size_t o = 0; o < n; ++o) {
      if (o == t) continue;
      const double expected = 1 / (1 + std::pow(10.0, (mean[o] - mean[t]) / 400));
      const double score = teams[t].rank < teams[o].rank ? 1 : teams[t].rank == teams[o].rank ? 0.5 : 0;
      surprise += score - expected;
    }
    const double change = k_per_pair * surprise;
    for (const Rating& player : teams[t].players) out[t].push_back({player.mu + change, 0, 0});
  }
  return out;
}

}  // namespace arbiter::engine::rating::internal
