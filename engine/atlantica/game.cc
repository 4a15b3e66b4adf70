#include "engine/atlantica/game.h"

#include "absl/strings/str_cat.h"
#include "engine/atlantica/state.h"
#include "engine/core/status_macros.h"

namespace arbiter::engine::atlantica {

namespace {

using v1::Atlantica;

constexpr int kMaxListed = 8;   // longest list a well-formed action field may hold
constexpr int kMaxAreaNumber = 99;

bool ValidColour(int c) { return c != Atlantica::COLOUR_UNSPECIFIED && Atlantica::Colour_IsValid(c); }
bool ValidPlace(int p) { return p != Atlantica::PLACE_UNSPECIFIED && Atlantica::Place_IsValid(p); }

absl::Status Bad(const std::string& field, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("atlantica.", field, ": ", what));
}

absl::Status CheckPlaceAction(const v1::AtlanticaAction::PlaceAction& a, const std::string& field,
                              const v1::AtlanticaRules& rules) {
  if (!ValidPlace(a.place())) return Bad(field + ".place", "must be DIVING_BOAT, HARBOUR, PUB or RESEARCH_STATION");
  const int tiers = rules.places(a.place() - 1).tiers_size();
  if (a.tier() < 1 || a.tier() > tiers) {
    return Bad(field + ".tier", absl::StrCat("is ", a.tier(), "; the place has tiers 1-", tiers));
  }
  if (a.divers_size() > kMaxListed) return Bad(field + ".divers", "lists too many cards");
  for (int c : a.divers()) {
    if (!ValidColour(c)) return Bad(field + ".divers", absl::StrCat("colour ", c, " is not a diver colour"));
  }
  if (a.joker_size() > kMaxListed) return Bad(field + ".joker", "lists too many cards");
  for (int c : a.joker()) {
    if (!ValidColour(c)) return Bad(field + ".joker", absl::StrCat("colour ", c, " is not a diver colour"));
  }
  if (a.areas_size() > kMaxListed) return Bad(field + ".areas", "lists too many areas");
  for (int area : a.areas()) {
    if (area < 1 || area > kMaxAreaNumber) return Bad(field + ".areas", absl::StrCat("area ", area, " is not a number 1-", kMaxAreaNumber));
  }
  if (a.picks_size() > kMaxListed) return Bad(field + ".picks", "lists too many picks");
  for (int i = 0; i < a.picks_size(); ++i) {
    const auto& pick = a.picks(i);
    const std::string pf = absl::StrCat(field, ".picks[", i, "]");
    if (!ValidPlace(pick.place())) return Bad(pf + ".place", "is not a place");
    if (pick.area() < 1 || pick.area() > kMaxAreaNumber) {
      return Bad(pf + ".area", absl::StrCat("area ", pick.area(), " is not a number 1-", kMaxAreaNumber));
    }
  }
  return absl::OkStatus();
}

class Game final : public engine::Game {
 public:
  std::string_view name() const override { return "atlantica"; }
  std::string_view title() const override { return "Atlantica (Fiore & Happel, Piatnik 2018)"; }
  v1::Action::GameCase action_case() const override { return v1::Action::kAtlantica; }
  v1::Ruleset::DataCase ruleset_case() const override { return v1::Ruleset::kAtlantica; }
  std::vector<std::string_view> BuiltinRulesets() const override { return {DefaultRulesetText()}; }

  absl::Status ValidateRuleset(const v1::Ruleset& ruleset) const override {
    if (ruleset.data_case() != v1::Ruleset::kAtlantica) return absl::InvalidArgumentError("atlantica: data is not set");
    return ValidateRules(ruleset.atlantica());
  }
  int MinPlayers(const v1::Ruleset& ruleset) const override { return ruleset.atlantica().min_players(); }
  int MaxPlayers(const v1::Ruleset& ruleset) const override { return ruleset.atlantica().max_players(); }

  absl::Status CheckShape(const v1::Action& action, const v1::Ruleset& ruleset) const override {
    if (action.game_case() != v1::Action::kAtlantica) return absl::InvalidArgumentError("atlantica: the action is not set");
    const auto& a = action.atlantica();
    switch (a.kind_case()) {
      case v1::AtlanticaAction::kDrawBreath:
        return absl::OkStatus();
      case v1::AtlanticaAction::kTurn: {
        const auto& actions = a.turn().actions();
        if (actions.size() > kMaxListed) return Bad("turn.actions", absl::StrCat("lists ", actions.size(), " actions"));
        for (int i = 0; i < actions.size(); ++i) {
          ARBITER_RETURN_IF_ERROR(
              CheckPlaceAction(actions[i], absl::StrCat("turn.actions[", i, "]"), ruleset.atlantica()));
        }
        return absl::OkStatus();
      }
      default:
        return absl::InvalidArgumentError("atlantica: neither `turn` nor `draw_breath` is set");
    }
  }

  absl::StatusOr<std::unique_ptr<State>> NewInitialState(const GameSetup& setup) const override {
    if (setup.ruleset == nullptr || setup.ruleset->data_case() != v1::Ruleset::kAtlantica) {
      return absl::InvalidArgumentError("atlantica: no Atlantica ruleset given");
    }
    ARBITER_ASSIGN_OR_RETURN(Rules rules, CompileRules(setup.ruleset->atlantica()));
    if (setup.num_players < rules.min_players || setup.num_players > rules.max_players) {
      return absl::InvalidArgumentError(absl::StrCat("atlantica: ", setup.num_players, " players; the ruleset allows ",
                                                     rules.min_players, "-", rules.max_players));
    }
    ARBITER_RETURN_IF_ERROR(ResolveOptions("Atlantica", Options(*setup.ruleset), setup.options).status());
    auto shared = std::make_shared<const Rules>(std::move(rules));
    Rng rng(setup.seed);
    Board board = NewBoard(*shared, setup.num_players, rng);
    auto state = std::make_unique<AtlanticaState>(std::move(shared), std::move(board), rng);
    state->set_players(PlayersOf(setup));
    return std::unique_ptr<State>(std::move(state));
  }
};

}  // namespace

const engine::Game& AtlanticaGame() {
  static const Game* const game = new Game();
  return *game;
}

}  // namespace arbiter::engine::atlantica
