// RateMatch: checks a match and hands it to its system's update rule.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "engine/rating/internal/systems.h"
#include "engine/rating/rating.h"

namespace arbiter::engine::rating {
namespace {

absl::Status CheckField(std::string_view field, double value, bool zero_allowed) {
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(field), " is ", value, ", not a finite number"));
  }
  if (value < 0 || (value == 0 && !zero_allowed)) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(field), " is ", value, "; it must be ", zero_allowed ? ">= 0" : "> 0"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckRating(const RatingConfig& config, const Rating& rating) {
  if (!std::isfinite(rating.mu)) {
    return absl::InvalidArgumentError(absl::StrCat("mu is ", rating.mu, ", not a finite number"));
  }
  switch (config.system) {
    case System::kPlackettLuce:
    case System::kThurstoneMostellerFull:
    case System::kBradleyTerryFull:
      return CheckField("sigma", rating.sigma, false);
    case System::kGlicko2:
      if (absl::Status s = CheckField("sigma (RD)", rating.sigma, false); !s.ok()) return s;
      return CheckField("volatility", rating.volatility, false);
    case System::kElo:
      return CheckField("sigma", rating.sigma, true);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::vector<Rating>>> RateMatch(const RatingConfig& config,
                                                            const std::vector<Team>& teams) {
  if (teams.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("a match needs at least 2 teams; this one has ", teams.size()));
  }
  for (std::size_t t = 0; t < teams.size(); ++t) {
    if (teams[t].players.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("team ", t, " has no players"));
    }
    for (std::size_t p = 0; p < teams[t].players.size(); ++p) {
      const absl::Status status = CheckRating(config, teams[t].players[p]);
      if (!status.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("team ", t, " player ", p, ": ", std::string(status.message())));
      }
    }
  }
  std::vector<std::vector<Rating>> rated;
  switch (config.system) {
    case System::kPlackettLuce:
    case System::kThurstoneMostellerFull:
    case System::kBradleyTerryFull:
      rated = internal::RateOpenSkill(config, teams);
      break;
    case System::kGlicko2: {
      const auto results = GlickoResults(teams);
      rated.resize(teams.size());
      for (std::size_t t = 0; t < teams.size(); ++t) {
        for (std::size_t p = 0; p < teams[t].players.size(); ++p) {
          rated[t].push_back(Glicko2Period(config, teams[t].players[p], results[t][p]));
        }
      }
      break;
    }
    case System::kElo:
      rated = internal::RateElo(config.elo, teams);
      break;
  }
  // Finite inputs can still overflow (OpenSkill's exp(mu / c) with ratings
  // hundreds of deviations apart): refuse rather than hand out NaN.
  for (std::size_t t = 0; t < rated.size(); ++t) {
    for (std::size_t p = 0; p < rated[t].size(); ++p) {
      const Rating& r = rated[t][p];
      if (!std::isfinite(r.mu) || !std::isfinite(r.sigma) || !std::isfinite(r.volatility)) {
        return absl::InvalidArgumentError(absl::StrCat("team ", t, " player ", p,
                                                       ": the ratings of this match are too far apart to "
                                                       "rate (the new rating would not be finite)"));
      }
    }
  }
  return rated;
}

}  // namespace arbiter::engine::rating
