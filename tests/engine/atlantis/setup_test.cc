// The built-in ruleset, the initial position and its chance order, options,
// ruleset validation and action shapes.
#include <gtest/gtest.h>

#include "engine/core/ruleset_registry.h"
#include "tests/engine/atlantis/atlantis_test_util.h"

namespace arbiter::engine::atlantis::testing {
namespace {

TEST(AtlantisSetup, TheBuiltInRulesetIsRegistered) {
  absl::StatusOr<RulesetRegistry> registry = RulesetRegistry::WithBuiltins();
  ASSERT_TRUE(registry.ok()) << registry.status();
  const RegisteredRuleset* r = registry->DefaultFor("atlantis");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->ruleset.id(), "atlantis-amigo-2009");
  EXPECT_EQ(FindGame("atlantis"), &AtlantisGame());
}

TEST(AtlantisSetup, ThePathIsLaidAsTheRulebookSays) {
  auto state = NewGame(4, 9);
  const Board& b = AsAtlantis(*state).board();
  const Path& path = b.path;
  ASSERT_EQ(path.positions(), 53);
  int tiles = 0;
  for (int p = 1; p <= 53; ++p) {
    const int expected = p <= 10 ? 2 : p <= 20 ? 1 : p <= 26 ? 2 : p == 27 ? 0 : p <= 33 ? 2 : p <= 43 ? 1 : 2;
    EXPECT_EQ(path.height(p), expected) << "position " << p;
    tiles += path.height(p);
  }
  EXPECT_EQ(tiles, 84);
  EXPECT_TRUE(path.is_water(27));
  for (int seat = 0; seat < 4; ++seat) {
    EXPECT_EQ(b.players[static_cast<std::size_t>(seat)].card_count, 4 + seat);
    EXPECT_EQ(b.bridges_left[static_cast<std::size_t>(seat)], 1);
    for (int f = 0; f < 3; ++f) EXPECT_EQ(b.figure(seat, f), 0);
  }
  EXPECT_EQ(AsAtlantis(*state).deck_size(), 105 - 22);
}

TEST(AtlantisSetup, ChanceFollowsTheDocumentedOrder) {
  const uint64_t seed = 1234;
  auto state = NewGame(2, seed);
  const Board& b = AsAtlantis(*state).board();
  const Config& config = *DefaultConfig();
  Rng rng(seed);
  std::vector<uint8_t> a = config.tiles_a;
  std::vector<uint8_t> bt = config.tiles_b;
  std::vector<uint8_t> deck;
  for (int item = 0; item < kItems; ++item) deck.insert(deck.end(), 15, static_cast<uint8_t>(item));
  rng.Shuffle(a);
  rng.Shuffle(bt);
  rng.Shuffle(deck);
  // Position 1: a[0] below a[1]; position 11 (first single): a[20].
  EXPECT_EQ(b.path.tile(1, 0), a[0]);
  EXPECT_EQ(b.path.top(1), a[1]);
  EXPECT_EQ(b.path.top(11), a[20]);
  // Position 28 (after the water): b[0] below b[1]; the last position: b[41] on top.
  EXPECT_EQ(b.path.tile(28, 0), bt[0]);
  EXPECT_EQ(b.path.top(53), bt[41]);
  // Seat 1 gets the first 4 cards, seat 2 the next 5.
  std::array<uint8_t, kItems> hand0{};
  std::array<uint8_t, kItems> hand1{};
  for (int i = 0; i < 4; ++i) ++hand0[deck[static_cast<std::size_t>(i)]];
  for (int i = 4; i < 9; ++i) ++hand1[deck[static_cast<std::size_t>(i)]];
  EXPECT_EQ(b.players[0].cards, hand0);
  EXPECT_EQ(b.players[1].cards, hand1);
}

TEST(AtlantisSetup, SameSeedSameGameOtherSeedOtherGame) {
  EXPECT_EQ(NewGame(3, 77)->ToString(), NewGame(3, 77)->ToString());
  EXPECT_NE(NewGame(3, 77)->ToString(), NewGame(3, 78)->ToString());
}

TEST(AtlantisSetup, OptionsAndPlayerCountsAreChecked) {
  GameSetup setup;
  setup.ruleset = &DefaultRuleset();
  setup.num_players = 2;
  setup.options = {{"toll_payment", "tiles_or_cards"}};
  EXPECT_TRUE(AtlantisGame().NewInitialState(setup).ok());
  setup.options = {{"toll_payment", "gold"}};
  EXPECT_EQ(AtlantisGame().NewInitialState(setup).status().code(), absl::StatusCode::kInvalidArgument);
  setup.options = {{"tolls", "tiles_or_cards"}};
  EXPECT_EQ(AtlantisGame().NewInitialState(setup).status().code(), absl::StatusCode::kInvalidArgument);
  setup.options.clear();
  for (int players : {1, 5}) {
    setup.num_players = players;
    EXPECT_EQ(AtlantisGame().NewInitialState(setup).status().code(),
              absl::StatusCode::kInvalidArgument);
  }
}

TEST(AtlantisSetup, BrokenRulesetsNameTheField) {
  v1::Ruleset r = DefaultRuleset();
  r.mutable_atlantis()->mutable_layout_a(0)->set_stacks(9);
  absl::Status s = AtlantisGame().ValidateRuleset(r);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("layout_a"), std::string::npos) << s;
  r = DefaultRuleset();
  r.mutable_atlantis()->clear_hand_sizes();
  s = AtlantisGame().ValidateRuleset(r);
  EXPECT_NE(std::string(s.message()).find("hand_sizes"), std::string::npos) << s;
  r = DefaultRuleset();
  r.mutable_atlantis()->mutable_tiles_b(3)->set_value(12);
  s = AtlantisGame().ValidateRuleset(r);
  EXPECT_NE(std::string(s.message()).find("tiles_b[3].value"), std::string::npos) << s;
  r = DefaultRuleset();
  r.mutable_atlantis()->set_figures_per_player(0);
  EXPECT_FALSE(AtlantisGame().ValidateRuleset(r).ok());
}

std::string ShapeError(const v1::Action& action) {
  absl::Status s = AtlantisGame().CheckShape(action, DefaultRuleset());
  EXPECT_TRUE(s.ok() || s.code() == absl::StatusCode::kInvalidArgument) << s;
  return std::string(s.message());
}

TEST(AtlantisShape, MalformedActionsNameTheField) {
  EXPECT_EQ(ShapeError(MoveAction(1, "RF", "C7", "O")), "");
  EXPECT_EQ(ShapeError(PassAction()), "");
  EXPECT_EQ(ShapeError(BuyAction("C7")), "");
  EXPECT_EQ(ShapeError(BridgeAction(27)), "");
  EXPECT_NE(ShapeError(v1::Action()).find("atlantis"), std::string::npos);
  v1::Action empty;
  empty.mutable_atlantis();
  EXPECT_NE(ShapeError(empty).find("atlantis.kind"), std::string::npos);
  EXPECT_NE(ShapeError(MoveAction(4, "R")).find("atlantis.move.figure"), std::string::npos);
  v1::Action a = MoveAction(1, "RF");
  a.mutable_atlantis()->mutable_move()->set_cards(1, v1::Atlantis::ITEM_UNSPECIFIED);
  EXPECT_NE(ShapeError(a).find("atlantis.move.cards[1]"), std::string::npos);
  a = MoveAction(1, "R", "C7 A8");
  EXPECT_NE(ShapeError(a).find("atlantis.move.toll.tiles[1].value"), std::string::npos);
  a = MoveAction(1, "R", "", "F");
  a.mutable_atlantis()->mutable_move()->mutable_toll()->set_cards(0, static_cast<v1::Atlantis::Item>(9));
  EXPECT_NE(ShapeError(a).find("atlantis.move.toll.cards[0]"), std::string::npos);
  a = MoveAction(1, std::string(65, 'R'));
  EXPECT_NE(ShapeError(a).find("atlantis.move.cards"), std::string::npos);
  EXPECT_NE(ShapeError(BuyAction("C0")).find("atlantis.buy.tile.value"), std::string::npos);
  EXPECT_NE(ShapeError(BridgeAction(54)).find("atlantis.bridge.position"), std::string::npos);
}

}  // namespace
}  // namespace arbiter::engine::atlantis::testing
