// Atlantis (Leo Colovini, Amigo 2009): the Game — metadata, built-in ruleset
// (atlantis_amigo_2009.textproto), ruleset validation, action shape checks and
// new games. Rules: docs/rules/atlantis.md; docs/atlantis.md.
//
// Options (GameSetup::options; Options() gives each with its meaning, the
// first value being the default):
//   toll_payment = tiles_and_cards | tiles_or_cards
//   toll_overpay = minimal | only_without_exact
//   bought_cards_pay_tolls = yes | no
// Immutable and thread-safe.
#ifndef ARBITER_ENGINE_ATLANTIS_GAME_H_
#define ARBITER_ENGINE_ATLANTIS_GAME_H_

#include "engine/core/game.h"

namespace arbiter::engine::atlantis {

class AtlantisGame final : public Game {
 public:
  std::string_view name() const override { return "atlantis"; }
  std::string_view title() const override { return "Atlantis (Colovini, Amigo 2009)"; }
  v1::Action::GameCase action_case() const override { return v1::Action::kAtlantis; }
  v1::Ruleset::DataCase ruleset_case() const override { return v1::Ruleset::kAtlantis; }
  std::vector<std::string_view> BuiltinRulesets() const override;
  absl::Status ValidateRuleset(const v1::Ruleset& ruleset) const override;
  int MinPlayers(const v1::Ruleset& ruleset) const override { return ruleset.atlantis().min_players(); }
  int MaxPlayers(const v1::Ruleset& ruleset) const override { return ruleset.atlantis().max_players(); }
  absl::Status CheckShape(const v1::Action& action, const v1::Ruleset& ruleset) const override;
  std::vector<OptionSpec> Options(const v1::Ruleset& ruleset) const override;
  absl::StatusOr<std::unique_ptr<State>> NewInitialState(const GameSetup& setup) const override;
};

// The registered instance.
const Game& AtlantisGameInstance();

// The text of the built-in ruleset "atlantis-amigo-2009".
std::string_view AtlantisAmigo2009Text();

}  // namespace arbiter::engine::atlantis

#endif  // ARBITER_ENGINE_ATLANTIS_GAME_H_
