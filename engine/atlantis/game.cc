#include "engine/atlantis/game.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/atlantis/rules.h"
#include "engine/atlantis/state.h"
#include "engine/core/status_macros.h"

namespace arbiter::engine::atlantis {
namespace {

absl::Status Bad(const std::string& field, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("atlantis.", field, ": ", what));
}

absl::Status CheckItem(const std::string& field, int item) {
  if (ItemIndex(item) < 0) return Bad(field, absl::StrCat("item ", item, " is unset or unknown"));
  return absl::OkStatus();
}

absl::Status CheckTile(const std::string& field, const v1::AtlantisTile& tile, int lo, int hi) {
  ARBITER_RETURN_IF_ERROR(CheckItem(field + ".item", tile.item()));
  if (tile.value() < lo || tile.value() > hi) {
    return Bad(field + ".value", absl::StrCat(tile.value(), " is outside ", lo, "-", hi));
  }
  return absl::OkStatus();
}

int PathPositions(const v1::AtlantisRules& r) {
  int positions = r.water_between();
  for (const auto* runs : {&r.layout_a(), &r.layout_b()}) {
    for (const auto& run : *runs) positions += run.stacks();
  }
  return positions;
}

absl::Status CheckLength(const std::string& field, int size) {
  if (size > kMaxListLength) return Bad(field, absl::StrCat(size, " entries; at most ", kMaxListLength));
  return absl::OkStatus();
}

class Atlantis final : public Game {
 public:
  std::string_view name() const override { return "atlantis"; }
  std::string_view title() const override { return "Atlantis (Colovini, Amigo 2009)"; }
  v1::Action::GameCase action_case() const override { return v1::Action::kAtlantis; }
  v1::Ruleset::DataCase ruleset_case() const override { return v1::Ruleset::kAtlantis; }
  std::vector<std::string_view> BuiltinRulesets() const override { return {DefaultRulesetText()}; }
  absl::Status ValidateRuleset(const v1::Ruleset& ruleset) const override { return ParseConfig(ruleset).status(); }
  int MinPlayers(const v1::Ruleset& ruleset) const override { return ruleset.atlantis().min_players(); }
  int MaxPlayers(const v1::Ruleset& ruleset) const override { return ruleset.atlantis().max_players(); }
  absl::Status CheckShape(const v1::Action& action, const v1::Ruleset& ruleset) const override;
  std::vector<OptionSpec> Options(const v1::Ruleset& ruleset) const override;
  absl::StatusOr<std::unique_ptr<State>> NewInitialState(const GameSetup& setup) const override;
};

absl::Status Atlantis::CheckShape(const v1::Action& action, const v1::Ruleset& ruleset) const {
  if (action.game_case() != v1::Action::kAtlantis) {
    return absl::InvalidArgumentError("action: not an Atlantis action (field atlantis is not set)");
  }
  const v1::AtlantisRules& r = ruleset.atlantis();
  int lo = kMaxValue;
  int hi = 1;
  for (const auto* specs : {&r.tiles_a(), &r.tiles_b()}) {
    for (const auto& spec : *specs) {
      lo = std::min(lo, spec.value());
      hi = std::max(hi, spec.value());
    }
  }
  const v1::AtlantisAction& a = action.atlantis();
  switch (a.kind_case()) {
    case v1::AtlantisAction::KIND_NOT_SET:
      return Bad("kind", "none of buy, bridge, move, pass is set");
    case v1::AtlantisAction::kBuy:
      return CheckTile("buy.tile", a.buy().tile(), lo, hi);
    case v1::AtlantisAction::kBridge: {
      const int positions = PathPositions(r);
      if (a.bridge().position() < 1 || a.bridge().position() > positions) {
        return Bad("bridge.position", absl::StrCat(a.bridge().position(), " is outside 1-", positions));
      }
      return absl::OkStatus();
    }
    case v1::AtlantisAction::kMove: {
      const v1::AtlantisAction::Move& m = a.move();
      if (m.figure() < 1 || m.figure() > r.figures_per_player()) {
        return Bad("move.figure", absl::StrCat(m.figure(), " is outside 1-", r.figures_per_player()));
      }
      if (m.bridge() < 0 || m.bridge() > PathPositions(r)) {
        return Bad("move.bridge", absl::StrCat(m.bridge(), " is outside 0-", PathPositions(r)));
      }
      ARBITER_RETURN_IF_ERROR(CheckLength("move.cards", m.cards_size()));
      for (int i = 0; i < m.cards_size(); ++i) {
        ARBITER_RETURN_IF_ERROR(CheckItem(absl::StrCat("move.cards[", i, "]"), m.cards(i)));
      }
      ARBITER_RETURN_IF_ERROR(CheckLength("move.toll.tiles", m.toll().tiles_size()));
      for (int i = 0; i < m.toll().tiles_size(); ++i) {
        ARBITER_RETURN_IF_ERROR(CheckTile(absl::StrCat("move.toll.tiles[", i, "]"), m.toll().tiles(i), lo, hi));
      }
      ARBITER_RETURN_IF_ERROR(CheckLength("move.toll.cards", m.toll().cards_size()));
      for (int i = 0; i < m.toll().cards_size(); ++i) {
        ARBITER_RETURN_IF_ERROR(CheckItem(absl::StrCat("move.toll.cards[", i, "]"), m.toll().cards(i)));
      }
      return absl::OkStatus();
    }
    case v1::AtlantisAction::kPass:
      return absl::OkStatus();
  }
  return Bad("kind", "unknown action kind");
}

absl::StatusOr<std::unique_ptr<State>> Atlantis::NewInitialState(const GameSetup& setup) const {
  if (setup.ruleset == nullptr) return absl::InvalidArgumentError("no ruleset");
  ARBITER_ASSIGN_OR_RETURN(Config config, ParseConfig(*setup.ruleset));
  if (setup.num_players < config.min_players || setup.num_players > config.max_players) {
    return absl::InvalidArgumentError(absl::StrCat("Atlantis is played by ", config.min_players, "-",
                                                   config.max_players, " players, not ", setup.num_players));
  }
  ARBITER_ASSIGN_OR_RETURN(const auto options, ResolveOptions("Atlantis", Options(*setup.ruleset), setup.options));
  Variant variant;
  variant.toll_payment =
      options.at("toll_payment") == "tiles_or_cards" ? TollPayment::kTilesOrCards : TollPayment::kTilesAndCards;
  variant.exact_toll_if_possible = options.at("toll_overpay") == "only_without_exact";
  variant.bought_cards_pay_tolls = options.at("bought_cards_pay_tolls") == "yes";
  auto state = AtlantisState::NewGame(std::make_shared<const Config>(std::move(config)), setup.seed,
                                      setup.num_players, variant);
  state->set_players(PlayersOf(setup));
  return state;
}

std::vector<OptionSpec> Atlantis::Options(const v1::Ruleset& /*ruleset*/) const {
  return {
      {"toll_payment",
       "what a toll may be paid with",
       {{"tiles_and_cards", "tiles and cards together (Italian rulebook: \"le tessere e/o le carte\")"},
        {"tiles_or_cards", "all tiles or all cards, not both (Czech rulebook: \"buď ... a nebo\")"}}},
      {"toll_overpay",
       "when a payment may be worth more than the toll (no change is given either way)",
       {{"minimal", "any payment none of whose tiles or cards could be left out (Italian rulebook: "
                    "\"se una tessera supera il valore richiesto, non riceverà resto\")"},
        {"only_without_exact", "more than the toll only when the player cannot pay it exactly (Czech rulebook: "
                               "\"Pokud hráč nemá přesný počet karet nebo destiček, zaplatí víc\")"}}},
      {"bought_cards_pay_tolls",
       "whether cards bought at the start of this turn may pay its tolls",
       {{"yes", "the rulebooks allow what the player held at the start of the turn, and buying is part of "
                "that start"},
        {"no", "only cards held before the turn began (a strict reading of \"na začátku tohoto tahu\" / "
               "\"all'inizio del turno\")"}}},
  };
}

}  // namespace

const Game& AtlantisGame() {
  static const Atlantis* const game = new Atlantis();
  return *game;
}

}  // namespace arbiter::engine::atlantis
