// Differential test: random multiplayer matches with teams and ties, rated by
// RateMatch and by the npm package openskill (openskill.js, the version pinned
// in tests/CMakeLists.txt) through openskill_oracle.js; every mu and sigma
// must agree to 1e-9, for each OpenSkill model, with default options and with
// every option changed.
//
// The package is installed into the build tree by the ctest fixture
// openskill_npm_install (install_openskill.sh). Without node, or without the
// package (no npm, registry unreachable), every test here is skipped with the
// reason, and ctest reports it as skipped.
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/rating/rating.h"
#include "gtest/gtest.h"

namespace arbiter::engine::rating {
namespace {

}  // namespace

// Test names and ctest listings show the system's name.
void PrintTo(System system, std::ostream* os) { *os << SystemName(system); }

namespace {

// SplitMix64 (Steele, Lea and Flood 2014): a fixed, portable sequence.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int Below(int n) { return static_cast<int>(Next() % static_cast<uint64_t>(n)); }
  double Between(double low, double high) {
    return low + (high - low) * static_cast<double>(Next() >> 11) * 0x1.0p-53;
  }

 private:
  uint64_t state_;
};

// 2-8 teams of 1-3 players, ranks drawn from 1..teams (so ties are common),
// ratings anywhere in a wide range.
std::vector<Team> RandomMatch(SplitMix64& rng) {
  const int team_count = 2 + rng.Below(7);
  std::vector<Team> teams(team_count);
  for (Team& team : teams) {
    const int size = 1 + rng.Below(3);
    for (int p = 0; p < size; ++p) team.players.push_back({rng.Between(0, 50), rng.Between(0.3, 12), 0});
    team.rank = 1 + rng.Below(team_count);
  }
  return teams;
}

std::string Json(double value) { return absl::StrFormat("%.17g", value); }

struct OracleRun {
  std::string skip_reason;  // non-empty: the oracle could not run
  std::string version;
  std::vector<std::pair<double, double>> ratings;  // every player of every match, in order
};

class OpenSkillOracleTest : public ::testing::TestWithParam<System> {
 protected:
  static std::string NpmPrefix() { return ARBITER_OPENSKILL_NPM_PREFIX; }

  // The reason to skip, or "" when node and the package are both there.
  static std::string Unavailable() {
    if (std::system("node --version > /dev/null 2>&1") != 0) {
      return "node is not installed: the npm openskill oracle cannot run";
    }
    const std::string package = NpmPrefix() + "/node_modules/openskill/package.json";
    if (!std::filesystem::exists(package)) {
      return absl::StrCat("npm package openskill@", ARBITER_OPENSKILL_VERSION, " is not installed in ",
                          NpmPrefix(), " (the ctest fixture openskill_npm_install could not install it; "
                          "see its output)");
    }
    return "";
  }

  // Runs openskill_oracle.js on `matches` with openskill.js `options` (a JSON object).
  OracleRun RunOracle(System system, const std::string& options, const std::vector<std::vector<Team>>& matches) {
    OracleRun run;
    std::string input = absl::StrCat("{\"model\":\"", std::string(SystemName(system)), "\",\"options\":", options,
                                     ",\"matches\":[");
    for (std::size_t m = 0; m < matches.size(); ++m) {
      absl::StrAppend(&input, m ? "," : "", "{\"teams\":[");
      std::string ranks;
      for (std::size_t t = 0; t < matches[m].size(); ++t) {
        absl::StrAppend(&input, t ? "," : "", "[");
        for (std::size_t p = 0; p < matches[m][t].players.size(); ++p) {
          const Rating& r = matches[m][t].players[p];
          absl::StrAppend(&input, p ? "," : "", "[", Json(r.mu), ",", Json(r.sigma), "]");
        }
        absl::StrAppend(&input, "]");
        absl::StrAppend(&ranks, t ? "," : "", matches[m][t].rank);
      }
      absl::StrAppend(&input, "],\"rank\":[", ranks, "]}");
    }
    absl::StrAppend(&input, "]}");

    const std::string dir = ::testing::TempDir();
    const std::string in_path = absl::StrCat(dir, "/openskill_oracle_", getpid(), ".json");
    const std::string out_path = absl::StrCat(dir, "/openskill_oracle_", getpid(), ".txt");
    std::ofstream(in_path) << input;
    const std::string command = absl::StrCat("node ", ARBITER_OPENSKILL_ORACLE_JS, " ", NpmPrefix(), " < ", in_path,
                                             " > ", out_path);
    const int status = std::system(command.c_str());
    std::ifstream out(out_path);
    std::string first_line;
    std::getline(out, first_line);
    if (status != 0 || first_line.rfind("openskill ", 0) != 0) {
      ADD_FAILURE() << "the oracle failed: " << command << " (exit status " << status << ")";
      return run;
    }
    run.version = first_line.substr(10);
    double mu = 0;
    double sigma = 0;
    while (out >> mu >> sigma) run.ratings.push_back({mu, sigma});
    std::filesystem::remove(in_path);
    std::filesystem::remove(out_path);
    return run;
  }

  // Rates `matches` both ways and compares every player.
  void ExpectAgreement(const RatingConfig& config, const std::string& options,
                       const std::vector<std::vector<Team>>& matches) {
    const OracleRun oracle = RunOracle(config.system, options, matches);
    ASSERT_EQ(oracle.version, ARBITER_OPENSKILL_VERSION);
    std::size_t k = 0;
    int compared = 0;
    double largest = 0;
    for (std::size_t m = 0; m < matches.size(); ++m) {
      const absl::StatusOr<std::vector<std::vector<Rating>>> rated = RateMatch(config, matches[m]);
      ASSERT_TRUE(rated.ok()) << rated.status();
      for (const std::vector<Rating>& team : *rated) {
        for (const Rating& player : team) {
          ASSERT_LT(k, oracle.ratings.size()) << "the oracle printed too few ratings";
          EXPECT_NEAR(player.mu, oracle.ratings[k].first, 1e-9) << "match " << m << ", player " << k;
          EXPECT_NEAR(player.sigma, oracle.ratings[k].second, 1e-9) << "match " << m << ", player " << k;
          largest = std::max({largest, std::fabs(player.mu - oracle.ratings[k].first),
                              std::fabs(player.sigma - oracle.ratings[k].second)});
          ++k;
          ++compared;
        }
      }
    }
    EXPECT_EQ(k, oracle.ratings.size()) << "the oracle printed too many ratings";
    std::printf("compared %d ratings of %zu matches with npm openskill@%s; largest difference %g\n", compared,
                matches.size(), oracle.version.c_str(), largest);
  }

  void SetUp() override {
    const std::string reason = Unavailable();
    if (!reason.empty()) GTEST_SKIP() << reason;
  }
};

TEST_P(OpenSkillOracleTest, RandomMatchesWithDefaultOptionsAgreeWithNpmOpenskill) {
  SplitMix64 rng(20261123 + static_cast<uint64_t>(GetParam()));
  std::vector<std::vector<Team>> matches;
  for (int i = 0; i < 400; ++i) matches.push_back(RandomMatch(rng));
  ExpectAgreement(*MakeConfig(GetParam(), {}), "{}", matches);
}

TEST_P(OpenSkillOracleTest, RandomMatchesWithEveryOptionChangedAgreeWithNpmOpenskill) {
  SplitMix64 rng(7 + static_cast<uint64_t>(GetParam()));
  std::vector<std::vector<Team>> matches;
  for (int i = 0; i < 400; ++i) matches.push_back(RandomMatch(rng));
  const absl::StatusOr<RatingConfig> config = MakeConfig(
      GetParam(),
      {{"beta", "3.5"}, {"kappa", "0.001"}, {"tau", "1.25"}, {"epsilon", "0.4"}, {"limit_sigma", "1"}});
  ASSERT_TRUE(config.ok()) << config.status();
  ExpectAgreement(*config, R"({"beta":3.5,"kappa":0.001,"tau":1.25,"epsilon":0.4,"limitSigma":true})", matches);
}

TEST_P(OpenSkillOracleTest, ALeagueOfRepeatedMatchesAgreesWithNpmOpenskill) {
  // Ratings carried from match to match (by RateMatch), from the defaults:
  // many players end with small sigmas, where kappa and the tails matter.
  const RatingConfig config = *MakeConfig(GetParam(), {});
  SplitMix64 rng(99);
  std::vector<Rating> pool(10, InitialRating(config));
  std::vector<std::vector<Team>> matches;
  for (int i = 0; i < 600; ++i) {
    const int team_count = 2 + rng.Below(4);
    std::vector<int> seats;
    std::vector<Team> teams(team_count);
    for (Team& team : teams) {
      const int size = 1 + rng.Below(2);
      for (int p = 0; p < size; ++p) {
        int who = rng.Below(static_cast<int>(pool.size()));
        while (std::find(seats.begin(), seats.end(), who) != seats.end()) who = (who + 1) % 10;
        seats.push_back(who);
        team.players.push_back(pool[who]);
      }
      team.rank = 1 + rng.Below(team_count);
    }
    matches.push_back(teams);
    const auto rated = RateMatch(config, teams);
    ASSERT_TRUE(rated.ok()) << rated.status();
    std::size_t seat = 0;
    for (const auto& team : *rated) {
      for (const Rating& player : team) pool[seats[seat++]] = player;
    }
  }
  ExpectAgreement(config, "{}", matches);
}

INSTANTIATE_TEST_SUITE_P(EveryModel, OpenSkillOracleTest,
                         ::testing::Values(System::kPlackettLuce, System::kThurstoneMostellerFull,
                                           System::kBradleyTerryFull),
                         [](const ::testing::TestParamInfo<System>& param_info) {
                           switch (param_info.param) {
                             case System::kPlackettLuce:
                               return std::string("PlackettLuce");
                             case System::kThurstoneMostellerFull:
                               return std::string("ThurstoneMostellerFull");
                             default:
                               return std::string("BradleyTerryFull");
                           }
                         });

}  // namespace
}  // namespace arbiter::engine::rating
