// RateMatch: malformed matches, determinism, ties, teams, tau, kappa, and how
// team games map onto Glicko-2 and Elo.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "engine/rating/rating.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arbiter::engine::rating {
namespace {

using ::testing::HasSubstr;

constexpr System kAllSystems[] = {System::kPlackettLuce, System::kThurstoneMostellerFull,
                                  System::kBradleyTerryFull, System::kGlicko2, System::kElo};

RatingConfig Config(System system, std::vector<std::pair<std::string, std::string>> params = {}) {
  absl::StatusOr<RatingConfig> config = MakeConfig(system, params);
  EXPECT_TRUE(config.ok()) << config.status();
  return *config;
}

std::vector<std::vector<Rating>> Rate(const RatingConfig& config, const std::vector<Team>& teams) {
  absl::StatusOr<std::vector<std::vector<Rating>>> rated = RateMatch(config, teams);
  EXPECT_TRUE(rated.ok()) << rated.status();
  return rated.ok() ? *rated : std::vector<std::vector<Rating>>{};
}

// A varied four-team match: teams of 1-3 players, a tie for second.
std::vector<Team> VariedMatch(const RatingConfig& config) {
  const Rating r = InitialRating(config);
  auto shifted = [&](double dmu, double sigma_factor) {
    return Rating{r.mu + dmu, r.sigma == 0 ? 0 : r.sigma * sigma_factor, r.volatility};
  };
  return {{{shifted(3, 0.5), shifted(-1, 0.9)}, 2},
          {{shifted(0, 1)}, 1},
          {{shifted(5, 0.3), shifted(2, 0.7), shifted(-4, 1)}, 2},
          {{shifted(-2, 0.8)}, 4}};
}

TEST(RateMatchInput, FewerThanTwoTeamsIsInvalid) {
  for (System system : kAllSystems) {
    const RatingConfig config = Config(system);
    EXPECT_EQ(RateMatch(config, {}).status().code(), absl::StatusCode::kInvalidArgument);
    const absl::Status one = RateMatch(config, {{{InitialRating(config)}, 1}}).status();
    EXPECT_EQ(one.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(one.message(), HasSubstr("at least 2 teams; this one has 1"));
  }
}

TEST(RateMatchInput, AnEmptyTeamIsInvalidAndNamed) {
  const RatingConfig config = Config(System::kPlackettLuce);
  const absl::Status status = RateMatch(config, {{{InitialRating(config)}, 1}, {{}, 2}}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("team 1 has no players"));
}

TEST(RateMatchInput, NegativeOrNonFiniteRatingsAreInvalidAndNamed) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (System system : kAllSystems) {
    const RatingConfig config = Config(system);
    const Rating good = InitialRating(config);
    for (const auto& [bad, field] : std::vector<std::pair<Rating, std::string>>{
             {{good.mu, -1, good.volatility}, "sigma"},
             {{good.mu, nan, good.volatility}, "sigma"},
             {{inf, good.sigma, good.volatility}, "mu"},
             {{nan, good.sigma, good.volatility}, "mu"}}) {
      const absl::Status status = RateMatch(config, {{{good}, 1}, {{good, bad}, 2}}).status();
      EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << SystemName(system);
      EXPECT_THAT(status.message(), HasSubstr("team 1 player 1: " + field)) << status;
    }
  }
  const RatingConfig glicko = Config(System::kGlicko2);
  const absl::Status status = RateMatch(glicko, {{{{1500, 350, 0.06}}, 1}, {{{1500, 350, 0}}, 2}}).status();
  EXPECT_THAT(status.message(), HasSubstr("team 1 player 0: volatility is 0; it must be > 0"));
  const absl::Status zero_sigma = RateMatch(Config(System::kPlackettLuce), {{{{25, 0, 0}}, 1}, {{{25, 1, 0}}, 2}}).status();
  EXPECT_THAT(zero_sigma.message(), HasSubstr("team 0 player 0: sigma is 0; it must be > 0"));
}

TEST(RateMatchInput, RatingsTooFarApartToRateAreInvalidNotNan) {
  const RatingConfig config = Config(System::kPlackettLuce);
  const absl::Status status = RateMatch(config, {{{{1e300, 1, 0}}, 1}, {{{0, 1, 0}}, 2}}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("too far apart to rate"));
}

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(RateMatchBehaviour, TheSameMatchGivesTheSameBitsEveryTime) {
  for (System system : kAllSystems) {
    const RatingConfig config = Config(system);
    const std::vector<Team> match = VariedMatch(config);
    const auto first = Rate(config, match);
    for (int run = 0; run < 20; ++run) {
      const auto again = Rate(config, match);
      ASSERT_EQ(again.size(), first.size());
      for (std::size_t t = 0; t < first.size(); ++t) {
        for (std::size_t p = 0; p < first[t].size(); ++p) {
          EXPECT_TRUE(SameBits(again[t][p].mu, first[t][p].mu) && SameBits(again[t][p].sigma, first[t][p].sigma) &&
                      SameBits(again[t][p].volatility, first[t][p].volatility))
              << SystemName(system);
        }
      }
    }
  }
}

TEST(RateMatchBehaviour, ResultsHaveTheShapeOfTheTeams) {
  for (System system : kAllSystems) {
    const RatingConfig config = Config(system);
    const Rating r = InitialRating(config);
    const auto rated = Rate(config, {{{r}, 2}, {{r, r}, 1}, {{r}, 3}});
    ASSERT_EQ(rated.size(), 3u);
    EXPECT_EQ(rated[0].size(), 1u);
    EXPECT_EQ(rated[1].size(), 2u);
    EXPECT_EQ(rated[2].size(), 1u);
    EXPECT_EQ(rated[1][0], rated[1][1]) << SystemName(system);
  }
}

TEST(RateMatchBehaviour, AmongEqualPlayersBetterPlacesGainMore) {
  for (System system : kAllSystems) {
    const RatingConfig config = Config(system);
    const Rating r = InitialRating(config);
    const auto rated = Rate(config, {{{r}, 2}, {{r}, 1}, {{r}, 3}});
    EXPECT_GT(rated[1][0].mu, rated[0][0].mu) << SystemName(system);
    EXPECT_GT(rated[0][0].mu, rated[2][0].mu) << SystemName(system);
    EXPECT_GT(rated[1][0].mu, r.mu) << SystemName(system);
    EXPECT_LT(rated[2][0].mu, r.mu) << SystemName(system);
  }
}

TEST(RateMatchBehaviour, EqualPlayersWhoTieStayEqualAndDoNotMove) {
  for (System system : kAllSystems) {
    const RatingConfig config = Config(system);
    const Rating r = InitialRating(config);
    const auto rated = Rate(config, {{{r}, 1}, {{r}, 1}});
    EXPECT_EQ(rated[0][0], rated[1][0]) << SystemName(system);
    EXPECT_NEAR(rated[0][0].mu, r.mu, 1e-9) << SystemName(system);
  }
}

TEST(RateMatchBehaviour, TheOrderOfTeamsDoesNotMatterOnlyTheirRanks) {
  for (System system : kAllSystems) {
    const RatingConfig config = Config(system);
    const std::vector<Team> match = VariedMatch(config);
    const std::vector<Team> reversed(match.rbegin(), match.rend());
    const auto a = Rate(config, match);
    const auto b = Rate(config, reversed);
    for (std::size_t t = 0; t < match.size(); ++t) {
      for (std::size_t p = 0; p < match[t].players.size(); ++p) {
        EXPECT_NEAR(a[t][p].mu, b[match.size() - 1 - t][p].mu, 1e-12) << SystemName(system);
        EXPECT_NEAR(a[t][p].sigma, b[match.size() - 1 - t][p].sigma, 1e-12) << SystemName(system);
      }
    }
  }
}

TEST(OpenSkillTau, IsAddedToSigmaBeforeTheUpdate) {
  // With tau, a match starts from sigma' = sqrt(sigma^2 + tau^2): the same as
  // rating sigma' with tau 0.
  const RatingConfig with_tau = Config(System::kPlackettLuce, {{"tau", "0.5"}});
  const RatingConfig without = Config(System::kPlackettLuce, {{"tau", "0"}});
  const double widened = std::sqrt(4.0 * 4.0 + 0.5 * 0.5);
  const auto a = Rate(with_tau, {{{{25, 4, 0}}, 1}, {{{27, 4, 0}}, 2}});
  const auto b = Rate(without, {{{{25, widened, 0}}, 1}, {{{27, widened, 0}}, 2}});
  EXPECT_EQ(a, b);
}

TEST(OpenSkillTau, LimitSigmaKeepsSigmaFromGrowing) {
  // A huge tau makes sigma grow through a match unless limit_sigma is set.
  const std::vector<Team> match = {{{{25, 1, 0}}, 1}, {{{25, 1, 0}}, 2}};
  const auto grows = Rate(Config(System::kBradleyTerryFull, {{"tau", "3"}}), match);
  EXPECT_GT(grows[0][0].sigma, 1);
  const auto limited = Rate(Config(System::kBradleyTerryFull, {{"tau", "3"}, {"limit_sigma", "1"}}), match);
  EXPECT_EQ(limited[0][0].sigma, 1);
  EXPECT_EQ(limited[0][0].mu, grows[0][0].mu);
}

TEST(OpenSkillKappa, FloorsTheFactorThatShrinksTheVariance) {
  // Two very uncertain players: one match would shrink the variance by more
  // than kappa = 0.99 allows, so sigma shrinks by exactly sqrt(0.99).
  for (System system : {System::kPlackettLuce, System::kThurstoneMostellerFull, System::kBradleyTerryFull}) {
    const RatingConfig config = Config(system, {{"tau", "0"}, {"kappa", "0.99"}});
    const auto rated = Rate(config, {{{{25, 1000, 0}}, 1}, {{{25, 1000, 0}}, 2}});
    EXPECT_DOUBLE_EQ(rated[0][0].sigma, 1000 * std::sqrt(0.99)) << SystemName(system);
    EXPECT_DOUBLE_EQ(rated[1][0].sigma, 1000 * std::sqrt(0.99)) << SystemName(system);
    // With the default kappa the factor is not floored.
    const auto unfloored = Rate(Config(system, {{"tau", "0"}}), {{{{25, 1000, 0}}, 1}, {{{25, 1000, 0}}, 2}});
    EXPECT_LT(unfloored[0][0].sigma, 1000 * std::sqrt(0.99)) << SystemName(system);
  }
}

TEST(OpenSkillTeams, MembersShareTheTeamChangeByTheirVariance) {
  const RatingConfig config = Config(System::kPlackettLuce, {{"tau", "0"}});
  const auto rated = Rate(config, {{{{25, 2, 0}, {25, 4, 0}}, 1}, {{{25, 8, 0}}, 2}});
  const double gain_small = rated[0][0].mu - 25;
  const double gain_large = rated[0][1].mu - 25;
  EXPECT_NEAR(gain_large / gain_small, 4.0, 1e-12);  // sigma^2 ratio 16 / 4
}

TEST(Glicko2Teams, EachMemberPlaysEveryOtherTeamAsItsMeanRating) {
  const std::vector<Team> teams = {{{{1400, 100, 0.06}, {1600, 200, 0.05}}, 1}, {{{1700, 50, 0.07}}, 2}};
  const auto results = GlickoResults(teams);
  ASSERT_EQ(results.size(), 2u);
  ASSERT_EQ(results[0].size(), 2u);
  ASSERT_EQ(results[0][0].size(), 1u);
  EXPECT_EQ(results[0][0][0].score, 1);
  EXPECT_EQ(results[0][0][0].opponent, (Rating{1700, 50, 0.07}));
  EXPECT_EQ(results[1][0][0].score, 0);
  EXPECT_EQ(results[1][0][0].opponent.mu, 1500);
  EXPECT_DOUBLE_EQ(results[1][0][0].opponent.sigma, std::sqrt((100.0 * 100 + 200 * 200) / 2));
  EXPECT_DOUBLE_EQ(results[1][0][0].opponent.volatility, 0.055);
  // RateMatch rates a one-game period from those results.
  const RatingConfig config = Config(System::kGlicko2);
  const auto rated = Rate(config, teams);
  EXPECT_EQ(rated[1][0], Glicko2Period(config, teams[1].players[0], results[1][0]));
}

TEST(Glicko2Teams, ATieScoresAHalf) {
  const auto results = GlickoResults({{{{1500, 350, 0.06}}, 3}, {{{1500, 350, 0.06}}, 3}, {{{1500, 350, 0.06}}, 1}});
  EXPECT_EQ(results[0][0][0].score, 0.5);
  EXPECT_EQ(results[0][0][1].score, 0);
  EXPECT_EQ(results[2][0][0].score, 1);
}

TEST(EloTeams, EveryMemberMovesByTheChangeOfTheTeamMean) {
  const RatingConfig config = Config(System::kElo);
  const auto rated = Rate(config, {{{{1400, 0, 0}, {1600, 0, 0}}, 1}, {{{1500, 0, 0}}, 2}});
  EXPECT_DOUBLE_EQ(rated[0][0].mu, 1416);  // means equal: 32 * (1 - 0.5)
  EXPECT_DOUBLE_EQ(rated[0][1].mu, 1616);
  EXPECT_DOUBLE_EQ(rated[1][0].mu, 1484);
}

TEST(Cooperative, ATeamAgainstADifficultyIsATwoTeamMatch) {
  // docs/ratings.md: the difficulty level is a virtual opponent with its own rating.
  const RatingConfig config = Config(System::kPlackettLuce);
  const Rating r = InitialRating(config);
  const Rating hard{30, 3, 0};
  const auto won = Rate(config, {{{r, r, r}, 1}, {{hard}, 2}});
  EXPECT_GT(won[0][0].mu, r.mu);
  EXPECT_LT(won[1][0].mu, hard.mu);
}

}  // namespace
}  // namespace arbiter::engine::rating
