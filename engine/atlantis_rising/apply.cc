// Atlantis Rising: applying legal actions and running the automatic steps
// between them (misfortune draws, the ends of phases and rounds).
#include <algorithm>

#include "engine/atlantis_rising/state.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using Action = v1::AtlantisRisingAction;

std::size_t At(int i) { return static_cast<std::size_t>(i); }

}  // namespace

void AtlantisRisingState::GainResource(Seat seat, int resource_index, int n) {
  pos_.players[At(seat)].resources[At(resource_index)] += std::min(n, ResourceLeft(resource_index));
}

void AtlantisRisingState::GainEnergy(Seat seat, int n) {
  pos_.players[At(seat)].energy += std::min(n, EnergyLeft());
}

void AtlantisRisingState::DoApply(Seat seat, const v1::Action& action) {
  const Action& a = action.atlantis_rising();
  PlayerState& player = pos_.players[At(seat)];
  switch (a.kind_case()) {
    case Action::kPlace: {
      int spot = 0;
      Locate(SpotOf(a.place()), &spot);
      --player.pool;
      ++pos_.spots[At(spot)].placed[At(seat)];
      ++pos_.spots[At(spot)].waiting[At(seat)];
      break;
    }
    case Action::kFinishPlacement:
      pos_.phase = Phase::kMisfortunes;
      pos_.misfortunes_drawn = 0;
      break;
    case Action::kFlood:
      Flood(PeninsulaIndex(a.flood().peninsula()));
      if (--pos_.pending.floods == 0) pos_.pending = Pending{};
      break;
    case Action::kAct:
      DoAct(seat, a.act());
      break;
    case Action::kBoost: {
      const int energy = a.boost().energy();
      player.energy -= energy;
      pos_.pending.total += energy;
      const Pending& p = pos_.pending;
      const bool can_boost = pos_.players[At(p.seat)].energy > 0 ||
                             (p.partner >= 0 && pos_.players[At(p.partner)].energy > 0);
      if (p.total >= p.target) {
        ResolveRoll(true);
      } else if (energy == 0 || !can_boost) {
        ResolveRoll(false);
      }
      break;
    }
    case Action::kKeep:
      DoKeep(seat, a.keep());
      break;
    case Action::kPledge: {
      const std::size_t r = At(ResourceIndex(a.pledge().resource()));
      --player.resources[r];
      ++pos_.pledges[At(a.pledge().build_site() - 1)][At(seat)][r];
      break;
    }
    case Action::kBuild:
      DoBuild(a.build());
      break;
    case Action::kAbandon:
      ClearSite(a.abandon().build_site() - 1, /*return_pledges=*/true);
      break;
    case Action::kPlay:
      DoPlay(seat, a.play());
      break;
    case Action::kDiscard: {
      const int card = tables_->CardIndex(a.discard().card());
      RemoveFromHand(seat, card);
      pos_.library_discard.push_back(card);
      break;
    }
    case Action::KIND_NOT_SET:
      break;
  }
  Advance();
}

void AtlantisRisingState::Advance() {
  const int misfortunes = tables_->row(num_players())->misfortunes_per_round();
  while (pos_.phase != Phase::kOver) {
    if (pos_.pending.kind == Decision::kFloods && !AnyDryTile()) {
      // Every peninsula is under water: a flood that is due takes the centre.
      while (pos_.pending.floods > 0 && pos_.flood_shield > 0) {
        --pos_.flood_shield;
        --pos_.pending.floods;
      }
      if (pos_.pending.floods > 0) {
        pos_.centre_flooded = true;
        pos_.phase = Phase::kOver;
        return;
      }
      pos_.pending = Pending{};
    }
    if (pos_.pending.kind != Decision::kNone || OverLimitSeat() >= 0) return;
    switch (pos_.phase) {
      case Phase::kPlacement:
        return;
      case Phase::kMisfortunes:
        if (pos_.misfortunes_drawn < misfortunes) {
          DrawMisfortune();
        } else {
          pos_.phase = Phase::kActions;
        }
        break;
      case Phase::kActions:
        for (const SpotState& spot : pos_.spots) {
          if (spot.Waiting() > 0) return;
        }
        EndActions();
        break;
      case Phase::kWrath:
        EndRound();
        break;
      case Phase::kOver:
        return;
    }
  }
}

void AtlantisRisingState::DrawMisfortune() {
  const int drawer = (pos_.start_seat + pos_.misfortunes_drawn) % num_players();
  ++pos_.misfortunes_drawn;
  if (pos_.misfortune_deck.empty()) {
    if (!tables_->rules().reshuffle_misfortunes()) return;
    pos_.misfortune_deck.swap(pos_.misfortune_discard);
    rng_.Shuffle(pos_.misfortune_deck);
  }
  if (pos_.misfortune_deck.empty()) return;
  const int card = pos_.misfortune_deck.front();
  pos_.misfortune_deck.erase(pos_.misfortune_deck.begin());
  pos_.misfortune_discard.push_back(card);
  switch (MisfortuneKindOf(card)) {
    case v1::AtlantisRising::FLOOD: {
      const int p = PeninsulaIndex(MisfortunePeninsulaOf(card));
      if (pos_.flooded[At(p)] < tables_->tiles(p)) {
        Flood(p);
      } else {
        RequestFloods(tables_->rules().flooded_peninsula_floods(), drawer);
      }
      break;
    }
    case v1::AtlantisRising::CONTROLLED_FLOOD:
      RequestFloods(1, drawer);
      break;
    default:  // Calm Seas
      break;
  }
}

void AtlantisRisingState::RequestFloods(int floods, int seat) {
  if (floods <= 0) return;
  pos_.pending = Pending{};
  pos_.pending.kind = Decision::kFloods;
  pos_.pending.seat = seat;
  pos_.pending.floods = floods;
}

void AtlantisRisingState::Flood(int peninsula_index) {
  if (pos_.flood_shield > 0) {
    --pos_.flood_shield;
    return;
  }
  const int tile = pos_.flooded[At(peninsula_index)]++;
  SpotState& spot = pos_.spots[At(TileSpot(peninsula_index, tile))];
  for (int s = 0; s < num_players(); ++s) {
    // Atlanteans on the tile go back to their pool without acting.
    pos_.players[At(s)].pool += spot.waiting[At(s)];
  }
  spot = SpotState{};
}

void AtlantisRisingState::EndActions() {
  for (SpotState& spot : pos_.spots) spot = SpotState{};
  for (PlayerState& player : pos_.players) player.pool = player.atlanteans;
  pos_.phase = Phase::kWrath;
  RequestFloods(tables_->WrathValue(pos_.wrath_level), -1);
}

void AtlantisRisingState::EndRound() {
  pos_.wrath_level = std::min(pos_.wrath_level + 1, tables_->max_wrath_level());
  ++pos_.round;
  pos_.start_seat = (pos_.start_seat + 1) % num_players();
  pos_.flood_shield = 0;
  pos_.misfortunes_drawn = 0;
  int energy = tables_->row(num_players())->energy_each_round();
  for (std::size_t b = 0; b < pos_.blueprint.size(); ++b) {
    if (!pos_.built[b]) continue;
    for (const auto& effect : tables_->component(pos_.blueprint[b]).effects()) {
      if (effect.kind() == v1::AtlantisRising::ENERGY_EACH_ROUND) energy += effect.amount();
    }
  }
  // From the start player on, while the supply lasts.
  for (int i = 0; i < num_players(); ++i) GainEnergy((pos_.start_seat + i) % num_players(), energy);
  pos_.phase = Phase::kPlacement;
}

void AtlantisRisingState::DoAct(Seat seat, const Action::Act& act) {
  int spot = 0;
  Locate(SpotOf(act), &spot);
  SpotState& here = pos_.spots[At(spot)];
  PlayerState& player = pos_.players[At(seat)];
  --here.waiting[At(seat)];
  const SpotInfo info = Describe(spot);
  if (info.kind == SpotInfo::kCentre) {
    GainEnergy(seat, tables_->rules().centre_energy());
    return;
  }
  if (info.kind == SpotInfo::kComponent) {
    const auto& effect = tables_->component(pos_.blueprint[At(info.index)]).disc_effect();
    ApplyEffect(seat, effect, act.resource(), v1::AtlantisRising::PENINSULA_UNSPECIFIED);
    return;
  }
  const auto& spec = tables_->peninsula(info.peninsula);
  const int value = spec.tiles(info.position0).value();
  auto roll = [&](int dice) {
    int total = 0;
    for (int d = 0; d < dice; ++d) total += rng_.Roll(tables_->rules().die_sides());
    return total + RollBonus(info.peninsula);
  };
  Pending pending;
  pending.kind = Decision::kRoll;
  pending.seat = seat;
  pending.spot = spot;
  pending.target = value;
  switch (spec.action()) {
    case v1::AtlantisRising::GATHER:
      pending.total = roll(spec.dice());
      if (pending.total >= value) {
        GainResource(seat, ResourceIndex(spec.resource()), 1);
      } else if (player.energy > 0) {
        pos_.pending = pending;
      }
      return;
    case v1::AtlantisRising::FORGE:
      if (player.resources[At(ResourceIndex(v1::AtlantisRising::ORE))] > 0) {
        --player.resources[At(ResourceIndex(v1::AtlantisRising::ORE))];
        GainResource(seat, ResourceIndex(v1::AtlantisRising::ATLANTIUM), value);
      }
      return;
    case v1::AtlantisRising::LIBRARY: {
      auto& deck = pos_.library_deck;
      const std::size_t n = std::min(deck.size(), At(tables_->rules().library_draw()));
      if (n == 0) return;
      Pending keep;
      keep.kind = Decision::kKeep;
      keep.seat = seat;
      keep.drawn.assign(deck.begin(), deck.begin() + static_cast<std::ptrdiff_t>(n));
      keep.free_keeps = value;
      deck.erase(deck.begin(), deck.begin() + static_cast<std::ptrdiff_t>(n));
      pos_.pending = std::move(keep);
      return;
    }
    case v1::AtlantisRising::RECRUIT: {
      int partner = here.waiting[At(seat)] > 0 ? seat : -1;
      for (int s = 0; s < num_players() && partner < 0; ++s) {
        if (here.waiting[At(s)] > 0) partner = s;
      }
      if (partner < 0) return;  // a lone Atlantean cannot activate a city
      --here.waiting[At(partner)];
      pending.partner = partner;
      pending.total = roll(spec.dice()) + tables_->WrathValue(pos_.wrath_level);
      if (pending.total >= value) {
        Recruit(seat, partner);
      } else if (player.energy > 0 || pos_.players[At(partner)].energy > 0) {
        pos_.pending = pending;
      }
      return;
    }
    default:
      return;
  }
}

void AtlantisRisingState::ResolveRoll(bool success) {
  const Pending p = pos_.pending;
  pos_.pending = Pending{};
  if (!success) return;
  const SpotInfo info = Describe(p.spot);
  const auto& spec = tables_->peninsula(info.peninsula);
  if (spec.action() == v1::AtlantisRising::RECRUIT) {
    Recruit(p.seat, p.partner);
  } else {
    GainResource(p.seat, ResourceIndex(spec.resource()), 1);
  }
}

void AtlantisRisingState::Recruit(int seat, int partner) {
  const int to = CanRecruit(seat) ? seat : (CanRecruit(partner) ? partner : -1);
  if (to < 0) return;
  PlayerState& player = pos_.players[At(to)];
  --player.reserve;
  ++player.atlanteans;
  ++player.pool;
}

void AtlantisRisingState::ApplyEffect(Seat seat, const Rules::Effect& effect, Resource resource,
                                      Peninsula peninsula) {
  switch (effect.kind()) {
    case v1::AtlantisRising::GAIN_ENERGY:
      GainEnergy(seat, effect.amount());
      break;
    case v1::AtlantisRising::GAIN_RESOURCE:
      GainResource(seat, ResourceIndex(effect.resource()), effect.amount());
      break;
    case v1::AtlantisRising::GAIN_RESOURCE_CHOICE:
      GainResource(seat, ResourceIndex(resource), effect.amount());
      break;
    case v1::AtlantisRising::CANCEL_FLOOD:
      pos_.flood_shield += effect.amount();
      break;
    case v1::AtlantisRising::DRY_TILE:
      --pos_.flooded[At(PeninsulaIndex(peninsula))];
      break;
    default:
      break;
  }
}

void AtlantisRisingState::DoPlay(Seat seat, const Action::Play& play) {
  const int card = tables_->CardIndex(play.card());
  RemoveFromHand(seat, card);
  pos_.library_discard.push_back(card);
  ApplyEffect(seat, tables_->card(card).effect(), play.resource(), play.peninsula());
}

void AtlantisRisingState::DoKeep(Seat seat, const Action::Keep& keep) {
  PlayerState& player = pos_.players[At(seat)];
  std::vector<int> left = pos_.pending.drawn;
  const int extra = std::max(0, keep.cards_size() - pos_.pending.free_keeps);
  player.energy -= extra * tables_->rules().extra_keep_cost();
  for (const std::string& id : keep.cards()) {
    const int card = tables_->CardIndex(id);
    left.erase(std::find(left.begin(), left.end(), card));
    player.hand.push_back(card);
  }
  pos_.library_discard.insert(pos_.library_discard.end(), left.begin(), left.end());
  pos_.pending = Pending{};
}

void AtlantisRisingState::DoBuild(const Action::Build& build) {
  const int site0 = build.build_site() - 1;
  const int b = BlueprintIndex(build.component());
  for (int s = 0; s < num_players(); ++s) {
    for (int r = 0; r < kNumResources; ++r) {
      pos_.players[At(s)].given[At(r)] += pos_.pledges[At(site0)][At(s)][At(r)];
    }
  }
  pos_.built[At(b)] = true;
  ClearSite(site0, /*return_pledges=*/false);
  if (std::all_of(pos_.built.begin(), pos_.built.end(), [](bool x) { return x; })) {
    pos_.won = true;
    pos_.phase = Phase::kOver;
  }
}

void AtlantisRisingState::ClearSite(int site0, bool return_pledges) {
  for (int s = 0; s < num_players(); ++s) {
    Resources& given = pos_.pledges[At(site0)][At(s)];
    if (return_pledges) {
      for (int r = 0; r < kNumResources; ++r) pos_.players[At(s)].resources[At(r)] += given[At(r)];
    }
    given = Resources{};
  }
  SpotState& spot = pos_.spots[At(SiteSpot(site0))];
  spot.waiting = {};
}

void AtlantisRisingState::RemoveFromHand(Seat seat, int card) {
  auto& hand = pos_.players[At(seat)].hand;
  hand.erase(std::find(hand.begin(), hand.end(), card));
}

}  // namespace arbiter::engine::atlantis_rising
