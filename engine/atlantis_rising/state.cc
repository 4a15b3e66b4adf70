// Atlantis Rising: the setup of a new game from the seed, and Clone.
//
// The order of the seeded draws is documented in state.h.
#include "engine/atlantis_rising/state.h"

namespace arbiter::engine::atlantis_rising {

AtlantisRisingState::AtlantisRisingState(std::shared_ptr<const Tables> tables, int num_players,
                                         uint64_t seed, int difficulty, int blueprint)
    : State(num_players), tables_(std::move(tables)), rng_(seed) {
  const Rules& rules = tables_->rules();
  const Rules::PlayerCount& row = *tables_->row(num_players);

  int next = 1;
  for (int p = 0; p < kNumPeninsulas; ++p) {
    tile_base_[static_cast<std::size_t>(p)] = next;
    next += tables_->tiles(p);
  }
  site_base_ = next;
  component_base_ = site_base_ + row.build_sites();

  pos_.players.resize(static_cast<std::size_t>(num_players));
  for (PlayerState& player : pos_.players) {
    player.atlanteans = row.atlanteans();
    player.pool = row.atlanteans();
    player.reserve = rules.reserve_per_player();
  }
  for (int seat = 0; seat < num_players; ++seat) GainEnergy(seat, rules.starting_energy() + row.energy_each_round());

  // 1. Artifacts.
  std::vector<int> artifacts;
  std::vector<int> library;
  for (int i = 0; i < rules.library_cards_size(); ++i) {
    const auto& card = rules.library_cards(i);
    for (int k = 0; k < card.count(); ++k) (card.artifact() ? artifacts : library).push_back(i);
  }
  rng_.Shuffle(artifacts);
  artifacts.resize(static_cast<std::size_t>(rules.artifacts_in_game()));
  // 2. Library deck.
  library.insert(library.end(), artifacts.begin(), artifacts.end());
  rng_.Shuffle(library);
  pos_.library_deck = std::move(library);

  // 3. Misfortune deck.
  int calm_kind = v1::AtlantisRising::CALM_SEAS;
  int controlled_kind = v1::AtlantisRising::CONTROLLED_FLOOD;
  for (const auto& card : rules.misfortunes()) {
    if (card.kind() != v1::AtlantisRising::FLOOD) continue;
    for (int k = 0; k < card.count(); ++k) {
      pos_.misfortune_deck.push_back(MisfortuneCode(card.kind(), card.peninsula()));
    }
  }
  const auto& level = rules.difficulties(difficulty);
  for (int k = 0; k < level.calm_seas(); ++k) pos_.misfortune_deck.push_back(MisfortuneCode(calm_kind, 0));
  for (int k = 0; k < level.controlled_floods(); ++k) {
    pos_.misfortune_deck.push_back(MisfortuneCode(controlled_kind, 0));
  }
  rng_.Shuffle(pos_.misfortune_deck);

  // 4. Blueprint.
  const auto& plan = rules.blueprints(blueprint);
  for (const std::string& id : plan.components()) pos_.blueprint.push_back(tables_->ComponentIndex(id));
  for (const auto& draw : plan.draws()) {
    std::vector<int> candidates;
    for (int i = 0; i < rules.components_size(); ++i) {
      const auto& c = rules.components(i);
      if (c.power_core() || c.letter() != draw.letter()) continue;
      bool taken = false;
      for (int b : pos_.blueprint) taken = taken || b == i;
      if (!taken) candidates.push_back(i);
    }
    rng_.Shuffle(candidates);
    candidates.resize(static_cast<std::size_t>(draw.count()));
    pos_.blueprint.insert(pos_.blueprint.end(), candidates.begin(), candidates.end());
  }
  for (int i = 0; i < rules.components_size(); ++i) {
    if (rules.components(i).power_core()) pos_.blueprint.push_back(i);
  }
  pos_.built.assign(pos_.blueprint.size(), false);

  pos_.spots.resize(static_cast<std::size_t>(component_base_) + pos_.blueprint.size());
  pos_.pledges.resize(static_cast<std::size_t>(row.build_sites()));
}

std::unique_ptr<State> AtlantisRisingState::Clone() const {
  return std::make_unique<AtlantisRisingState>(*this);
}

}  // namespace arbiter::engine::atlantis_rising
