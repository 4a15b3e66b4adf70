// Glicko-2, step by step as in Glickman, "Example of the Glicko-2 system"
// (Boston University, 2013; http://www.glicko.net/glicko/glicko2.pdf), with
// the Illinois algorithm of its step 5 for the new volatility, and the
// mapping of multiplayer team matches onto rating-period results.
#include <cmath>
#include <numbers>

#include "engine/rating/rating.h"

namespace arbiter::engine::rating {
namespace {

// Glickman's step 2: the factor between the Glicko and Glicko-2 scales.
constexpr double kScale = 173.7178;
constexpr double kCentre = 1500;

double G(double phi) { return 1 / std::sqrt(1 + 3 * phi * phi / (std::numbers::pi * std::numbers::pi)); }

double Expected(double mu, double mu_j, double g_j) { return 1 / (1 + std::exp(-g_j * (mu - mu_j))); }

// Step 5: the new volatility sigma', by the Illinois variant of regula falsi
// on f(x) = e^x (delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - a) / tau^2.
double NewVolatility(double sigma, double phi, double v, double delta, double tau, double epsilon) {
  const double a = std::log(sigma * sigma);
  const double phi_sq = phi * phi;
  const double delta_sq = delta * delta;
  const double tau_sq = tau * tau;
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi_sq + v + ex;
    return ex * (delta_sq - phi_sq - v - ex) / (2 * d * d) - (x - a) / tau_sq;
  };
  double big_a = a;
  double big_b = 0;
  if (delta_sq > phi_sq + v) {
    big_b = std::log(delta_sq - phi_sq - v);
  } else {
    double k = 1;
    while (f(a - k * tau) < 0) k += 1;
    big_b = a - k * tau;
  }
  double f_a = f(big_a);
  double f_b = f(big_b);
  // Each step shrinks the bracket; the cap only guards against a tolerance
  // below what doubles can resolve.
  for (int i = 0; i < 1000 && std::fabs(big_b - big_a) > epsilon; ++i) {
    const double big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
    const double f_c = f(big_c);
    if (f_c * f_b <= 0) {
      big_a = big_b;
      f_a = f_b;
    } else {
      f_a = f_a / 2;
    }
    big_b = big_c;
    f_b = f_c;
  }
  return std::exp(big_a / 2);
}

}  // namespace

Rating Glicko2Period(const RatingConfig& config, const Rating& player, const std::vector<GlickoResult>& results) {
  const double mu = (player.mu - kCentre) / kScale;
  const double phi = player.sigma / kScale;
  const double sigma = player.volatility;
  if (results.empty()) {
    // Step 6 only: the deviation grows by one period of volatility.
    return {player.mu, kScale * std::sqrt(phi * phi + sigma * sigma), sigma};
  }
  // Steps 3 and 4: the estimated variance v and improvement delta.
  double v_inverse = 0;
  double improvement = 0;
  for (const GlickoResult& result : results) {
    const double mu_j = (result.opponent.mu - kCentre) / kScale;
    const double g_j = G(result.opponent.sigma / kScale);
    const double e = Expected(mu, mu_j, g_j);
    v_inverse += g_j * g_j * e * (1 - e);
    improvement += g_j * (result.score - e);
  }
  const double v = 1 / v_inverse;
  const double delta = v * improvement;
  const double new_sigma =
      NewVolatility(sigma, phi, v, delta, config.glicko2.tau, config.glicko2.epsilon);
  // Steps 6 to 8.
  const double phi_star = std::sqrt(phi * phi + new_sigma * new_sigma);
  const double new_phi = 1 / std::sqrt(1 / (phi_star * phi_star) + 1 / v);
  const double new_mu = mu + new_phi * new_phi * improvement;
  return {kScale * new_mu + kCentre, kScale * new_phi, new_sigma};
}

std::vector<std::vector<std::vector<GlickoResult>>> GlickoResults(const std::vector<Team>& teams) {
  // Each team as one opponent: mean rating and volatility, RMS deviation.
  std::vector<Rating> as_opponent(teams.size());
  for (std::size_t t = 0; t < teams.size(); ++t) {
    const std::vector<Rating>& players = teams[t].players;
    if (players.empty()) continue;
    Rating sum;
    for (const Rating& p : players) {
      sum.mu += p.mu;
      sum.sigma += p.sigma * p.sigma;
      sum.volatility += p.volatility;
    }
    const double n = static_cast<double>(players.size());
    as_opponent[t] = {sum.mu / n, std::sqrt(sum.sigma / n), sum.volatility / n};
  }
  std::vector<std::vector<std::vector<GlickoResult>>> out(teams.size());
  for (std::size_t t = 0; t < teams.size(); ++t) {
    std::vector<GlickoResult> results;
    for (std::size_t o = 0; o < teams.size(); ++o) {
      if (o == t || teams[o].players.empty()) continue;
      const double score = teams[t].rank < teams[o].rank ? 1 : teams[t].rank == teams[o].rank ? 0.5 : 0;
      results.push_back({as_opponent[o], score});
    }
    out[t].assign(teams[t].players.size(), results);
  }
  return out;
}

}  // namespace arbiter::engine::rating
