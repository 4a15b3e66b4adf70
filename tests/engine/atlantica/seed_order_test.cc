// Atlantica's setup draws from the seed in the order docs/atlantica.md
// ("Setup from the seed") documents: divers, treasures, ships, research. The
// expected position is re-derived here from the document with the shared
// generator, for every player count.
#include <gtest/gtest.h>

#include <vector>

#include "engine/atlantica/game.h"
#include "engine/atlantica/state.h"
#include "engine/core/rng.h"
#include "tests/engine/atlantica/position_builder.h"

namespace arbiter::engine::atlantica::testing {
namespace {

// Takes the top (the back) card of `pile`.
int8_t TakeTop(std::vector<int8_t>& pile) {
  const int8_t top = pile.back();
  pile.pop_back();
  return top;
}

TEST(AtlanticaSetup, DrawsFromTheSeedInTheDocumentedOrder) {
  for (int players = 2; players <= 5; ++players) {
    SCOPED_TRACE(players);
    const uint64_t seed = 4242 + static_cast<uint64_t>(players);
    GameSetup setup;
    setup.ruleset = &DefaultRuleset();
    setup.seed = seed;
    setup.num_players = players;
    absl::StatusOr<std::unique_ptr<State>> state = AtlanticaGame().NewInitialState(setup);
    ASSERT_TRUE(state.ok()) << state.status();
    const AtlanticaState& atlantica = dynamic_cast<const AtlanticaState&>(**state);
    const Rules& rules = atlantica.rules();
    const Board& board = atlantica.board();
    Rng rng(seed);

    // 1. Divers in colour order, shuffled; 5 cards per seat from the top.
    std::vector<int8_t> divers;
    for (int c = 0; c < kColours; ++c) divers.insert(divers.end(), rules.divers[c], static_cast<int8_t>(c));
    rng.Shuffle(divers);
    for (int seat = 0; seat < players; ++seat) {
      ColourCounts hand{};
      for (int i = 0; i < rules.hand_size; ++i) ++hand[TakeTop(divers)];
      EXPECT_EQ(board.players[seat].hand, hand) << "seat " << seat + 1;
    }
    EXPECT_EQ(board.draw_pile, divers);

    // 2. Treasures in kind order, shuffled; the top ones back to the box; the
    // next 10 as taken from the top, then the hurricane card, shuffled into
    // the hurricane stack; the rest is the stack, whose top cards fill areas 1-6.
    std::vector<int8_t> treasures;
    for (int k = 0; k < rules.num_kinds; ++k) {
      treasures.insert(treasures.end(), rules.kind_cards[k], static_cast<int8_t>(k));
    }
    rng.Shuffle(treasures);
    const int removed = players == 2 ? 26 : players == 3 ? 18 : players == 4 ? 9 : 0;
    for (int i = 0; i < removed; ++i) TakeTop(treasures);
    std::vector<int8_t> hurricane;
    for (int i = 0; i < 10; ++i) hurricane.push_back(TakeTop(treasures));
    hurricane.push_back(kHurricane);
    rng.Shuffle(hurricane);
    EXPECT_EQ(board.hurricane_stack, hurricane);
    for (int area = 0; area < 6; ++area) {
      EXPECT_EQ(board.treasure_areas[area], TakeTop(treasures)) << "area " << area + 1;
    }
    EXPECT_EQ(board.treasure_stack, treasures);

    // 3. Each ship stack on its own, in ruleset order.
    for (int s = 0; s < rules.num_stacks; ++s) {
      std::vector<int8_t> stack(rules.ship_crates[s].begin(), rules.ship_crates[s].end());
      rng.Shuffle(stack);
      EXPECT_EQ(board.ship_stacks[s], stack) << "stack " << s;
    }

    // 4. Research in type order, shuffled; the top 4 to areas 1-4.
    std::vector<int8_t> research;
    for (int t = 0; t < rules.num_research; ++t) {
      research.insert(research.end(), rules.research_copies[t], static_cast<int8_t>(t));
    }
    rng.Shuffle(research);
    for (int area = 0; area < 4; ++area) {
      EXPECT_EQ(board.research_areas[area], TakeTop(research)) << "research area " << area + 1;
    }
    EXPECT_EQ(board.research_deck, research);
  }
}

}  // namespace
}  // namespace arbiter::engine::atlantica::testing
