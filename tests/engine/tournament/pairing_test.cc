// Table assignment: whole tournaments at 3, 4 and 5 per table with player
// counts that do not divide evenly, the repeat measure, Swiss order, seat 1
// rotation, byes and reproducibility.
#include "engine/tournament/pairing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <functional>
#include <set>

#include "engine/tournament/standings.h"
#include "tests/engine/tournament/tournament_test_util.h"

namespace arbiter::engine::tournament {
namespace {

using testing::Players;
using testing::PlayRound;
using testing::PlayTournament;
using testing::Settings;

struct Case {
  std::vector<int> sizes;
  int preferred;
  int players;
  int rounds;
  Leftover leftover;
};

class WholeTournament : public ::testing::TestWithParam<Case> {};

TEST_P(WholeTournament, EveryRoundSeatsEveryoneOnceAtAllowedSizesWithNoRepeatedTableMate) {
  const Case& c = GetParam();
  const TournamentSettings settings = Settings(c.sizes, c.preferred, c.rounds, c.leftover);
  const std::vector<std::string> players = Players(c.players);
  absl::StatusOr<std::vector<Round>> rounds = PlayTournament(settings, players);
  ASSERT_TRUE(rounds.ok()) << rounds.status();
  ASSERT_EQ(rounds->size(), static_cast<size_t>(c.rounds));
  std::map<std::string, int> byes;
  for (size_t r = 0; r < rounds->size(); ++r) {
    const Round& round = (*rounds)[r];
    std::multiset<std::string> seated(round.byes.begin(), round.byes.end());
    for (const std::string& p : round.byes) ++byes[p];
    for (const Table& table : round.tables) {
      const int size = static_cast<int>(table.players.size());
      if (c.leftover == Leftover::kByes) {
        EXPECT_EQ(size, c.preferred);
      } else {
        EXPECT_NE(std::find(c.sizes.begin(), c.sizes.end(), size), c.sizes.end());
      }
      seated.insert(table.players.begin(), table.players.end());
    }
    EXPECT_EQ(seated, std::multiset<std::string>(players.begin(), players.end()));
    const std::vector<Round> earlier(rounds->begin(), rounds->begin() + static_cast<long>(r));
    EXPECT_EQ(RepeatCount(earlier, round), 0) << "round " << round.number;
  }
  // Byes go round: nobody has a second bye while someone has none.
  if (!byes.empty()) {
    int most = 0;
    for (const auto& [player, count] : byes) most = std::max(most, count);
    if (most > 1) {
      EXPECT_EQ(byes.size(), players.size());
    }
  }
  const auto standings = *ComputeStandings(settings, players, *rounds);
  EXPECT_EQ(standings.size(), players.size());
  // Reproducible: the same inputs give the same tournament.
  const auto again = *PlayTournament(settings, players);
  for (size_t r = 0; r < rounds->size(); ++r) {
    ASSERT_EQ(again[r].tables.size(), (*rounds)[r].tables.size());
    for (size_t t = 0; t < again[r].tables.size(); ++t) {
      EXPECT_EQ(again[r].tables[t].players, (*rounds)[r].tables[t].players);
      EXPECT_EQ(again[r].tables[t].game_seed, (*rounds)[r].tables[t].game_seed);
    }
    EXPECT_EQ(again[r].byes, (*rounds)[r].byes);
  }
}

INSTANTIATE_TEST_SUITE_P(
    TablesOfThreeFourAndFive, WholeTournament,
    ::testing::Values(Case{{3, 4}, 3, 20, 5, Leftover::kMixedSizes},
                      Case{{3}, 3, 20, 5, Leftover::kByes},
                      Case{{3, 4, 5}, 4, 22, 4, Leftover::kMixedSizes},
                      Case{{4}, 4, 23, 4, Leftover::kByes},
                      Case{{3, 4, 5}, 4, 37, 6, Leftover::kMixedSizes},
                      Case{{4, 5}, 5, 27, 4, Leftover::kMixedSizes},
                      Case{{5}, 5, 33, 4, Leftover::kByes},
                      Case{{4, 5}, 5, 61, 7, Leftover::kMixedSizes}));

// Every way to split `players` into tables of the given sizes.
void Partitions(std::vector<int> left, const std::vector<int>& sizes, size_t table,
                std::vector<std::vector<int>>& current,
                const std::function<void(const std::vector<std::vector<int>>&)>& visit) {
  if (table == sizes.size()) {
    visit(current);
    return;
  }
  // The first remaining player always joins this table (tables are
  // unordered only up to equal sizes; duplicates are harmless here).
  const int n = static_cast<int>(left.size());
  const int need = sizes[table];
  std::vector<int> pick(static_cast<size_t>(n), 0);
  std::fill(pick.begin(), pick.begin() + need, 1);
  std::sort(pick.begin(), pick.end());
  do {
    std::vector<int> chosen, rest;
    for (int i = 0; i < n; ++i) (pick[static_cast<size_t>(i)] ? chosen : rest).push_back(left[static_cast<size_t>(i)]);
    current.push_back(chosen);
    Partitions(rest, sizes, table + 1, current, visit);
    current.pop_back();
  } while (std::next_permutation(pick.begin(), pick.end()));
}

TEST(TableAssignment, TheLocalSearchReachesTheFewestRepeatsOnSmallTournaments) {
  // For small fields the minimum of the measure over every seating is known by
  // enumeration; the search must reach it in every round.
  for (int n : {6, 7, 8, 9}) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      TournamentSettings settings = Settings({3, 4}, 3, 5);
      settings.seed = seed;
      const std::vector<std::string> players = Players(n);
      std::vector<Round> rounds;
      for (int r = 0; r < settings.rounds; ++r) {
        Round round = *AssignRound(settings, players, rounds);
        std::vector<int> sizes;
        for (const Table& t : round.tables) sizes.push_back(static_cast<int>(t.players.size()));
        std::vector<int> all(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) all[static_cast<size_t>(i)] = i;
        int64_t best = -1;
        std::vector<std::vector<int>> current;
        Partitions(all, sizes, 0, current, [&](const std::vector<std::vector<int>>& split) {
          Round candidate;
          for (const auto& seats : split) {
            Table& t = candidate.tables.emplace_back();
            for (int i : seats) t.players.push_back(players[static_cast<size_t>(i)]);
          }
          const int64_t repeats = RepeatCount(rounds, candidate);
          if (best < 0 || repeats < best) best = repeats;
        });
        EXPECT_EQ(RepeatCount(rounds, round), best)
            << n << " players, seed " << seed << ", round " << round.number;
        PlayRound(round, seed);
        rounds.push_back(round);
      }
    }
  }
}

TEST(TableAssignment, RoundOneIsSeededAndLaterRoundsSeatSimilarStandingsTogether) {
  TournamentSettings settings = Settings({4}, 4, 3);
  const std::vector<std::string> players = Players(16);
  std::vector<Round> rounds;
  Round r1 = *AssignRound(settings, players, rounds);
  const std::vector<std::string> order = FirstRoundOrder(settings.seed, players);
  EXPECT_EQ(std::set<std::string>(r1.tables[0].players.begin(), r1.tables[0].players.end()),
            std::set<std::string>(order.begin(), order.begin() + 4));
  settings.seed = 43;
  EXPECT_NE(AssignRound(settings, players, rounds)->tables[0].players, r1.tables[0].players);
  settings.seed = 42;
  PlayRound(r1, settings.seed);
  rounds.push_back(r1);
  // After round 1 the top four come from four different tables: they meet.
  const auto standings = *ComputeStandings(settings, players, rounds);
  const Round r2 = *AssignRound(settings, players, rounds);
  std::set<std::string> top;
  for (int i = 0; i < 4; ++i) top.insert(standings[static_cast<size_t>(i)].player);
  EXPECT_EQ(std::set<std::string>(r2.tables[0].players.begin(), r2.tables[0].players.end()), top);
  EXPECT_EQ(r2.tables[1].game_seed, TableSeed(42, 2, 2));
}

TEST(TableAssignment, SeatOneGoesToWhoeverHasHadItLeast) {
  const TournamentSettings settings = Settings({4}, 4, 6);
  const std::vector<std::string> players = Players(24);
  const std::vector<Round> rounds = *PlayTournament(settings, players);
  std::map<std::string, int> seat_ones;
  for (const Round& round : rounds) {
    for (const Table& table : round.tables) {
      for (const std::string& p : table.players) {
        EXPECT_LE(seat_ones[table.players[0]], seat_ones[p]) << "round " << round.number;
      }
      ++seat_ones[table.players[0]];
    }
  }
}

TEST(TableAssignment, AnOpenRoundOrAFinishedTournamentIsRefused) {
  const TournamentSettings settings = Settings({4}, 4, 1);
  const std::vector<std::string> players = Players(8);
  std::vector<Round> rounds = {*AssignRound(settings, players, {})};
  absl::StatusOr<Round> next = AssignRound(settings, players, rounds);
  EXPECT_EQ(next.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(next.status().message(), "all 1 rounds have been played");
  TournamentSettings two = Settings({4}, 4, 2);
  next = AssignRound(two, players, rounds);
  EXPECT_EQ(next.status().message(), "round 1 is still open: table 1 has no result");
}

TEST(RepeatMeasure, CountsEachPairOncePerEarlierSharedTable) {
  Round r1{1, {}, {}};
  r1.tables.push_back(Table{1, {"a", "b", "c"}, 0, {}});
  Round r2{2, {}, {}};
  r2.tables.push_back(Table{1, {"a", "b", "d"}, 0, {}});
  Round r3{3, {}, {}};
  r3.tables.push_back(Table{1, {"a", "b", "c"}, 0, {}});
  EXPECT_EQ(RepeatCount({}, r1), 0);
  EXPECT_EQ(RepeatCount({r1}, r2), 1);      // a-b
  EXPECT_EQ(RepeatCount({r1, r2}, r3), 4);  // a-b twice, a-c, b-c
}

}  // namespace
}  // namespace arbiter::engine::tournament
