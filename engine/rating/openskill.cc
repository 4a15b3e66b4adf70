// OpenSkill (Weng and Lin 2011) as openskill.js 5.0.1 computes it: rate()
// (src/rate.ts) and the Plackett-Luce, Thurstone-Mosteller full and
// Bradley-Terry full models (src/models/). Sums run in the same order as
// there, so results agree to the last few bits (the differential test allows
// 1e-9).
//
// rate(): every sigma becomes sqrt(sigma^2 + tau^2); teams are sorted by rank
// (stably); a tied group's rank becomes the sorted index of its first team;
// the model updates each team from its sums (mu, sigma^2) and hands every
// member a share proportional to its variance; the results go back to the
// input order; with limit_sigma (and tau > 0) no sigma ends above its value
// before tau was added.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/rating/internal/systems.h"

namespace arbiter::engine::rating::internal {
namespace {

struct TeamSums {
  double mu = 0;        // sum of the members' mu
  double sigma_sq = 0;  // sum of the members' sigma^2
  int rank = 0;         // sorted index of the first team of its tie group
  const std::vector<Rating>* players = nullptr;
};

// Omega and delta of one team: the change of its mean and the shrinking of
// its variance, before they are shared among its members.
struct TeamUpdate {
  double omega = 0;
  double delta = 0;
};

std::vector<TeamUpdate> PlackettLuce(const OpenSkillConfig& config, const std::vector<TeamSums>& teams) {
  const double beta_sq = config.beta * config.beta;
  double c_sq = 0;
  for (const TeamSums& team : teams) c_sq += team.sigma_sq + beta_sq;
  const double c = std::sqrt(c_sq);
  const std::size_t n = teams.size();
  std::vector<double> exp_mu(n), sum_q(n), a(n);
  for (std::size_t i = 0; i < n; ++i) exp_mu[i] = std::exp(teams[i].mu / c);
  for (std::size_t q = 0; q < n; ++q) {
    for (std::size_t i = 0; i < n; ++i) {
      if (teams[i].rank >= teams[q].rank) sum_q[q] += exp_mu[i];
      if (teams[i].rank == teams[q].rank) a[q] += 1;
    }
  }
  std::vector<TeamUpdate> updates(n);
  for (std::size_t i = 0; i < n; ++i) {
    double omega_sum = 0;
    double delta_sum = 0;
    for (std::size_t q = 0; q < n; ++q) {
      if (teams[q].rank > teams[i].rank) continue;
      const double quotient = exp_mu[i] / sum_q[q];
      omega_sum += (i == q ? 1 - quotient : -quotient) / a[q];
      delta_sum += quotient * (1 - quotient) / a[q];
    }
    const double sigma_sq = teams[i].sigma_sq;
    const double gamma = std::sqrt(sigma_sq) / c;
    updates[i].omega = omega_sum * (sigma_sq / c);
    updates[i].delta = delta_sum * (sigma_sq / (c * c)) * gamma;
  }
  return updates;
}

// Thurstone-Mosteller full (draw margin epsilon) and Bradley-Terry full:
// every pair of teams is compared.
std::vector<TeamUpdate> PairwiseFull(const OpenSkillConfig& config, bool thurstone,
                                     const std::vector<TeamSums>& teams) {
  const double two_beta_sq = 2 * (config.beta * config.beta);
  std::vector<TeamUpdate> updates(teams.size());
  for (std::size_t i = 0; i < teams.size(); ++i) {
    const TeamSums& team_i = teams[i];
    TeamUpdate& update = updates[i];
    for (std::size_t q = 0; q < teams.size(); ++q) {
      if (q == i) continue;
      const TeamSums& team_q = teams[q];
      const double ciq = std::sqrt(team_i.sigma_sq + team_q.sigma_sq + two_beta_sq);
      const double eta = team_i.sigma_sq / ciq;
      const double gamma = std::sqrt(team_i.sigma_sq) / ciq;
      if (thurstone) {
        const double delta_mu = (team_i.mu - team_q.mu) / ciq;
        const double margin = config.epsilon / ciq;
        if (team_q.rank == team_i.rank) {
          update.omega += eta * Vt(delta_mu, margin);
          update.delta += gamma * eta / ciq * Wt(delta_mu, margin);
        } else {
          const double sign = team_q.rank > team_i.rank ? 1 : -1;
          update.omega += sign * eta * V(sign * delta_mu, margin);
          update.delta += gamma * eta / ciq * W(sign * delta_mu, margin);
        }
      } else {
        const double piq = 1 / (1 + std::exp((team_q.mu - team_i.mu) / ciq));
        const double score = team_q.rank < team_i.rank ? 0 : team_q.rank > team_i.rank ? 1 : 0.5;
        update.omega += eta * (score - piq);
        update.delta += gamma * eta / ciq * piq * (1 - piq);
      }
    }
  }
  return updates;
}

}  // namespace

Ratings RateOpenSkill(const RatingConfig& config, const std::vector<Team>& teams) {
  const OpenSkillConfig& os = config.openskill;
  const double tau_sq = os.tau * os.tau;
  const std::size_t n = teams.size();
  std::vector<std::vector<Rating>> processed(n);
  for (std::size_t t = 0; t < n; ++t) {
    for (const Rating& player : teams[t].players) {
      processed[t].push_back({player.mu, std::sqrt(player.sigma * player.sigma + tau_sq), 0});
    }
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return teams[a].rank < teams[b].rank; });

  std::vector<TeamSums> sums(n);
  for (std::size_t j = 0; j < n; ++j) {
    TeamSums& team = sums[j];
    team.players = &processed[order[j]];
    for (const Rating& player : *team.players) {
      team.mu += player.mu;
      team.sigma_sq += player.sigma * player.sigma;
    }
    const bool new_group = j > 0 && teams[order[j - 1]].rank < teams[order[j]].rank;
    team.rank = j == 0 ? 0 : new_group ? static_cast<int>(j) : sums[j - 1].rank;
  }

  const std::vector<TeamUpdate> updates =
      config.system == System::kPlackettLuce
          ? PlackettLuce(os, sums)
          : PairwiseFull(os, config.system == System::kThurstoneMostellerFull, sums);

  Ratings out(n);
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t t = order[j];
    const TeamSums& team = sums[j];
    for (std::size_t p = 0; p < team.players->size(); ++p) {
      const Rating& player = (*team.players)[p];
      const double share = player.sigma * player.sigma / team.sigma_sq;
      Rating updated;
      updated.mu = player.mu + share * updates[j].omega;
      updated.sigma = player.sigma * std::sqrt(std::max(1 - share * updates[j].delta, os.kappa));
      if (os.limit_sigma && os.tau != 0) updated.sigma = std::min(updated.sigma, teams[t].players[p].sigma);
      out[t].push_back(updated);
    }
  }
  return out;
}

}  // namespace arbiter::engine::rating::internal
