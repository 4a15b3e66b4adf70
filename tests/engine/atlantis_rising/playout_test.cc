// Atlantis Rising: random legal playouts end, agree with Check and replay
// identically from the log.
#include <gtest/gtest.h>

#include "engine/atlantis_rising/game.h"
#include "engine/core/rng.h"
#include "tests/engine/atlantis_rising/position_builder.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using testing::Table;

struct Played {
  std::vector<Move> log;
  std::string final_text;
  v1::Standings standings;
};

// Plays random legal actions (chosen by a generator separate from the game's)
// until the game ends. With `check_all`, every listed action must pass Check.
Played PlayOut(int players, uint64_t seed, bool check_all) {
  Table table(players, seed);
  Rng chooser(seed ^ 0x5eed);
  Played played;
  for (int step = 0; step < 20000 && !table.state().IsTerminal(); ++step) {
    const std::vector<Move> moves = table.state().LegalActions();
    EXPECT_FALSE(moves.empty()) << table.state().ToString();
    if (moves.empty()) break;
    if (check_all) {
      for (const Move& move : moves) {
        auto violation = table.state().Check(move.seat, move.action);
        EXPECT_FALSE(violation.has_value()) << violation->rule << " " << move.action.DebugString();
        EXPECT_EQ(table.state().Canonical(move.seat, move.action).DebugString(), move.action.DebugString());
      }
      const std::vector<Seat> seats = table.state().SeatsToAct();
      for (const Move& move : moves) {
        EXPECT_NE(std::find(seats.begin(), seats.end(), move.seat), seats.end());
      }
    }
    const Move& move = moves[static_cast<std::size_t>(chooser.Uniform(moves.size()))];
    auto violation = table.state().Apply(move.seat, move.action);
    EXPECT_FALSE(violation.has_value()) << violation->rule << ": " << violation->detail;
    played.log.push_back(move);
  }
  EXPECT_TRUE(table.state().IsTerminal()) << "game did not end: " << table.state().ToString();
  EXPECT_TRUE(table.state().SeatsToAct().empty());
  auto standings = table.state().Final();
  EXPECT_TRUE(standings.has_value());
  if (standings) played.standings = *standings;
  played.final_text = table.state().ToString();
  return played;
}

TEST(AtlantisRisingPlayout, RandomGamesEndForEveryPlayerCount) {
  for (int players = 1; players <= 7; ++players) {
    for (uint64_t seed = 1; seed <= 30; ++seed) {
      Played played = PlayOut(players, seed, /*check_all=*/seed <= 3);
      EXPECT_TRUE(played.standings.cooperative());
      EXPECT_NE(played.standings.team_outcome(), v1::TEAM_OUTCOME_UNSPECIFIED);
      ASSERT_EQ(played.standings.players_size(), players);
      for (const auto& line : played.standings.players()) EXPECT_EQ(line.place(), 1);
    }
  }
}

TEST(AtlantisRisingPlayout, ReplayingTheLogGivesTheSameGame) {
  for (int players : {1, 4, 7}) {
    Played played = PlayOut(players, 77, false);
    Table replay(players, 77);
    for (const Move& move : played.log) {
      ASSERT_FALSE(replay.state().Apply(move.seat, move.action).has_value());
    }
    EXPECT_EQ(replay.state().ToString(), played.final_text);
    EXPECT_EQ(replay.state().Final()->DebugString(), played.standings.DebugString());
  }
}

TEST(AtlantisRisingPlayout, EveryListedActionPassesCheckShape) {
  Table table(4, 5);
  Rng chooser(9);
  for (int step = 0; step < 400 && !table.state().IsTerminal(); ++step) {
    const auto moves = table.state().LegalActions();
    for (const Move& move : moves) {
      EXPECT_TRUE(AtlantisRisingGame().CheckShape(move.action, testing::DefaultRuleset()).ok());
    }
    const Move& move = moves[static_cast<std::size_t>(chooser.Uniform(moves.size()))];
    ASSERT_FALSE(table.state().Apply(move.seat, move.action).has_value());
  }
}

}  // namespace
}  // namespace arbiter::engine::atlantis_rising
