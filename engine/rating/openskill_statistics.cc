// The normal-distribution helpers of OpenSkill's Thurstone-Mosteller model,
// as openskill.js 5.0.1 (src/statistics.ts) defines them, thresholds included:
// where the normal CDF falls below DBL_EPSILON (or, for draws, 1e-5) the
// asymptotic value is used instead of a ratio of tiny numbers.
#include <cfloat>
#include <cmath>
#include <numbers>

#include "engine/rating/internal/systems.h"

namespace arbiter::engine::rating::internal {
namespace {

const double kSqrt2 = std::sqrt(2.0);
const double kSqrtTwoPi = std::sqrt(2 * std::numbers::pi);

}  // namespace

double PhiMajor(double x) { return 0.5 * (1 + std::erf(x / kSqrt2)); }

double PhiMinor(double x) { return std::exp(x * x / -2) / kSqrtTwoPi; }

double V(double x, double t) {
  const double xt = x - t;
  const double denom = PhiMajor(xt);
  return denom < DBL_EPSILON ? -xt : PhiMinor(xt) / denom;
}

double W(double x, double t) {
  const double xt = x - t;
  const double denom = PhiMajor(xt);
  if (denom < DBL_EPSILON) return x < 0 ? 1 : 0;
  const double v = V(x, t);
  return v * (v + xt);
}

double Vt(double x, double t) {
  const double xx = std::fabs(x);
  const double b = PhiMajor(t - xx) - PhiMajor(-t - xx);
  if (b < 1e-5) return x < 0 ? -x - t : -x + t;
  const double a = PhiMinor(-t - xx) - PhiMinor(t - xx);
  return (x < 0 ? -a : a) / b;
}

double Wt(double x, double t) {
  const double xx = std::fabs(x);
  const double b = PhiMajor(t - xx) - PhiMajor(-t - xx);
  if (b < DBL_EPSILON) return 1;
  const double vt = Vt(x, t);
  return ((t - xx) * PhiMinor(t - xx) + (t + xx) * PhiMinor(-t - xx)) / b + vt * vt;
}

}  // namespace arbiter::engine::rating::internal
