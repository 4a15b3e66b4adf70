// The update rules behind RateMatch, one per family of systems. Callers have
// checked the match (RateMatch does): at least two teams, none empty, every
// rating accepted by CheckRating.
#ifndef ARBITER_ENGINE_RATING_INTERNAL_SYSTEMS_H_
#define ARBITER_ENGINE_RATING_INTERNAL_SYSTEMS_H_

#include <vector>

#include "engine/rating/rating.h"

namespace arbiter::engine::rating::internal {

using Ratings = std::vector<std::vector<Rating>>;

// OpenSkill's rate() of openskill.js 5.0.1 with the model of config.system
// (openskill.cc).
Ratings RateOpenSkill(const RatingConfig& config, const std::vector<Team>& teams);

// Multiplayer Elo (elo.cc).
Ratings RateElo(const EloConfig& config, const std::vector<Team>& teams);

// The standard normal functions of openskill.js's statistics module
// (openskill_statistics.cc): the additive (v, vt) and multiplicative (w, wt)
// corrections of a win and of a draw with margin t.
double PhiMajor(double x);
double PhiMinor(double x);
double V(double x, double t);
double W(double x, double t);
double Vt(double x, double t);
double Wt(double x, double t);

}  // namespace arbiter::engine::rating::internal

#endif  // ARBITER_ENGINE_RATING_INTERNAL_SYSTEMS_H_
