// Atlantis as printed: the rules where an earlier engine read the rulebooks
// differently (issue 15), the options for the passages the two rulebooks
// read differently, tested both ways, and players' names in the sentences.
// Rulebooks (docs/rules/README.md): 001_412b213e84fff6ab.txt (Czech, "CZ")
// and 003_4cb24d7ca1c7eb6e.txt (Italian, "IT").
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/engine/atlantis/atlantis_test_util.h"

namespace arbiter::engine::atlantis::testing {
namespace {

Variant With(void (*change)(Variant&)) {
  Variant v;
  change(v);
  return v;
}

bool Listed(const State& s, const v1::Action& action) {
  const v1::Action canonical = s.Canonical(s.SeatsToAct().front(), action);
  const std::vector<Move> moves = s.LegalActions();
  return std::any_of(moves.begin(), moves.end(), [&](const Move& m) {
    return m.action.ShortDebugString() == canonical.ShortDebugString();
  });
}

// CZ, "A) Překročení vody bez použití mostu": "Odevzdané karty a destičky
// jdou ze hry" (paid cards and tiles leave the game). With an empty deck the
// next draw reshuffles the discard pile: it holds the movement card only.
TEST(AtlantisPrintedRules, PaidTollCardsLeaveTheGameAndAreNeverReshuffled) {
  auto s = PositionBuilder(2).Path("C7 . S2 R2").Hand(0, "SOO").Build();
  ASSERT_EQ(s->deck_size(), 0);
  ASSERT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "", "OO")), "");
  const Holdings& ann = s->board().players[0];
  EXPECT_EQ(ann.card_count, 1);
  EXPECT_EQ(ann.cards[static_cast<std::size_t>(ItemOfLetter('S'))], 1) << "the only card back in play is the statue played to move";
  EXPECT_EQ(s->deck_size() + s->discard_size(), 0);
}

// CZ, "B) Překročení vody s použitím mostu": "Hráč může svůj most použít
// kdykoliv během svého tahu" (at any time during one's turn). Here the gap
// exists only after the move, once the OLIVE 3 behind the figure is taken.
TEST(AtlantisPrintedRules, TheBridgeMayBeLaidAfterTheMove) {
  auto s = PositionBuilder(2).Path("C7 O3 S5 R2").Hand(0, "S").Deck("FF").Build();
  EXPECT_EQ(ApplyRule(*s->Clone(), 0, BridgeAction(2)), "bridge_not_on_water") << "no gap before the move";
  EXPECT_TRUE(Listed(*s, MoveThenBridge(1, "S", 2)));
  const std::optional<Violation> elsewhere = s->Check(0, MoveThenBridge(1, "S", 4));
  ASSERT_TRUE(elsewhere.has_value());
  EXPECT_EQ(elsewhere->rule, "bridge_not_on_water");
  EXPECT_EQ(elsewhere->detail, "position 4 is not water after the move; a bridge is laid over a gap in the path");
  ASSERT_EQ(ApplyRule(*s, 0, MoveThenBridge(1, "S", 2)), "");
  EXPECT_TRUE(s->board().path.bridged(2));
  EXPECT_EQ(s->board().bridges_left[0], 0);
  EXPECT_EQ(s->board().path.TollBetween(0, 3).total, 0) << "the new gap is free for everyone";
}

TEST(AtlantisPrintedRules, TheBridgeAfterTheMoveIsStillOncePerGame) {
  auto s = PositionBuilder(2).Path("C7 O3 S5 R2").Hand(0, "S").Bridges(0, 0).Build();
  EXPECT_EQ(ApplyRule(*s, 0, MoveThenBridge(1, "S", 2)), "no_bridge_left");
  EXPECT_FALSE(Listed(*s, MoveThenBridge(1, "S", 2)));
}

// A bridge before the move still counts (the earlier reading stays legal).
TEST(AtlantisPrintedRules, TheBridgeMayStillBeLaidBeforeTheMove) {
  auto s = PositionBuilder(2).Path("C7 . S5 R2").Hand(0, "S").Build();
  ASSERT_EQ(ApplyRule(*s, 0, BridgeAction(2)), "");
  EXPECT_EQ(ApplyRule(*s, 0, MoveThenBridge(1, "S", 1)), "no_bridge_left");
  EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S")), "");
}

// IT: "Per pagare può usare le tessere e/o le carte" (default) against CZ:
// "buď svými, již nasbíranými destičkami a nebo kartami" (option).
TEST(AtlantisOptions, TollPaymentBothWays) {
  const auto position = [](TollPayment mode) {
    return PositionBuilder(2).Path("C7 . S5 R2").Hand(0, "SOOOOO").Tiles(0, "F3 A2").Payment(mode).Build();
  };
  EXPECT_EQ(ApplyRule(*position(TollPayment::kTilesAndCards), 0, MoveAction(1, "S", "F3", "OO")), "");
  EXPECT_EQ(ApplyRule(*position(TollPayment::kTilesOrCards), 0, MoveAction(1, "S", "F3", "OO")),
            "toll_mixed_payment");
  EXPECT_EQ(ApplyRule(*position(TollPayment::kTilesOrCards), 0, MoveAction(1, "S", "", "OOOOO")), "");
}

// IT: "Se una tessera supera il valore richiesto, non riceverà resto" (any
// minimal payment, default) against CZ: "Pokud hráč nemá přesný počet karet
// nebo destiček, zaplatí víc" (more only without the exact amount, option).
TEST(AtlantisOptions, OverpayingBothWays) {
  const Variant exact = With([](Variant& v) { v.exact_toll_if_possible = true; });
  // Toll 3; A2 + H1 or three cards pay it exactly.
  auto minimal = PositionBuilder(2).Path("C7 . S3 R2").Hand(0, "SOOOO").Tiles(0, "F7 A2 H1").Build();
  auto strict = PositionBuilder(2).Path("C7 . S3 R2").Hand(0, "SOOOO").Tiles(0, "F7 A2 H1").Options(exact).Build();
  EXPECT_EQ(ApplyRule(*minimal->Clone(), 0, MoveAction(1, "S", "F7")), "");
  EXPECT_EQ(ApplyRule(*strict, 0, MoveAction(1, "S", "F7")), "toll_not_exact");
  EXPECT_FALSE(Listed(*strict, MoveAction(1, "S", "F7")));
  EXPECT_TRUE(Listed(*minimal, MoveAction(1, "S", "F7")));
  EXPECT_EQ(ApplyRule(*strict->Clone(), 0, MoveAction(1, "S", "A2 H1")), "");
  EXPECT_EQ(ApplyRule(*strict, 0, MoveAction(1, "S", "", "OOO")), "");
  // Without an exact payment, the 7 is the way to pay under either reading.
  auto no_exact = PositionBuilder(2).Path("C7 . S3 R2").Hand(0, "S").Tiles(0, "F7 A2").Options(exact).Build();
  EXPECT_TRUE(Listed(*no_exact, MoveAction(1, "S", "F7")));
  EXPECT_EQ(ApplyRule(*no_exact, 0, MoveAction(1, "S", "F7")), "");
}

// CZ: "K zaplacení se smí použít jen karty a destičky, které měl hráč již na
// začátku tohoto tahu"; IT: "Si possono utilizzare solo carte e tessere che
// si possedevano all'inizio del turno". Buying happens "at the start of the
// turn": by default its cards pay; the option reads the start as before it.
TEST(AtlantisOptions, CardsBoughtThisTurnBothWays) {
  const Variant strict = With([](Variant& v) { v.bought_cards_pay_tolls = false; });
  for (const bool pay : {true, false}) {
    SCOPED_TRACE(pay ? "bought cards pay" : "bought cards do not pay");
    auto s = PositionBuilder(2)
                 .Path("C7 . S3 R2")
                 .Hand(0, "SOO")
                 .Tiles(0, "A6 H1")
                 .Deck("OOOF")
                 .Options(pay ? Variant{} : strict)
                 .Build();
    ASSERT_EQ(ApplyRule(*s, 0, BuyAction("A6")), "");  // three more olives
    EXPECT_EQ(ApplyRule(*s->Clone(), 0, MoveAction(1, "S", "", "OOO")), pay ? "" : "toll_card_not_held");
    EXPECT_EQ(Listed(*s, MoveAction(1, "S", "", "OOO")), pay);
    EXPECT_EQ(ApplyRule(*s, 0, MoveAction(1, "S", "H1", "OO")), "");
  }
}

TEST(AtlantisOptions, EveryOptionIsListedWithItsDefaultFirst) {
  const std::vector<OptionSpec> options = AtlantisGame().Options(DefaultRuleset());
  ASSERT_EQ(options.size(), 3u);
  EXPECT_EQ(options[0].key, "toll_payment");
  EXPECT_EQ(options[0].values.front().value, "tiles_and_cards");
  EXPECT_EQ(options[1].key, "toll_overpay");
  EXPECT_EQ(options[1].values.front().value, "minimal");
  EXPECT_EQ(options[2].key, "bought_cards_pay_tolls");
  EXPECT_EQ(options[2].values.front().value, "yes");
  for (const OptionSpec& option : options) {
    EXPECT_FALSE(option.meaning.empty());
    for (const OptionValue& value : option.values) EXPECT_FALSE(value.meaning.empty()) << value.value;
  }
}

TEST(AtlantisOptions, HeaderOptionsReachTheBoard) {
  auto s = NewGame(2, 1, {{"toll_overpay", "only_without_exact"}, {"bought_cards_pay_tolls", "no"}});
  EXPECT_TRUE(AsAtlantis(*s).board().exact_toll_if_possible);
  EXPECT_FALSE(AsAtlantis(*s).board().bought_cards_pay_tolls);
  auto d = NewGame(2, 1);
  EXPECT_FALSE(AsAtlantis(*d).board().exact_toll_if_possible);
  EXPECT_TRUE(AsAtlantis(*d).board().bought_cards_pay_tolls);
}

TEST(AtlantisOptions, UnknownOptionsAndValuesAreRefused) {
  GameSetup setup;
  setup.ruleset = &DefaultRuleset();
  setup.num_players = 2;
  setup.options = {{"toll_overpay", "sometimes"}};
  absl::StatusOr<std::unique_ptr<State>> bad = AtlantisGame().NewInitialState(setup);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "option toll_overpay: 'sometimes' is not one of minimal, only_without_exact");
  setup.options = {{"bridges", "two"}};
  bad = AtlantisGame().NewInitialState(setup);
  EXPECT_EQ(bad.status().message(),
            "unknown Atlantis option 'bridges'; the options are toll_payment, toll_overpay, bought_cards_pay_tolls");
}

TEST(AtlantisNames, ViolationsNamePlayersByNameAndId) {
  GameSetup setup;
  setup.ruleset = &DefaultRuleset();
  setup.num_players = 2;
  setup.players = {{"ann", "Ann"}, {"bob", "Bob"}};
  auto s = *AtlantisGame().NewInitialState(setup);
  const std::optional<Violation> v = s->Check(1, PassAction());
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->rule, kRuleNotYourTurn);
  EXPECT_EQ(v->detail, "it is Ann's (ann) turn, not Bob's (bob)");
  setup.players = {{"ann", ""}, {"bob", ""}};
  EXPECT_EQ((*AtlantisGame().NewInitialState(setup))->Check(1, PassAction())->detail,
            "it is ann's turn, not bob's");
}

}  // namespace
}  // namespace arbiter::engine::atlantis::testing
