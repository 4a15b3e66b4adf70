// Reported results in the model (a score sheet with no-shows and forfeits):
// the points each seat scores, what the standings say for those rounds, who
// met whom, and the sheets the model refuses.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/tournament/scoring.h"
#include "engine/tournament/standings.h"
#include "tests/engine/tournament/tournament_test_util.h"

namespace arbiter::engine::tournament {
namespace {

using testing::Played;
using testing::Settings;

constexpr SeatOutcome kPlayedSeat = SeatOutcome::kPlayed;
constexpr SeatOutcome kNoShow = SeatOutcome::kNoShow;
constexpr SeatOutcome kForfeit = SeatOutcome::kForfeit;

// A reported result of ann, bob, cy, dee (seat order) with `outcomes`.
Table Reported(std::vector<int> places, std::vector<int64_t> game_points,
               std::vector<SeatOutcome> outcomes) {
  Table table;
  table.number = 1;
  table.players = {"ann", "bob", "cy", "dee"};
  table.result = Played(std::move(places), std::move(game_points));
  table.result.reported = true;
  table.result.outcomes = std::move(outcomes);
  return table;
}

TournamentSettings WithAbsentPoints() {
  TournamentSettings s = Settings({4}, 4, 2);
  s.no_show_points = 1;
  s.forfeit_points = 3;
  return s;
}

const StandingRow& Row(const std::vector<StandingRow>& rows, const std::string& player) {
  for (const StandingRow& row : rows) {
    if (row.player == player) return row;
  }
  ADD_FAILURE() << "no row for " << player;
  return rows.front();
}

TEST(ReportedResult, TheSeatsThatPlayedArePlacedAmongThemselvesAndTheOthersScoreTheSettings) {
  const Table table =
      Reported({2, 1, 0, 3}, {30, 45, 0, 10}, {kPlayedSeat, kPlayedSeat, kNoShow, kPlayedSeat});
  absl::StatusOr<std::vector<Points>> points = ScoreTable(WithAbsentPoints(), table);
  ASSERT_TRUE(points.ok()) << points.status();
  // Places 1-3 among the three who played score 4, 2, 1; the no-show 1.
  EXPECT_EQ(*points, (std::vector<Points>{2 * kPointUnit, 4 * kPointUnit, 1 * kPointUnit,
                                          1 * kPointUnit}));
  EXPECT_TRUE(IsWin(table.result, 1));
  EXPECT_FALSE(IsWin(table.result, 2));

  const Table forfeit =
      Reported({1, 0, 2, 3}, {40, 0, 20, 5}, {kPlayedSeat, kForfeit, kPlayedSeat, kPlayedSeat});
  points = ScoreTable(WithAbsentPoints(), forfeit);
  ASSERT_TRUE(points.ok()) << points.status();
  EXPECT_EQ((*points)[1], 3 * kPointUnit);
}

TEST(ReportedResult, TableShareIsSharedAmongTheSeatsThatPlayed) {
  TournamentSettings s = WithAbsentPoints();
  s.scoring = Scoring::kTableShare;
  s.share_points = 90;
  const Table table =
      Reported({1, 2, 0, 0}, {0, 0, 0, 0}, {kPlayedSeat, kPlayedSeat, kNoShow, kNoShow});
  absl::StatusOr<std::vector<Points>> points = ScoreTable(s, table);
  ASSERT_TRUE(points.ok()) << points.status();
  // No game points at all: the two who played split 90; the no-shows 1 each.
  EXPECT_EQ(*points, (std::vector<Points>{45 * kPointUnit, 45 * kPointUnit, kPointUnit,
                                          kPointUnit}));
}

TEST(ReportedResult, SheetsThatDoNotFitTheTableAreRefused) {
  const TournamentSettings s = WithAbsentPoints();
  struct Case {
    Table table;
    std::string message;
  };
  const std::vector<Case> cases = {
      {Reported({1, 2, 0, 4}, {0, 0, 0, 0}, {kPlayedSeat, kPlayedSeat, kNoShow, kPlayedSeat}),
       "place 4 is outside 1-3 for this table"},
      {Reported({1, 2, 0, 3}, {5, 4, 7, 3}, {kPlayedSeat, kPlayedSeat, kNoShow, kPlayedSeat}),
       "seat 3 did not play, so its game points must be 0"},
      {Reported({1, 2, 2, 3}, {0, 0, 0, 0}, {kPlayedSeat, kPlayedSeat, kForfeit, kPlayedSeat}),
       "seat 3 did not play, so it has no place (0)"},
      {Reported({1, 2, 3, 4}, {0, 0, 0, 0}, {kPlayedSeat, kNoShow}),
       "the result has outcomes for 2 seats; the table has 4"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<std::vector<Points>> points = ScoreTable(s, c.table);
    EXPECT_EQ(points.status().code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_EQ(points.status().message(), c.message);
  }
}

TEST(ReportedResult, StandingsNameTheNoShowAndTheForfeitAndCountWhoMet) {
  const TournamentSettings s = WithAbsentPoints();
  const std::vector<std::string> players = {"ann", "bob", "cy", "dee"};
  Round round;
  round.number = 1;
  // cy did not come; dee forfeited; ann beat bob.
  round.tables.push_back(
      Reported({1, 2, 0, 0}, {40, 30, 0, 0}, {kPlayedSeat, kPlayedSeat, kNoShow, kForfeit}));
  absl::StatusOr<std::vector<StandingRow>> rows = ComputeStandings(s, players, {round});
  ASSERT_TRUE(rows.ok()) << rows.status();

  const StandingRow& ann = Row(*rows, "ann");
  EXPECT_EQ(ann.points, 4 * kPointUnit);
  EXPECT_EQ(ann.rounds[0].kind, RoundEntry::Kind::kPlayed);
  EXPECT_TRUE(ann.rounds[0].reported);
  EXPECT_EQ(ann.wins, 1);
  // ann met bob and the forfeiting dee, not the no-show cy.
  EXPECT_EQ(ann.opponents_met, 2);

  const StandingRow& cy = Row(*rows, "cy");
  EXPECT_EQ(cy.rounds[0].kind, RoundEntry::Kind::kNoShow);
  EXPECT_EQ(cy.points, 1 * kPointUnit);
  EXPECT_EQ(cy.rounds[0].place, 0);
  EXPECT_EQ(cy.opponents_met, 0);
  EXPECT_EQ(cy.wins, 0);

  const StandingRow& dee = Row(*rows, "dee");
  EXPECT_EQ(dee.rounds[0].kind, RoundEntry::Kind::kForfeit);
  EXPECT_EQ(dee.points, 3 * kPointUnit);
  EXPECT_EQ(dee.opponents_met, 2);
  EXPECT_EQ(dee.game_points, 0);
}

TEST(ReportedResult, AForfeitLosesHeadToHeadToEverySeatThatPlayed) {
  TournamentSettings s = Settings({2}, 2, 1);
  s.tie_breaks = {TieBreak::kHeadToHead};
  s.forfeit_points = 4;  // as much as a win: only head_to_head separates them
  Round round;
  round.number = 1;
  Table table;
  table.number = 1;
  table.players = {"ann", "bob"};
  table.result = Played({0, 1}, {0, 0});
  table.result.reported = true;
  table.result.outcomes = {kForfeit, kPlayedSeat};
  round.tables.push_back(table);
  absl::StatusOr<std::vector<StandingRow>> rows = ComputeStandings(s, {"ann", "bob"}, {round});
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ((*rows)[0].player, "bob");
  EXPECT_EQ((*rows)[0].decided_by, "head_to_head");
  EXPECT_EQ((*rows)[0].head_to_head, 1);
  EXPECT_EQ((*rows)[1].head_to_head, -1);
}

TEST(ReportedResult, NoShowAndForfeitPointsAreCheckedWithTheSettings) {
  TournamentSettings s = WithAbsentPoints();
  s.no_show_points = -1;
  EXPECT_EQ(ValidateSettings(s).message(), "no_show_points: must be 0-1073741824, not -1");
  s.no_show_points = 0;
  s.forfeit_points = int64_t{1} << 31;
  EXPECT_EQ(ValidateSettings(s).message(), "forfeit_points: must be 0-1073741824, not 2147483648");
  s.forfeit_points = 0;
  EXPECT_TRUE(ValidateSettings(s).ok());
}

}  // namespace
}  // namespace arbiter::engine::tournament
