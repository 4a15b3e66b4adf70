#include "engine/atlantis_rising/game.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantis_rising/rules.h"
#include "engine/atlantis_rising/shape.h"
#include "engine/atlantis_rising/state.h"
#include "engine/core/status_macros.h"

namespace arbiter::engine::atlantis_rising {
namespace {

class AtlantisRising final : public Game {
 public:
  std::string_view name() const override { return "atlantis-rising"; }
  std::string_view title() const override { return "Atlantis Rising (Elf Creek Games 2019)"; }
  bool cooperative() const override { return true; }
  // A Keep names the library cards kept, which only their holder has seen
  // (docs/atlantis-rising.md, "What is hidden from whom"); how many shows.
  v1::Action OpenPart(const v1::Action& action) const override {
    v1::Action open = action;
    if (open.atlantis_rising().has_keep()) open.mutable_atlantis_rising()->mutable_keep()->clear_cards();
    return open;
  }
  v1::Action::GameCase action_case() const override { return v1::Action::kAtlantisRising; }
  v1::Ruleset::DataCase ruleset_case() const override { return v1::Ruleset::kAtlantisRising; }
  std::vector<std::string_view> BuiltinRulesets() const override { return {DefaultRulesetText()}; }

  absl::Status ValidateRuleset(const v1::Ruleset& ruleset) const override {
    if (ruleset.data_case() != v1::Ruleset::kAtlantisRising) {
      return absl::InvalidArgumentError("atlantis_rising: the ruleset holds no Atlantis Rising data");
    }
    return ValidateRules(ruleset.atlantis_rising());
  }
  int MinPlayers(const v1::Ruleset& ruleset) const override { return ruleset.atlantis_rising().min_players(); }
  int MaxPlayers(const v1::Ruleset& ruleset) const override { return ruleset.atlantis_rising().max_players(); }

  absl::Status CheckShape(const v1::Action& action, const v1::Ruleset& ruleset) const override {
    return CheckActionShape(action, ruleset.atlantis_rising());
  }

  absl::StatusOr<std::unique_ptr<State>> NewInitialState(const GameSetup& setup) const override {
    if (setup.ruleset == nullptr || setup.ruleset->data_case() != v1::Ruleset::kAtlantisRising) {
      return absl::InvalidArgumentError("atlantis-rising needs an Atlantis Rising ruleset");
    }
    const Rules& rules = setup.ruleset->atlantis_rising();
    if (setup.num_players < rules.min_players() || setup.num_players > rules.max_players()) {
      return absl::InvalidArgumentError(absl::StrCat("atlantis-rising is for ", rules.min_players(), "-",
                                                     rules.max_players(), " players, not ", setup.num_players));
    }
    int difficulty = 0;
    int blueprint = 0;
    for (const auto& [key, value] : setup.options) {
      if (key == "difficulty") {
        ARBITER_ASSIGN_OR_RETURN(difficulty, FindOption(key, value, rules.difficulties()));
      } else if (key == "blueprint") {
        ARBITER_ASSIGN_OR_RETURN(blueprint, FindOption(key, value, rules.blueprints()));
      } else {
        return absl::InvalidArgumentError(absl::StrCat("unknown option '", key.substr(0, 64),
                                                       "' for atlantis-rising; known: difficulty, blueprint"));
      }
    }
    auto tables = std::make_shared<const Tables>(rules);
    auto state =
        std::make_unique<AtlantisRisingState>(std::move(tables), setup.num_players, setup.seed, difficulty, blueprint);
    state->set_players(PlayersOf(setup));
    return std::unique_ptr<State>(std::move(state));
  }

  std::vector<OptionSpec> Options(const v1::Ruleset& ruleset) const override {
    const Rules& rules = ruleset.atlantis_rising();
    OptionSpec difficulty{"difficulty", "Calm Seas and Controlled Floods shuffled into the misfortune deck", {}};
    for (const auto& d : rules.difficulties()) {
      difficulty.values.push_back({d.name(), absl::StrCat(d.calm_seas(), " Calm Seas, ", d.controlled_floods(),
                                                          " Controlled Floods")});
    }
    OptionSpec blueprint{"blueprint", "the components to build besides the Power Core", {}};
    for (const auto& b : rules.blueprints()) {
      std::vector<std::string> parts(b.components().begin(), b.components().end());
      for (const auto& draw : b.draws()) {
        parts.push_back(absl::StrCat(draw.count(), " drawn from the ", draw.letter(), " components"));
      }
      blueprint.values.push_back({b.name(), absl::StrJoin(parts, ", ")});
    }
    return {difficulty, blueprint};
  }

 private:
  template <typename List>
  static absl::StatusOr<int> FindOption(const std::string& key, const std::string& value, const List& list) {
    std::vector<std::string> names;
    for (int i = 0; i < list.size(); ++i) {
      if (list.Get(i).name() == value) return i;
      names.push_back(list.Get(i).name());
    }
    return absl::InvalidArgumentError(absl::StrCat("option ", key, " '", value.substr(0, 64),
                                                   "' is unknown; this ruleset has: ", absl::StrJoin(names, ", ")));
  }
};

}  // namespace

const Game& AtlantisRisingGame() {
  static const AtlantisRising* const game = new AtlantisRising();
  return *game;
}

}  // namespace arbiter::engine::atlantis_rising
