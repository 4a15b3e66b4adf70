// System names, configs from NAME=VALUE pairs (every range check), the
// canonical text, and the per-player rules (initial, display, provisional).
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/rating/rating.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arbiter::engine::rating {
namespace {

using ::testing::HasSubstr;

constexpr System kAllSystems[] = {System::kPlackettLuce, System::kThurstoneMostellerFull,
                                  System::kBradleyTerryFull, System::kGlicko2, System::kElo};

absl::Status ConfigError(System system, const std::string& name, const std::string& value) {
  return MakeConfig(system, {{name, value}}).status();
}

TEST(SystemNames, EveryNameParsesBackToItsSystem) {
  for (System system : kAllSystems) {
    const absl::StatusOr<System> parsed = ParseSystem(SystemName(system));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, system);
  }
  EXPECT_EQ(SystemName(System::kPlackettLuce), "plackett-luce");
  EXPECT_EQ(SystemName(System::kThurstoneMostellerFull), "thurstone-mosteller-full");
  EXPECT_EQ(SystemName(System::kBradleyTerryFull), "bradley-terry-full");
  EXPECT_EQ(SystemName(System::kGlicko2), "glicko2");
  EXPECT_EQ(SystemName(System::kElo), "elo");
}

TEST(SystemNames, AnUnknownNameIsInvalidAndListsTheValidOnes) {
  const absl::StatusOr<System> parsed = ParseSystem("trueskill");
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(parsed.status().message(), HasSubstr("\"trueskill\""));
  EXPECT_THAT(parsed.status().message(), HasSubstr("plackett-luce, thurstone-mosteller-full"));
  EXPECT_EQ(ParseSystem("").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseSystem("Glicko2").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(MakeConfig, DefaultsAreThePublishedOnes) {
  const RatingConfig os = *MakeConfig(System::kPlackettLuce, {});
  EXPECT_EQ(os.openskill.mu, 25);
  EXPECT_EQ(os.openskill.sigma, 25.0 / 3);
  EXPECT_EQ(os.openskill.beta, 25.0 / 6);
  EXPECT_EQ(os.openskill.kappa, 0.0001);
  EXPECT_EQ(os.openskill.tau, 25.0 / 300);
  EXPECT_EQ(os.openskill.z, 3);
  const RatingConfig glicko = *MakeConfig(System::kGlicko2, {});
  EXPECT_EQ(glicko.system, System::kGlicko2);
  EXPECT_EQ(InitialRating(glicko), (Rating{1500, 350, 0.06}));
  EXPECT_EQ(glicko.glicko2.tau, 0.5);
  EXPECT_EQ(glicko.glicko2.epsilon, 1e-6);
  const RatingConfig elo = *MakeConfig(System::kElo, {});
  EXPECT_EQ(InitialRating(elo), (Rating{1500, 0, 0}));
  EXPECT_EQ(elo.elo.k, 32);
}

TEST(MakeConfig, ValuesGivenReplaceTheDefaults) {
  const absl::StatusOr<RatingConfig> config =
      MakeConfig(System::kThurstoneMostellerFull,
                 {{"mu", "1000"}, {"sigma", "333.5"}, {"tau", "0"}, {"limit_sigma", "true"}, {"provisional_games", "3"}});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->openskill.mu, 1000);
  EXPECT_EQ(config->openskill.sigma, 333.5);
  EXPECT_EQ(config->openskill.tau, 0);
  EXPECT_TRUE(config->openskill.limit_sigma);
  EXPECT_EQ(config->provisional_games, 3);
  EXPECT_EQ(InitialRating(*config), (Rating{1000, 333.5, 0}));
}

struct BadParameter {
  System system;
  std::string name;
  std::string value;
  std::string says;  // part of the message
};

TEST(MakeConfig, EveryOutOfRangeValueIsInvalidAndNamesParameterValueAndRange) {
  const BadParameter cases[] = {
      {System::kPlackettLuce, "sigma", "0", "must be > 0"},
      {System::kPlackettLuce, "sigma", "-1", "must be > 0"},
      {System::kPlackettLuce, "beta", "0", "must be > 0"},
      {System::kPlackettLuce, "kappa", "0", "must be in (0, 1]"},
      {System::kPlackettLuce, "kappa", "1.5", "must be in (0, 1]"},
      {System::kBradleyTerryFull, "tau", "-0.1", "must be >= 0"},
      {System::kThurstoneMostellerFull, "epsilon", "-1", "must be >= 0"},
      {System::kPlackettLuce, "z", "-3", "must be >= 0"},
      {System::kPlackettLuce, "limit_sigma", "2", "must be 0 or 1"},
      {System::kPlackettLuce, "provisional_sigma", "-1", "must be >= 0"},
      {System::kPlackettLuce, "mu", "inf", "must be any finite number"},
      {System::kPlackettLuce, "mu", "nan", "must be any finite number"},
      {System::kPlackettLuce, "mu", "1e999", "must be any finite number"},
      {System::kGlicko2, "rd", "0", "must be > 0"},
      {System::kGlicko2, "volatility", "-0.06", "must be > 0"},
      {System::kGlicko2, "tau", "0", "must be > 0"},
      {System::kGlicko2, "tau", "-0.5", "must be > 0"},
      {System::kGlicko2, "epsilon", "0", "must be > 0"},
      {System::kGlicko2, "provisional_sigma", "-5", "must be >= 0"},
      {System::kElo, "k", "0", "must be > 0"},
      {System::kElo, "k", "-32", "must be > 0"},
      {System::kElo, "provisional_games", "-1", "a whole number >= 0"},
      {System::kElo, "provisional_games", "2.5", "a whole number >= 0"},
  };
  for (const BadParameter& c : cases) {
    const absl::Status status = ConfigError(c.system, c.name, c.value);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.name << "=" << c.value;
    EXPECT_THAT(status.message(), HasSubstr(c.name + "=" + c.value)) << status;
    EXPECT_THAT(status.message(), HasSubstr(c.says)) << status;
  }
}

TEST(MakeConfig, UnparsableNumbersAreInvalidAndNamed) {
  for (const std::string value : {"", "abc", "1.5x", " 1", "0x10", "+1", "1,5"}) {
    const absl::Status status = ConfigError(System::kElo, "k", value);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << "'" << value << "'";
    EXPECT_THAT(status.message(), HasSubstr("k=" + value + " of elo is not a number")) << status;
  }
}

TEST(MakeConfig, UnknownAndOtherSystemsParametersAreInvalid) {
  absl::Status status = ConfigError(System::kElo, "sigma", "3");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("unknown rating parameter \"sigma\" for elo"));
  EXPECT_THAT(status.message(), HasSubstr("rating, k, provisional_games"));
  status = ConfigError(System::kPlackettLuce, "rd", "3");
  EXPECT_THAT(status.message(), HasSubstr("unknown rating parameter \"rd\" for plackett-luce"));
}

TEST(MakeConfig, AParameterGivenTwiceIsInvalid) {
  const absl::Status status = MakeConfig(System::kElo, {{"k", "16"}, {"k", "24"}}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("k is given twice"));
}

TEST(Parameters, ListEveryParameterWithItsDefaultOnce) {
  for (System system : kAllSystems) {
    const std::vector<ParameterInfo> params = Parameters(system);
    ASSERT_FALSE(params.empty());
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const ParameterInfo& p : params) {
      EXPECT_FALSE(p.meaning.empty()) << p.name;
      pairs.push_back({p.name, absl::StrCat(p.default_value)});
    }
    EXPECT_TRUE(MakeConfig(system, pairs).ok()) << SystemName(system);
  }
  EXPECT_EQ(Parameters(System::kElo).size(), 3u);
  EXPECT_EQ(Parameters(System::kElo)[1].name, "k");
  EXPECT_EQ(Parameters(System::kElo)[1].default_value, 32);
}

TEST(CanonicalText, ListsEveryParameterInFixedOrderWithExactValues) {
  EXPECT_EQ(CanonicalText(*MakeConfig(System::kPlackettLuce, {})),
            "system=plackett-luce,mu=25,sigma=8.333333333333334,beta=4.166666666666667,kappa=1e-04,"
            "tau=0.08333333333333333,epsilon=0.1,z=3,limit_sigma=0,provisional_sigma=4.166666666666667,"
            "provisional_games=5");
  EXPECT_EQ(CanonicalText(*MakeConfig(System::kGlicko2, {})),
            "system=glicko2,rating=1500,rd=350,volatility=0.06,tau=0.5,epsilon=1e-06,provisional_sigma=110,"
            "provisional_games=5");
  EXPECT_EQ(CanonicalText(*MakeConfig(System::kElo, {{"k", "16"}})),
            "system=elo,rating=1500,k=16,provisional_games=5");
}

TEST(CanonicalText, ReadsBackIntoTheSameConfigAndTheSameText) {
  for (System system : kAllSystems) {
    const RatingConfig config = *MakeConfig(system, {{"provisional_games", "7"}});
    const std::string text = CanonicalText(config);
    std::vector<std::pair<std::string, std::string>> pairs;
    std::size_t start = text.find(',') + 1;
    while (start < text.size() + 1) {
      std::size_t end = text.find(',', start);
      if (end == std::string::npos) end = text.size();
      const std::string pair = text.substr(start, end - start);
      pairs.push_back({pair.substr(0, pair.find('=')), pair.substr(pair.find('=') + 1)});
      start = end + 1;
    }
    const absl::StatusOr<RatingConfig> back = MakeConfig(system, pairs);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(CanonicalText(*back), text);
  }
  // Different values, different text; a value is written to the last bit.
  EXPECT_NE(CanonicalText(*MakeConfig(System::kElo, {{"k", "0.30000000000000004"}})),
            CanonicalText(*MakeConfig(System::kElo, {{"k", "0.3"}})));
}

TEST(DisplayRating, IsTheOrdinalForOpenSkillAndTheRatingOtherwise) {
  const RatingConfig os = *MakeConfig(System::kBradleyTerryFull, {{"z", "2"}});
  EXPECT_EQ(DisplayRating(os, {30, 4, 0}), 22);
  EXPECT_EQ(DisplayRating(*MakeConfig(System::kGlicko2, {}), {1620, 80, 0.06}), 1620);
  EXPECT_EQ(DisplayRating(*MakeConfig(System::kElo, {}), {1432, 0, 0}), 1432);
}

TEST(IsProvisional, UntilEnoughGamesAndASmallEnoughDeviation) {
  const RatingConfig os = *MakeConfig(System::kPlackettLuce, {});
  EXPECT_TRUE(IsProvisional(os, {25, 3, 0}, 4));       // too few games
  EXPECT_TRUE(IsProvisional(os, {25, 4.2, 0}, 50));    // sigma above 25/6
  EXPECT_FALSE(IsProvisional(os, {25, 4.1, 0}, 5));
  const RatingConfig glicko = *MakeConfig(System::kGlicko2, {});
  EXPECT_TRUE(IsProvisional(glicko, {1500, 111, 0.06}, 20));
  EXPECT_FALSE(IsProvisional(glicko, {1500, 110, 0.06}, 20));
  const RatingConfig elo = *MakeConfig(System::kElo, {{"provisional_games", "10"}});
  EXPECT_TRUE(IsProvisional(elo, {1500, 0, 0}, 9));
  EXPECT_FALSE(IsProvisional(elo, {1500, 0, 0}, 10));
}

}  // namespace
}  // namespace arbiter::engine::rating
