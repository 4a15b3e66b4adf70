// Random legal playouts: every game ends, every listed action is accepted,
// Canonical keeps listed actions as they are, and replays are deterministic.
#include <gtest/gtest.h>

#include "tests/engine/atlantis/atlantis_test_util.h"

namespace arbiter::engine::atlantis::testing {
namespace {

struct Playout {
  std::vector<Move> moves;
  v1::Standings standings;
};

Playout PlayRandom(int players, uint64_t seed, std::map<std::string, std::string> options = {}) {
  Playout out;
  std::unique_ptr<State> state = NewGame(players, seed, options);
  Rng pick(seed * 7919 + 1);
  for (int step = 0; step < 20000 && !state->IsTerminal(); ++step) {
    std::vector<Move> legal = state->LegalActions();
    EXPECT_FALSE(legal.empty()) << state->ToString();
    if (legal.empty()) break;
    for (const Move& m : legal) {
      EXPECT_EQ(state->Check(m.seat, m.action), std::nullopt) << m.action.ShortDebugString();
      EXPECT_EQ(state->Canonical(m.seat, m.action).ShortDebugString(), m.action.ShortDebugString());
    }
    const Move& chosen = legal[pick.Uniform(legal.size())];
    EXPECT_EQ(state->Apply(chosen.seat, chosen.action), std::nullopt);
    out.moves.push_back(chosen);
  }
  EXPECT_TRUE(state->IsTerminal());
  if (state->IsTerminal()) out.standings = *state->Final();
  return out;
}

TEST(AtlantisPlayout, RandomGamesEndForEveryPlayerCount) {
  for (int players = 2; players <= 4; ++players) {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      const Playout p = PlayRandom(players, seed);
      ASSERT_EQ(p.standings.players_size(), players);
    }
  }
}

TEST(AtlantisPlayout, TilesOrCardsVariantGamesEnd) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const Playout p = PlayRandom(3, seed, {{"toll_payment", "tiles_or_cards"}});
    ASSERT_EQ(p.standings.players_size(), 3);
  }
}

TEST(AtlantisPlayout, ReplayGivesTheSameStandings) {
  const Playout p = PlayRandom(3, 42);
  std::unique_ptr<State> replay = NewGame(3, 42);
  for (const Move& m : p.moves) ASSERT_EQ(replay->Apply(m.seat, m.action), std::nullopt);
  ASSERT_TRUE(replay->IsTerminal());
  EXPECT_EQ(replay->Final()->ShortDebugString(), p.standings.ShortDebugString());
}

TEST(AtlantisPlayout, CloneIsIndependent) {
  std::unique_ptr<State> state = NewGame(2, 5);
  std::unique_ptr<State> copy = state->Clone();
  const Move first = state->LegalActions().back();
  ASSERT_EQ(state->Apply(first.seat, first.action), std::nullopt);
  EXPECT_NE(state->ToString(), copy->ToString());
  EXPECT_EQ(copy->num_actions(), 0);
}

}  // namespace
}  // namespace arbiter::engine::atlantis::testing
