// Published reference values: Glickman's worked example of Glicko-2,
// openskill.js's documented results, and hand-computed Elo games.
#include <cmath>

#include "engine/rating/rating.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arbiter::engine::rating {
namespace {

RatingConfig Config(System system) {
  absl::StatusOr<RatingConfig> config = MakeConfig(system, {});
  EXPECT_TRUE(config.ok()) << config.status();
  return *config;
}

std::vector<std::vector<Rating>> Rate(const RatingConfig& config, const std::vector<Team>& teams) {
  absl::StatusOr<std::vector<std::vector<Rating>>> rated = RateMatch(config, teams);
  EXPECT_TRUE(rated.ok()) << rated.status();
  return rated.ok() ? *rated : std::vector<std::vector<Rating>>{};
}

TEST(Glicko2Reference, GlickmansWorkedExampleGives1464And151AndUnchangedVolatility) {
  const RatingConfig config = Config(System::kGlicko2);  // tau 0.5
  const Rating player{1500, 200, 0.06};
  const Rating updated = Glicko2Period(config, player,
                                       {{{1400, 30, 0.06}, 1}, {{1550, 100, 0.06}, 0}, {{1700, 300, 0.06}, 0}});
  // The paper rounds its intermediate values; to within that rounding:
  EXPECT_NEAR(updated.mu, 1464.06, 0.01);
  EXPECT_NEAR(updated.sigma, 151.52, 0.01);
  EXPECT_NEAR(updated.volatility, 0.05999, 0.00001);
  // Without rounding (as other careful implementations also find):
  EXPECT_NEAR(updated.mu, 1464.0506705393013, 1e-9);
  EXPECT_NEAR(updated.sigma, 151.51652412385727, 1e-9);
  EXPECT_NEAR(updated.volatility, 0.059995984286488495, 1e-15);
}

TEST(Glicko2Reference, APeriodWithoutGamesOnlyWidensTheDeviation) {
  const RatingConfig config = Config(System::kGlicko2);
  const Rating updated = Glicko2Period(config, {1500, 200, 0.06}, {});
  EXPECT_EQ(updated.mu, 1500);
  EXPECT_EQ(updated.volatility, 0.06);
  const double phi = 200 / 173.7178;
  EXPECT_DOUBLE_EQ(updated.sigma, 173.7178 * std::sqrt(phi * phi + 0.06 * 0.06));
}

TEST(OpenSkillReference, OneOnOneFromDefaultRatingsMatchesOpenskillJs) {
  const RatingConfig config = Config(System::kPlackettLuce);
  const Rating initial = InitialRating(config);
  const auto rated = Rate(config, {{{initial}, 1}, {{initial}, 2}});
  EXPECT_NEAR(rated[0][0].mu, 27.635389493140497, 1e-12);
  EXPECT_NEAR(rated[0][0].sigma, 8.06590141354368, 1e-12);
  EXPECT_NEAR(rated[1][0].mu, 22.364610506859503, 1e-12);
  EXPECT_NEAR(rated[1][0].sigma, 8.06590141354368, 1e-12);
}

// The README of openskill.js prints its examples rounded (and from an older
// version without tau); the pinned values are what npm openskill@5.0.1 gives
// with its defaults, and agree with the README to its rounding.
void ExpectRatings(const std::vector<std::vector<Rating>>& rated,
                   const std::vector<std::vector<std::pair<double, double>>>& expected, double tolerance) {
  ASSERT_EQ(rated.size(), expected.size());
  for (std::size_t t = 0; t < expected.size(); ++t) {
    ASSERT_EQ(rated[t].size(), expected[t].size());
    for (std::size_t p = 0; p < expected[t].size(); ++p) {
      EXPECT_NEAR(rated[t][p].mu, expected[t][p].first, tolerance) << "team " << t << " player " << p;
      EXPECT_NEAR(rated[t][p].sigma, expected[t][p].second, tolerance) << "team " << t << " player " << p;
    }
  }
}

TEST(OpenSkillReference, TwoAgainstTwoFromTheReadmeMatches) {
  const RatingConfig config = Config(System::kPlackettLuce);
  const Rating a1 = InitialRating(config);
  const auto rated = Rate(config, {{{a1, {32.444, 5.123, 0}}, 1}, {{{43.381, 2.421, 0}, {25.188, 6.211, 0}}, 2}});
  ExpectRatings(rated, {{{28.67, 8.07}, {33.83, 5.06}}, {{43.07, 2.42}, {23.15, 6.14}}}, 0.01);
  ExpectRatings(rated,
                {{{28.66965004054765, 8.0719347727684}, {33.83109857241283, 5.063435158133771}},
                 {{43.07093871398889, 2.4181164038116054}, {23.149339322397246, 6.1384039696376735}}},
                1e-12);
}

TEST(OpenSkillReference, FourPlayersWithRanksOutOfOrderMatchTheReadme) {
  const RatingConfig config = Config(System::kPlackettLuce);
  const Rating r = InitialRating(config);
  const auto rated = Rate(config, {{{r}, 4}, {{r}, 1}, {{r}, 3}, {{r}, 2}});
  ExpectRatings(rated, {{{20.963, 8.084}}, {{27.795, 8.263}}, {{24.689, 8.084}}, {{26.553, 8.179}}}, 0.001);
  ExpectRatings(rated,
                {{{20.962412806387245, 8.084127880168786}},
                 {{27.795252672501135, 8.263571791259416}},
                 {{24.689416369722096, 8.084127880168786}},
                 {{26.55291815138952, 8.17961798837266}}},
                1e-12);
}

TEST(OpenSkillReference, FourPlayersWithATieMatchTheReadme) {
  // README: score [37, 19, 37, 42], i.e. places 2, 4, 2, 1.
  const RatingConfig config = Config(System::kPlackettLuce);
  const Rating r = InitialRating(config);
  const auto rated = Rate(config, {{{r}, 2}, {{r}, 4}, {{r}, 2}, {{r}, 1}});
  ExpectRatings(rated, {{{24.689, 8.179}}, {{22.826, 8.179}}, {{24.689, 8.179}}, {{27.795, 8.263}}}, 0.001);
  // Tied players end equal.
  EXPECT_EQ(rated[0][0], rated[2][0]);
}

// The model tests of openskill.js 5.0.1 (src/models/__tests__/*.test.ts) call
// each model directly, without rate()'s tau step: here that is tau = 0, with
// teams placed in the order given.
std::vector<std::vector<Rating>> RateModelTest(System system, const std::vector<int>& team_sizes) {
  const RatingConfig config = Config(system);
  const RatingConfig no_tau = *MakeConfig(system, {{"tau", "0"}});
  std::vector<Team> teams;
  for (std::size_t t = 0; t < team_sizes.size(); ++t) {
    teams.push_back({std::vector<Rating>(team_sizes[t], InitialRating(config)), static_cast<int>(t) + 1});
  }
  return Rate(no_tau, teams);
}

TEST(OpenSkillReference, FourPlayerFreeForAllsMatchOpenskillJsModelTests) {
  ExpectRatings(RateModelTest(System::kPlackettLuce, {1, 1, 1, 1}),
                {{{27.795084971874736, 8.263160757613477}},
                 {{26.552824984374855, 8.179213704945203}},
                 {{24.68943500312503, 8.083731307186588}},
                 {{20.96265504062538, 8.083731307186588}}},
                1e-12);
  ExpectRatings(RateModelTest(System::kThurstoneMostellerFull, {1, 1, 1, 1}),
                {{{37.69215612697965, 5.983694941648218}},
                 {{29.230718708993216, 5.983694941648218}},
                 {{20.769281291006784, 5.983694941648218}},
                 {{12.307843873020353, 5.983694941648218}}},
                1e-10);
  ExpectRatings(RateModelTest(System::kBradleyTerryFull, {1, 1, 1, 1}),
                {{{32.90569415042095, 7.5012190693964005}},
                 {{27.63523138347365, 7.5012190693964005}},
                 {{22.36476861652635, 7.5012190693964005}},
                 {{17.09430584957905, 7.5012190693964005}}},
                1e-12);
}

TEST(OpenSkillReference, TeamsOfThreeOneAndTwoMatchOpenskillJsModelTests) {
  using P = std::pair<double, double>;
  auto expected = [](P a, P b, P c) {
    return std::vector<std::vector<P>>{{a, a, a}, {b}, {c, c}};
  };
  ExpectRatings(RateModelTest(System::kPlackettLuce, {3, 1, 2}),
                expected({25.939870821784513, 8.247641552260456}, {27.21366020491262, 8.274321317985242},
                         {21.84646897330287, 8.213058173195341}),
                1e-12);
  ExpectRatings(RateModelTest(System::kThurstoneMostellerFull, {3, 1, 2}),
                expected({25.729796801442728, 8.153169236399172}, {34.02513843037207, 7.757460494129447},
                         {15.245064768185204, 7.372121080126496}),
                1e-10);
  ExpectRatings(RateModelTest(System::kBradleyTerryFull, {3, 1, 2}),
                expected({25.992743915179297, 8.19709997489984}, {28.48909130001799, 8.220848339985736},
                         {20.518164784802714, 8.127515465304823}),
                1e-12);
}

TEST(OpenSkillReference, OrdinalIsMuMinusThreeSigma) {
  const RatingConfig config = Config(System::kPlackettLuce);
  EXPECT_NEAR(DisplayRating(config, {43.07, 2.42, 0}), 35.81, 1e-12);
  EXPECT_DOUBLE_EQ(DisplayRating(config, InitialRating(config)), 0);
}

TEST(EloReference, TwoPlayersFollowElosFormula) {
  const RatingConfig config = Config(System::kElo);
  const auto rated = Rate(config, {{{{1500, 0, 0}}, 1}, {{{1400, 0, 0}}, 2}});
  // E = 1 / (1 + 10^(-100/400)) = 0.64006499980...; 32 * (1 - E) = 11.5179200...
  EXPECT_NEAR(rated[0][0].mu, 1511.5179200, 1e-6);
  EXPECT_NEAR(rated[1][0].mu, 1388.4820800, 1e-6);
}

TEST(EloReference, ThreeEqualPlayersMoveBySixteenPerPlace) {
  const RatingConfig config = Config(System::kElo);
  const Rating r = InitialRating(config);
  const auto rated = Rate(config, {{{r}, 1}, {{r}, 2}, {{r}, 3}});
  // K/(n-1) = 16 per pair, every expectation 0.5.
  EXPECT_DOUBLE_EQ(rated[0][0].mu, 1516);
  EXPECT_DOUBLE_EQ(rated[1][0].mu, 1500);
  EXPECT_DOUBLE_EQ(rated[2][0].mu, 1484);
}

TEST(EloReference, ThreePlayersWithATieForFirst) {
  const RatingConfig config = Config(System::kElo);
  const auto rated = Rate(config, {{{{1600, 0, 0}}, 1}, {{{1500, 0, 0}}, 1}, {{{1400, 0, 0}}, 2}});
  const auto e = [](double a, double b) { return 1 / (1 + std::pow(10.0, (b - a) / 400)); };
  EXPECT_NEAR(rated[0][0].mu, 1600 + 16 * ((0.5 - e(1600, 1500)) + (1 - e(1600, 1400))), 1e-9);
  EXPECT_NEAR(rated[1][0].mu, 1500 + 16 * ((0.5 - e(1500, 1600)) + (1 - e(1500, 1400))), 1e-9);
  EXPECT_NEAR(rated[2][0].mu, 1400 + 16 * ((0 - e(1400, 1600)) + (0 - e(1400, 1500))), 1e-9);
  // 1600 vs 1400: E = 0.7597469...; hand-computed total for the winner.
  EXPECT_NEAR(rated[0][0].mu, 1600 + 16 * ((0.5 - 0.6400649998) + (1 - 0.7597469266)), 1e-6);
}

}  // namespace
}  // namespace arbiter::engine::rating
