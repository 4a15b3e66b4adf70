// Tournament settings, table plans and the scoring schemes.
#include "engine/tournament/scoring.h"

#include <gtest/gtest.h>

#include "engine/tournament/table_plan.h"
#include "tests/engine/tournament/tournament_test_util.h"

namespace arbiter::engine::tournament {
namespace {

using testing::Played;
using testing::Settings;

TEST(TournamentSettings, AnUnknownTieBreakIsNamedWithTheKnownOnes) {
  absl::StatusOr<TieBreak> parsed = ParseTieBreak("elo");
  ASSERT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(parsed.status().message(),
            "tie_breaks: unknown criterion \"elo\"; known: game_points, wins, "
            "strength_of_schedule, head_to_head");
  EXPECT_EQ(*ParseTieBreak("strength_of_schedule"), TieBreak::kStrengthOfSchedule);
}

TEST(TournamentSettings, BadFieldsAreNamed) {
  TournamentSettings s = Settings({3, 4}, 5, 3);
  EXPECT_EQ(ValidateSettings(s).message(),
            "preferred_size: 5 is not one of the allowed table sizes (3, 4)");
  s = Settings({3, 4}, 4, 0);
  EXPECT_EQ(ValidateSettings(s).message(), "rounds: must be 1-100, not 0");
  s = Settings({3, 9}, 3, 3);
  EXPECT_EQ(ValidateSettings(s).message(), "table_sizes: each size must be 2-8, not 9");
  s = Settings({3, 4}, 4, 3);
  s.tie_breaks = {TieBreak::kWins, TieBreak::kWins};
  EXPECT_EQ(ValidateSettings(s).message(), "tie_breaks: wins is listed twice");
  EXPECT_EQ(ValidatePlayers({"ann", "bob", "ann"}).message(),
            "players: \"ann\" is registered twice");
  EXPECT_TRUE(ValidateSettings(Settings({3, 4, 5}, 4, 5)).ok());
}

TEST(TournamentPoints, FormatExactlyOrToThreeDecimals) {
  EXPECT_EQ(FormatPoints(3 * kPointUnit), "3");
  EXPECT_EQ(FormatPoints(3 * kPointUnit + kPointUnit / 2), "3.5");
  EXPECT_EQ(FormatPoints(7 * kPointUnit / 3), "2.333");
  EXPECT_EQ(FormatPoints(kPointUnit / 40), "0.025");
  EXPECT_EQ(FormatPoints(3 * kPointUnit + kPointUnit / 4), "3.25");
  EXPECT_EQ(FormatPoints(-kPointUnit / 2), "-0.5");
}

TEST(TablePlan, MixedSizesPreferThePreferredSizeThenSmallerTables) {
  const TournamentSettings s = Settings({3, 4, 5}, 4, 3);
  EXPECT_EQ(PlanTables(s, 10)->sizes, (std::vector<int>{4, 3, 3}));
  EXPECT_EQ(PlanTables(s, 13)->sizes, (std::vector<int>{5, 4, 4}));
  EXPECT_EQ(PlanTables(s, 16)->sizes, (std::vector<int>{4, 4, 4, 4}));
  EXPECT_EQ(PlanTables(s, 10)->byes, 0);
  const TournamentSettings threes = Settings({3, 4}, 3, 3);
  EXPECT_EQ(PlanTables(threes, 20)->sizes, (std::vector<int>{4, 4, 3, 3, 3, 3}));
}

TEST(TablePlan, ByesTakeTheRemainder) {
  const TournamentSettings s = Settings({3, 4, 5}, 4, 3, Leftover::kByes);
  EXPECT_EQ(PlanTables(s, 10)->sizes, (std::vector<int>{4, 4}));
  EXPECT_EQ(PlanTables(s, 10)->byes, 2);
}

TEST(TablePlan, CountsNoSizeCanFormSeatTheFewestOut) {
  const TournamentSettings s = Settings({4, 5}, 4, 3);
  EXPECT_EQ(PlanTables(s, 7)->sizes, (std::vector<int>{5}));
  EXPECT_EQ(PlanTables(s, 7)->byes, 2);
  EXPECT_EQ(PlanTables(s, 3).status().code(), absl::StatusCode::kFailedPrecondition);
}

Table TableOf(size_t seats, TableResult result) {
  Table t;
  t.number = 1;
  for (size_t i = 0; i < seats; ++i) t.players.push_back(std::string(1, static_cast<char>('a' + i)));
  t.result = std::move(result);
  return t;
}

TEST(TournamentScoring, SharedPlacesSplitTheirPoints) {
  const TournamentSettings s = Settings({4}, 4, 3);
  const auto points = *ScoreTable(s, TableOf(4, Played({1, 2, 2, 4}, {9, 5, 5, 1})));
  EXPECT_EQ(points, (std::vector<Points>{4 * kPointUnit, 3 * kPointUnit / 2,
                                         3 * kPointUnit / 2, 0}));
  const auto three_way = *ScoreTable(s, TableOf(4, Played({1, 1, 1, 4}, {5, 5, 5, 0})));
  EXPECT_EQ(three_way[0], 7 * kPointUnit / 3);
  EXPECT_EQ(FormatPoints(three_way[0]), "2.333");
}

TEST(TournamentScoring, TableShareIsProportionalToGamePoints) {
  TournamentSettings s = Settings({3}, 3, 3);
  s.scoring = Scoring::kTableShare;
  s.share_points = 100;
  EXPECT_EQ(*ScoreTable(s, TableOf(3, Played({1, 2, 3}, {30, 10, 0}))),
            (std::vector<Points>{75 * kPointUnit, 25 * kPointUnit, 0}));
  EXPECT_EQ(*ScoreTable(s, TableOf(3, Played({1, 1, 1}, {0, 0, 0}))),
            (std::vector<Points>(3, 100 * kPointUnit / 3)));
}

TEST(TournamentScoring, CooperativeGamesScoreTheTeamResult) {
  const TournamentSettings s = Settings({3}, 3, 3);
  TableResult won;
  won.kind = TableResult::Kind::kPlayed;
  won.cooperative = true;
  won.team_won = true;
  won.game_points = {12, 12, 12};
  EXPECT_EQ(*ScoreTable(s, TableOf(3, won)), (std::vector<Points>(3, 4 * kPointUnit)));
  EXPECT_TRUE(IsWin(won, 2));
  TableResult lost = won;
  lost.team_won = false;
  EXPECT_EQ(*ScoreTable(s, TableOf(3, lost)), (std::vector<Points>(3, 0)));
}

TEST(TournamentScoring, AResultThatDoesNotFitTheTableIsRefused) {
  const TournamentSettings s = Settings({3}, 3, 3);
  EXPECT_EQ(ScoreTable(s, TableOf(3, Played({1, 2}, {1, 2}))).status().message(),
            "the result has game points for 2 seats; the table has 3");
  EXPECT_EQ(ScoreTable(s, TableOf(3, Played({1, 2, 7}, {1, 2, 3}))).status().message(),
            "place 7 is outside 1-3 for this table");
}

}  // namespace
}  // namespace arbiter::engine::tournament
