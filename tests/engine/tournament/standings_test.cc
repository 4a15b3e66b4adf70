// Standings: every row explained, the published tie-break order applied
// exactly, the lot, void and pending tables.
#include "engine/tournament/standings.h"

#include <gtest/gtest.h>

#include "tests/engine/tournament/tournament_test_util.h"

namespace arbiter::engine::tournament {
namespace {

using testing::Played;
using testing::Settings;

Table At(int number, std::vector<std::string> players, TableResult result) {
  Table t;
  t.number = number;
  t.players = std::move(players);
  t.result = std::move(result);
  return t;
}

const StandingRow& Row(const std::vector<StandingRow>& rows, const std::string& player) {
  for (const StandingRow& row : rows) {
    if (row.player == player) return row;
  }
  ADD_FAILURE() << "no row for " << player;
  return rows.front();
}

// a and b finish on 6 points: a with two shared wins and 20 game points, b
// with one win and 60 game points.
std::vector<Round> TiedOnPoints() {
  Round r1{1, {At(1, {"a", "x", "c", "d"}, Played({1, 1, 3, 4}, {10, 10, 1, 0})),
               At(2, {"b", "e", "f", "g"}, Played({1, 2, 3, 4}, {30, 5, 1, 0}))}, {}};
  Round r2{2, {At(1, {"a", "g", "c", "d"}, Played({1, 1, 3, 4}, {10, 10, 0, 0})),
               At(2, {"b", "x", "e", "f"}, Played({2, 1, 3, 4}, {30, 40, 1, 0}))}, {}};
  return {r1, r2};
}

const std::vector<std::string> kEight = {"a", "b", "c", "d", "e", "f", "g", "x"};

TEST(TournamentStandings, EachRowShowsItsPointsPerRoundAndEveryTieBreak) {
  TournamentSettings s = Settings({4}, 4, 2);
  const auto rows = *ComputeStandings(s, kEight, TiedOnPoints());
  const StandingRow& a = Row(rows, "a");
  EXPECT_EQ(a.points, 6 * kPointUnit);
  ASSERT_EQ(a.rounds.size(), 2u);
  EXPECT_EQ(a.rounds[0].points, 3 * kPointUnit);
  EXPECT_EQ(a.rounds[0].place, 1);
  EXPECT_EQ(a.rounds[0].table, 1);
  EXPECT_EQ(a.rounds[0].seat, 1);
  EXPECT_EQ(a.game_points, 20);
  EXPECT_EQ(a.wins, 2);
  // Opponents x (7), c (2), d (0), then g (3), c, d.
  EXPECT_EQ(a.opponents_met, 6);
  EXPECT_EQ(a.opponents_points, (7 + 2 + 0 + 3 + 2 + 0) * kPointUnit);
  EXPECT_EQ(StrengthOfSchedule(a), 14 * kPointUnit / 6);
  EXPECT_EQ(rows.front().player, "x");
  EXPECT_EQ(rows.front().decided_by, "points");
  EXPECT_TRUE(rows.back().decided_by.empty());
}

TEST(TournamentStandings, TheTieBreakOrderIsAppliedExactlyAsPublished) {
  TournamentSettings s = Settings({4}, 4, 2);
  s.tie_breaks = {TieBreak::kGamePoints, TieBreak::kWins};
  auto rows = *ComputeStandings(s, kEight, TiedOnPoints());
  EXPECT_EQ(rows[1].player, "b");
  EXPECT_EQ(rows[1].decided_by, "game_points");
  EXPECT_EQ(rows[2].player, "a");

  s.tie_breaks = {TieBreak::kWins, TieBreak::kGamePoints};
  rows = *ComputeStandings(s, kEight, TiedOnPoints());
  EXPECT_EQ(rows[1].player, "a");
  EXPECT_EQ(rows[1].decided_by, "wins");
  EXPECT_EQ(rows[2].player, "b");
}

TEST(TournamentStandings, HeadToHeadCountsOnlyMeetingsWithinTheTiedGroup) {
  TournamentSettings s = Settings({4}, 4, 2);
  s.tie_breaks = {TieBreak::kHeadToHead};
  const std::vector<std::string> players = {"a", "b", "c", "d", "e", "f", "g", "h"};
  Round r1{1, {At(1, {"b", "a", "c", "d"}, Played({2, 1, 3, 4}, {5, 9, 1, 0})),
               At(2, {"e", "f", "g", "h"}, Played({1, 2, 3, 4}, {9, 5, 1, 0}))}, {}};
  Round r2{2, {At(1, {"a", "e", "c", "g"}, Played({2, 1, 3, 4}, {5, 9, 1, 0})),
               At(2, {"b", "f", "d", "h"}, Played({1, 2, 3, 4}, {9, 5, 1, 0}))}, {}};
  const auto rows = *ComputeStandings(s, players, {r1, r2});
  // e 8; a and b 6 each, a ahead of b at their one meeting.
  EXPECT_EQ(rows[0].player, "e");
  EXPECT_EQ(rows[1].player, "a");
  EXPECT_EQ(rows[1].decided_by, "head_to_head");
  EXPECT_EQ(rows[1].head_to_head, 1);
  EXPECT_EQ(rows[2].player, "b");
  EXPECT_EQ(rows[2].head_to_head, -1);
  EXPECT_FALSE(rows[0].head_to_head.has_value());
}

TEST(TournamentStandings, StrengthOfScheduleComparesExactAverages) {
  TournamentSettings s = Settings({4}, 4, 2);
  s.tie_breaks = {TieBreak::kStrengthOfSchedule};
  const auto rows = *ComputeStandings(s, kEight, TiedOnPoints());
  // a met 7, 2, 0, 3, 2, 0 (average 14/6); b met e 3, f 1, g 3, x 7, e, f
  // (average 18/6).
  EXPECT_EQ(rows[1].player, "b");
  EXPECT_EQ(rows[1].decided_by, "strength_of_schedule");
  EXPECT_EQ(rows[1].opponents_points, 18 * kPointUnit);
}

TEST(TournamentStandings, APerfectTieIsDecidedByTheLotDrawnFromTheSeed) {
  TournamentSettings s = Settings({4}, 4, 1);
  const std::vector<std::string> players = {"a", "b", "c", "d"};
  Round r1{1, {At(1, {"a", "b", "c", "d"}, Played({1, 1, 3, 4}, {5, 5, 2, 0}))}, {}};
  for (uint64_t seed : {1u, 2u, 3u, 4u, 5u, 6u}) {
    s.seed = seed;
    const auto rows = *ComputeStandings(s, players, {r1});
    const auto lots = LotNumbers(seed, players);
    const std::string first = lots.at("a") < lots.at("b") ? "a" : "b";
    EXPECT_EQ(rows[0].player, first) << "seed " << seed;
    EXPECT_EQ(rows[0].decided_by, "lot");
    EXPECT_EQ(rows[0].head_to_head, 0);
    EXPECT_EQ(rows[0].lot, lots.at(first));
    EXPECT_EQ(rows[1].decided_by, "points");
    // Reproducible from the same inputs.
    const auto again = *ComputeStandings(s, players, {r1});
    EXPECT_EQ(again[0].player, rows[0].player);
  }
  // The lot is not registration order: some seed puts b first.
  bool b_first = false;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const auto lots = LotNumbers(seed, players);
    b_first = b_first || lots.at("b") < lots.at("a");
  }
  EXPECT_TRUE(b_first);
}

TEST(TournamentStandings, VoidAndPendingTablesScoreNothingAndMeetNobody) {
  TournamentSettings s = Settings({4}, 4, 2);
  const std::vector<std::string> players = {"a", "b", "c", "d", "e"};
  TableResult void_result;
  void_result.kind = TableResult::Kind::kVoid;
  Round r1{1, {At(1, {"a", "b", "c", "d"}, void_result)}, {"e"}};
  Round r2{2, {At(1, {"a", "b", "c", "e"}, TableResult{})}, {"d"}};
  const auto rows = *ComputeStandings(s, players, {r1, r2});
  const StandingRow& a = Row(rows, "a");
  EXPECT_EQ(a.points, 0);
  EXPECT_EQ(a.opponents_met, 0);
  EXPECT_EQ(a.rounds[0].kind, RoundEntry::Kind::kVoid);
  EXPECT_EQ(a.rounds[1].kind, RoundEntry::Kind::kPending);
  const StandingRow& e = Row(rows, "e");
  EXPECT_EQ(e.rounds[0].kind, RoundEntry::Kind::kBye);
  EXPECT_EQ(e.points, 2 * kPointUnit);
  EXPECT_EQ(rows[0].points, 2 * kPointUnit);
}

TEST(TournamentStandings, RoundsNamingUnknownOrTwiceSeatedPlayersAreRefused) {
  TournamentSettings s = Settings({4}, 4, 1);
  Round r1{1, {At(1, {"a", "b", "c", "zed"}, TableResult{})}, {}};
  EXPECT_EQ(ComputeStandings(s, {"a", "b", "c", "d"}, {r1}).status().message(),
            "round 1: \"zed\" is not registered");
  Round r2{1, {At(1, {"a", "b", "c", "d"}, TableResult{})}, {"a"}};
  EXPECT_EQ(ComputeStandings(s, {"a", "b", "c", "d"}, {r2}).status().message(),
            "round 1: \"a\" is seated twice");
}

}  // namespace
}  // namespace arbiter::engine::tournament
