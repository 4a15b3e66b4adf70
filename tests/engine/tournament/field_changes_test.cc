// Late entries and withdrawals in the model: who is paired, what the
// standings show for the rounds a player missed, and lots that a late entry
// never changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/core/rng.h"
#include "engine/tournament/pairing.h"
#include "engine/tournament/standings.h"
#include "tests/engine/tournament/tournament_test_util.h"

namespace arbiter::engine::tournament {
namespace {

using testing::Players;
using testing::PlayRound;
using testing::Settings;

std::vector<std::string> Seated(const Round& round) {
  std::vector<std::string> out = round.byes;
  for (const Table& table : round.tables) {
    out.insert(out.end(), table.players.begin(), table.players.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

const StandingRow& Row(const std::vector<StandingRow>& rows, const std::string& player) {
  for (const StandingRow& row : rows) {
    if (row.player == player) return row;
  }
  ADD_FAILURE() << "no row for " << player;
  return rows.front();
}

// Round 1 of `players` assigned and played.
std::vector<Round> FirstRound(const TournamentSettings& s, const std::vector<std::string>& players) {
  absl::StatusOr<Round> round = AssignRound(s, players, {});
  EXPECT_TRUE(round.ok()) << round.status();
  PlayRound(*round, s.seed);
  return {*round};
}

TEST(FieldChanges, AWithdrawnPlayerSitsAtNoLaterTableButKeepsAStandingsRow) {
  const TournamentSettings s = Settings({3, 4}, 4, 3);
  std::vector<std::string> players = Players(9);
  std::vector<Round> rounds = FirstRound(s, players);
  FieldChanges changes;
  changes.withdrawn_after["p04"] = 1;
  absl::StatusOr<Round> round2 = AssignRound(s, players, rounds, changes);
  ASSERT_TRUE(round2.ok()) << round2.status();
  const std::vector<std::string> seated = Seated(*round2);
  EXPECT_EQ(seated.size(), 8u);
  EXPECT_EQ(std::count(seated.begin(), seated.end(), "p04"), 0);
  EXPECT_TRUE(round2->byes.empty());  // 8 players: two tables of 4
  PlayRound(*round2, s.seed);
  rounds.push_back(*round2);

  absl::StatusOr<std::vector<StandingRow>> rows = ComputeStandings(s, players, rounds, changes);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 9u);
  const StandingRow& p04 = Row(*rows, "p04");
  EXPECT_EQ(p04.rounds[0].kind, RoundEntry::Kind::kPlayed);
  EXPECT_EQ(p04.rounds[1].kind, RoundEntry::Kind::kWithdrawn);
  // Without the withdrawal the same missing seat reads as absent.
  rows = ComputeStandings(s, players, rounds);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(Row(*rows, "p04").rounds[1].kind, RoundEntry::Kind::kAbsent);
}

TEST(FieldChanges, ALateEntrantIsPairedFromTheirFirstRoundAndMissesTheEarlierOnes) {
  const TournamentSettings s = Settings({3, 4}, 4, 3);
  std::vector<std::string> players = Players(8);
  std::vector<Round> rounds = FirstRound(s, players);
  const std::vector<StandingRow> before = *ComputeStandings(s, players, rounds);
  players.push_back("late");
  FieldChanges changes;
  changes.first_round["late"] = 2;

  const std::vector<StandingRow> after = *ComputeStandings(s, players, rounds, changes);
  ASSERT_EQ(after.size(), 9u);
  for (const StandingRow& row : before) {
    EXPECT_EQ(Row(after, row.player).lot, row.lot) << row.player;
    EXPECT_EQ(Row(after, row.player).rank, row.rank) << row.player;
  }
  EXPECT_EQ(Row(after, "late").lot, 9);
  EXPECT_EQ(Row(after, "late").rounds[0].kind, RoundEntry::Kind::kNotEntered);

  absl::StatusOr<Round> round2 = AssignRound(s, players, rounds, changes);
  ASSERT_TRUE(round2.ok()) << round2.status();
  const std::vector<std::string> seated = Seated(*round2);
  EXPECT_EQ(seated.size(), 9u);
  EXPECT_EQ(std::count(seated.begin(), seated.end(), "late"), 1);
}

TEST(FieldChanges, StandingsAfterARoundLeaveOutWhoEnteredForALaterOne) {
  const TournamentSettings s = Settings({3, 4}, 4, 3);
  std::vector<std::string> players = Players(8);
  const std::vector<Round> rounds = FirstRound(s, players);
  players.push_back("later");
  FieldChanges changes;
  changes.first_round["later"] = 3;  // registered once round 2 had started
  const std::vector<StandingRow> rows = *ComputeStandings(s, players, rounds, changes);
  EXPECT_EQ(rows.size(), 8u);
}

TEST(FieldChanges, LateGroupsDrawTheirLotsAfterEveryEarlierGroup) {
  const std::vector<std::string> players = {"a", "b", "c", "d", "e", "f"};
  FieldChanges changes;
  changes.first_round["e"] = 3;
  changes.first_round["f"] = 2;
  const auto lots = LotNumbers(42, players, changes);
  const auto first = LotNumbers(42, {"a", "b", "c", "d"});
  for (const auto& [player, lot] : first) EXPECT_EQ(lots.at(player), lot) << player;
  EXPECT_EQ(lots.at("f"), 5);
  EXPECT_EQ(lots.at("e"), 6);
}

// A drawn lot: each entry group is shuffled by its own drawn seed (not the
// organiser's), and a group whose lot is not drawn yet keeps its
// registration order, after every earlier group.
TEST(FieldChanges, ADrawnLotShufflesEachGroupByItsOwnDrawAndLeavesUndrawnGroupsInOrder) {
  const std::vector<std::string> players = {"a", "b", "c", "d", "e", "f", "g", "h", "i"};
  FieldChanges changes;
  for (const char* p : {"e", "f", "g"}) changes.first_round[p] = 2;
  for (const char* p : {"h", "i"}) changes.first_round[p] = 3;
  TournamentSettings settings;
  settings.seed = 42;
  settings.draw_lot = true;
  settings.drawn_lots = {{1, 1001}, {2, 2002}};
  const auto lots = LotNumbers(settings, players, changes);

  std::vector<std::string> first = {"a", "b", "c", "d"};
  engine::Rng(1001 ^ 0x6c6f74ULL).Shuffle(first);
  std::vector<std::string> second = {"e", "f", "g"};
  engine::Rng(2002 ^ 0x6c6f74ULL).Shuffle(second);
  std::vector<std::string> expected = first;
  expected.insert(expected.end(), second.begin(), second.end());
  expected.insert(expected.end(), {"h", "i"});  // round 3's draw is still to come
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(lots.at(expected[i]), static_cast<int>(i) + 1) << expected[i];
  }
  // Without the drawn lot, the organiser's seed decides as before.
  settings.draw_lot = false;
  EXPECT_EQ(LotNumbers(settings, players, changes), LotNumbers(42, players, changes));
}

}  // namespace
}  // namespace arbiter::engine::tournament
