#include "tests/engine/atlantis_rising/position_builder.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include "engine/atlantis_rising/game.h"
#include "engine/core/rng.h"

namespace arbiter::engine::atlantis_rising::testing {
namespace {

using Action = v1::AtlantisRisingAction;

v1::Action Wrap(const Action& inner) {
  v1::Action action;
  *action.mutable_atlantis_rising() = inner;
  return action;
}

int CardOrDie(const AtlantisRisingState& state, const std::string& id) {
  const int card = state.tables().CardIndex(id);
  EXPECT_GE(card, 0) << "unknown card " << id;
  return card;
}

}  // namespace

Spot Tile(Peninsula peninsula, int position) {
  Spot spot;
  spot.peninsula = peninsula;
  spot.position = position;
  return spot;
}

Spot Centre() {
  Spot spot;
  spot.centre = true;
  return spot;
}

Spot Site(int build_site) {
  Spot spot;
  spot.build_site = build_site;
  return spot;
}

Spot OnComponent(const std::string& id) {
  Spot spot;
  spot.component = id;
  return spot;
}

namespace {

template <typename M>
void SetWhere(const Spot& spot, M* out) {
  if (spot.peninsula != AtlantisRising::PENINSULA_UNSPECIFIED || spot.position != 0) {
    out->set_peninsula(spot.peninsula);
    out->set_position(spot.position);
  } else if (spot.centre) {
    out->set_centre(true);
  } else if (spot.build_site != 0) {
    out->set_build_site(spot.build_site);
  } else if (!spot.component.empty()) {
    out->set_component(spot.component);
  }
}

}  // namespace

v1::Action PlaceOn(const Spot& spot) {
  Action a;
  SetWhere(spot, a.mutable_place());
  return Wrap(a);
}

v1::Action FinishPlacement() {
  Action a;
  a.mutable_finish_placement();
  return Wrap(a);
}

v1::Action FloodAction(Peninsula peninsula) {
  Action a;
  a.mutable_flood()->set_peninsula(peninsula);
  return Wrap(a);
}

v1::Action ActOn(const Spot& spot, Resource choice) {
  Action a;
  SetWhere(spot, a.mutable_act());
  a.mutable_act()->set_resource(choice);
  return Wrap(a);
}

v1::Action Boost(int energy) {
  Action a;
  a.mutable_boost()->set_energy(energy);
  return Wrap(a);
}

v1::Action Keep(const std::vector<std::string>& cards) {
  Action a;
  a.mutable_keep();
  for (const auto& id : cards) a.mutable_keep()->add_cards(id);
  return Wrap(a);
}

v1::Action Pledge(int build_site, Resource resource) {
  Action a;
  a.mutable_pledge()->set_build_site(build_site);
  a.mutable_pledge()->set_resource(resource);
  return Wrap(a);
}

v1::Action Build(int build_site, const std::string& component) {
  Action a;
  a.mutable_build()->set_build_site(build_site);
  a.mutable_build()->set_component(component);
  return Wrap(a);
}

v1::Action Abandon(int build_site) {
  Action a;
  a.mutable_abandon()->set_build_site(build_site);
  return Wrap(a);
}

v1::Action Play(const std::string& card, Resource resource, Peninsula peninsula) {
  Action a;
  a.mutable_play()->set_card(card);
  a.mutable_play()->set_resource(resource);
  a.mutable_play()->set_peninsula(peninsula);
  return Wrap(a);
}

v1::Action Discard(const std::string& card) {
  Action a;
  a.mutable_discard()->set_card(card);
  return Wrap(a);
}

v1::Ruleset ParseRulesetOrDie(const std::string& text) {
  v1::Ruleset ruleset;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &ruleset));
  absl::Status valid = AtlantisRisingGame().ValidateRuleset(ruleset);
  EXPECT_TRUE(valid.ok()) << valid;
  return ruleset;
}

const v1::Ruleset& DefaultRuleset() {
  static const v1::Ruleset* const ruleset = new v1::Ruleset(ParseRulesetOrDie(std::string(DefaultRulesetText())));
  return *ruleset;
}

uint64_t SeedRollingFirst(int face, int sides) {
  for (uint64_t seed = 1;; ++seed) {
    Rng rng(seed);
    if (rng.Roll(sides) == face) return seed;
  }
}

Table::Table(int players, uint64_t seed, std::map<std::string, std::string> options, const v1::Ruleset* ruleset) {
  GameSetup setup;
  setup.ruleset = ruleset != nullptr ? ruleset : &DefaultRuleset();
  setup.seed = seed;
  setup.num_players = players;
  setup.options = std::move(options);
  auto state = AtlantisRisingGame().NewInitialState(setup);
  EXPECT_TRUE(state.ok()) << state.status();
  state_.reset(static_cast<AtlantisRisingState*>(state->release()));
}

std::optional<Violation> Table::Do(int seat, const v1::Action& action) { return state_->Apply(seat - 1, action); }

void Table::Must(int seat, const v1::Action& action) {
  std::optional<Violation> violation = Do(seat, action);
  ASSERT_FALSE(violation.has_value()) << violation->rule << ": " << violation->detail << "\n"
                                      << action.DebugString() << state_->ToString();
}

std::string Table::RuleOf(int seat, const v1::Action& action) {
  std::optional<Violation> violation = Do(seat, action);
  return violation ? violation->rule : "";
}

Table& Table::ActionsWith(const std::vector<std::pair<int, Spot>>& placed) {
  for (const auto& [seat, spot] : placed) Must(seat, PlaceOn(spot));
  for (PlayerState& player : edit().players) player.pool = 0;
  edit().phase = Phase::kActions;
  return *this;
}

Table& Table::Flooded(Peninsula peninsula, int tiles) {
  edit().flooded[static_cast<std::size_t>(PeninsulaIndex(peninsula))] = tiles;
  return *this;
}

Table& Table::Energy(int seat, int energy) {
  edit_player(seat).energy = energy;
  return *this;
}

Table& Table::Give(int seat, ::arbiter::engine::atlantis_rising::Resource r, int amount) {
  edit_player(seat).resources[static_cast<std::size_t>(ResourceIndex(r))] += amount;
  return *this;
}

Table& Table::Hand(int seat, const std::vector<std::string>& cards) {
  auto& hand = edit_player(seat).hand;
  hand.clear();
  for (const auto& id : cards) hand.push_back(CardOrDie(*state_, id));
  return *this;
}

Table& Table::LibraryDeck(const std::vector<std::string>& cards) {
  edit().library_deck.clear();
  for (const auto& id : cards) edit().library_deck.push_back(CardOrDie(*state_, id));
  return *this;
}

Table& Table::MisfortuneDeck(const std::vector<std::pair<AtlantisRising::Misfortune, Peninsula>>& cards) {
  edit().misfortune_deck.clear();
  for (const auto& [kind, peninsula] : cards) edit().misfortune_deck.push_back(MisfortuneCode(kind, peninsula));
  return *this;
}

Table& Table::Built(const std::string& component) {
  const int b = state_->BlueprintIndex(component);
  EXPECT_GE(b, 0) << component << " is not in the Blueprint";
  if (b >= 0) edit().built[static_cast<std::size_t>(b)] = true;
  return *this;
}

Table& Table::DiceSeed(uint64_t seed) {
  state_->ReseedForTest(seed);
  return *this;
}

}  // namespace arbiter::engine::atlantis_rising::testing
