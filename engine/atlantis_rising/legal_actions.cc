// Atlantis Rising: the list of legal actions, the seats that may act and the
// canonical spelling of an action.
//
// LegalActions() lists every legal action once per acting seat, with kept
// cards sorted by id and without choice fields an effect does not read;
// Canonical() maps any accepted spelling onto that form.
#include <algorithm>
#include <set>

#include "engine/atlantis_rising/state.h"

namespace arbiter::engine::atlantis_rising {
namespace {

using Action = v1::AtlantisRisingAction;

std::size_t At(int i) { return static_cast<std::size_t>(i); }

Action* Add(std::vector<Move>& moves, Seat seat) {
  Move& move = moves.emplace_back();
  move.seat = seat;
  return move.action.mutable_atlantis_rising();
}

}  // namespace

void AtlantisRisingState::AddCardMoves(Seat seat, std::vector<Move>& moves) const {
  std::set<int> seen;
  for (int card : pos_.players[At(seat)].hand) {
    if (!seen.insert(card).second) continue;
    const auto& effect = tables_->card(card).effect();
    const std::string& id = tables_->card(card).id();
    if (effect.kind() == v1::AtlantisRising::GAIN_RESOURCE_CHOICE) {
      for (int r = 0; r < kNumResources; ++r) {
        Action* a = Add(moves, seat);
        a->mutable_play()->set_card(id);
        a->mutable_play()->set_resource(ResourceAt(r));
      }
    } else if (effect.kind() == v1::AtlantisRising::DRY_TILE) {
      for (int p = 0; p < kNumPeninsulas; ++p) {
        if (pos_.flooded[At(p)] == 0) continue;
        Action* a = Add(moves, seat);
        a->mutable_play()->set_card(id);
        a->mutable_play()->set_peninsula(PeninsulaAt(p));
      }
    } else {
      Add(moves, seat)->mutable_play()->set_card(id);
    }
  }
}

namespace {

template <typename M>
void SetSpot(const AtlantisRisingState& state, int spot, M* out) {
  const int sites = state.build_sites();
  if (spot == AtlantisRisingState::kCentre) {
    out->set_centre(true);
    return;
  }
  if (spot >= state.ComponentSpot(0)) {
    const int b = spot - state.ComponentSpot(0);
    out->set_component(state.tables().component(state.position().blueprint[At(b)]).id());
    return;
  }
  if (spot >= state.SiteSpot(0) && spot < state.SiteSpot(sites)) {
    out->set_build_site(spot - state.SiteSpot(0) + 1);
    return;
  }
  for (int p = kNumPeninsulas - 1; p >= 0; --p) {
    if (spot >= state.TileSpot(p, 0)) {
      out->set_peninsula(PeninsulaAt(p));
      out->set_position(spot - state.TileSpot(p, 0) + 1);
      return;
    }
  }
}

}  // namespace

std::vector<Move> AtlantisRisingState::LegalActions() const {
  std::vector<Move> moves;
  if (IsTerminal()) return moves;
  moves.reserve(64);
  if (pos_.pending.kind != Decision::kNone) {
    AddDecisionMoves(moves);
    return moves;
  }
  if (const int over = OverLimitSeat(); over >= 0) {
    std::set<int> seen;
    for (int card : pos_.players[At(over)].hand) {
      if (seen.insert(card).second) Add(moves, over)->mutable_discard()->set_card(tables_->card(card).id());
    }
    AddCardMoves(over, moves);
    return moves;
  }
  if (pos_.phase == Phase::kPlacement) {
    AddPlacementMoves(moves);
    return moves;
  }
  // The actions phase (the other phases only wait on decisions).
  for (int s = 0; s < num_players(); ++s) {
    for (int spot = 0; spot < static_cast<int>(pos_.spots.size()); ++spot) {
      if (pos_.spots[At(spot)].waiting[At(s)] > 0) AddActMoves(s, spot, moves);
    }
    AddCardMoves(s, moves);
  }
  return moves;
}

void AtlantisRisingState::AddDecisionMoves(std::vector<Move>& moves) const {
  const Pending& pending = pos_.pending;
  switch (pending.kind) {
    case Decision::kFloods:
      for (int s = 0; s < num_players(); ++s) {
        if (pending.seat >= 0 && s != pending.seat) continue;
        for (int p = 0; p < kNumPeninsulas; ++p) {
          if (pos_.flooded[At(p)] < tables_->tiles(p)) {
            Add(moves, s)->mutable_flood()->set_peninsula(PeninsulaAt(p));
          }
        }
      }
      return;
    case Decision::kRoll:
      for (int s = 0; s < num_players(); ++s) {
        if (s != pending.seat && s != pending.partner) continue;
        for (int k = 0; k <= pos_.players[At(s)].energy; ++k) Add(moves, s)->mutable_boost()->set_energy(k);
      }
      return;
    case Decision::kKeep:
      AddKeepMoves(moves);
      return;
    case Decision::kNone:
      return;
  }
}

void AtlantisRisingState::AddKeepMoves(std::vector<Move>& moves) const {
  const Pending& pending = pos_.pending;
  const auto& drawn = pending.drawn;
  const int n = static_cast<int>(drawn.size());
  std::set<std::vector<std::string>> kept;
  for (int mask = 0; mask < (1 << n); ++mask) {
    std::vector<std::string> ids;
    for (int i = 0; i < n; ++i) {
      if (mask & (1 << i)) ids.push_back(tables_->card(drawn[At(i)]).id());
    }
    std::sort(ids.begin(), ids.end());
    const int extra = std::max(0, static_cast<int>(ids.size()) - pending.free_keeps);
    if (extra * tables_->rules().extra_keep_cost() > pos_.players[At(pending.seat)].energy) continue;
    kept.insert(std::move(ids));
  }
  for (const auto& ids : kept) {
    Action* a = Add(moves, pending.seat);
    a->mutable_keep();
    for (const std::string& id : ids) a->mutable_keep()->add_cards(id);
  }
}

void AtlantisRisingState::AddPlacementMoves(std::vector<Move>& moves) const {
  const int num_spots = static_cast<int>(pos_.spots.size());
  bool all_placed = true;
  for (int s = 0; s < num_players(); ++s) {
    if (pos_.players[At(s)].pool == 0) continue;
    all_placed = false;
    for (int spot = 0; spot < num_spots; ++spot) {
      const SpotInfo info = Describe(spot);
      if (info.kind == SpotInfo::kTile && !Dry(info.peninsula, info.position0)) continue;
      if (info.kind == SpotInfo::kComponent && !pos_.built[At(info.index)]) continue;
      const SpotState& here = pos_.spots[At(spot)];
      if (info.kind == SpotInfo::kSite && here.placed[At(s)] > 0) continue;
      const int capacity = Capacity(spot);
      if (capacity >= 0 && here.Placed() >= capacity) continue;
      SetSpot(*this, spot, Add(moves, s)->mutable_place());
    }
  }
  for (int s = 0; s < num_players(); ++s) {
    if (all_placed) Add(moves, s)->mutable_finish_placement();
    AddCardMoves(s, moves);
  }
}

void AtlantisRisingState::AddActMoves(Seat seat, int spot, std::vector<Move>& moves) const {
  const SpotInfo info = Describe(spot);
  if (info.kind == SpotInfo::kSite) {
    AddSiteMoves(seat, info.index, moves);
    return;
  }
  const bool choice =
      info.kind == SpotInfo::kComponent &&
      tables_->component(pos_.blueprint[At(info.index)]).disc_effect().kind() ==
          v1::AtlantisRising::GAIN_RESOURCE_CHOICE;
  for (int r = choice ? 0 : kNumResources - 1; r < kNumResources; ++r) {
    Action* a = Add(moves, seat);
    SetSpot(*this, spot, a->mutable_act());
    if (choice) a->mutable_act()->set_resource(ResourceAt(r));
  }
}

void AtlantisRisingState::AddSiteMoves(Seat seat, int site0, std::vector<Move>& moves) const {
  const int site = site0 + 1;
  Resources pool = SitePool(site0);
  for (int r = ResourceIndex(v1::AtlantisRising::GOLD); r < kNumResources; ++r) {
    if (pos_.players[At(seat)].resources[At(r)] == 0) continue;
    ++pool[At(r)];
    if (PledgeFits(pool)) {
      Action* a = Add(moves, seat);
      a->mutable_pledge()->set_build_site(site);
      a->mutable_pledge()->set_resource(ResourceAt(r));
    }
    --pool[At(r)];
  }
  for (std::size_t b = 0; b < pos_.blueprint.size(); ++b) {
    if (pos_.built[b] || tables_->cost(pos_.blueprint[b]) != pool) continue;
    Action* a = Add(moves, seat);
    a->mutable_build()->set_build_site(site);
    a->mutable_build()->set_component(tables_->component(pos_.blueprint[b]).id());
  }
  Add(moves, seat)->mutable_abandon()->set_build_site(site);
}

bool AtlantisRisingState::HasPlayableCard(Seat seat) const {
  for (int card : pos_.players[At(seat)].hand) {
    if (tables_->card(card).effect().kind() != v1::AtlantisRising::DRY_TILE) return true;
    for (int p = 0; p < kNumPeninsulas; ++p) {
      if (pos_.flooded[At(p)] > 0) return true;
    }
  }
  return false;
}

// The seats of LegalActions(), computed without building the actions.
std::vector<Seat> AtlantisRisingState::SeatsToAct() const {
  std::vector<Seat> seats;
  if (IsTerminal()) return seats;
  const Pending& pending = pos_.pending;
  switch (pending.kind) {
    case Decision::kFloods:
    case Decision::kKeep:
      if (pending.seat >= 0) return {pending.seat};
      for (int s = 0; s < num_players(); ++s) seats.push_back(s);
      return seats;
    case Decision::kRoll:
      for (int s = 0; s < num_players(); ++s) {
        if (s == pending.seat || s == pending.partner) seats.push_back(s);
      }
      return seats;
    case Decision::kNone:
      break;
  }
  if (const int over = OverLimitSeat(); over >= 0) return {over};
  bool all_placed = true;
  for (const PlayerState& player : pos_.players) all_placed = all_placed && player.pool == 0;
  for (int s = 0; s < num_players(); ++s) {
    bool may = HasPlayableCard(s);
    if (pos_.phase == Phase::kPlacement) {
      may = may || all_placed || pos_.players[At(s)].pool > 0;
    } else {
      for (const SpotState& spot : pos_.spots) may = may || spot.waiting[At(s)] > 0;
    }
    if (may) seats.push_back(s);
  }
  return seats;
}

v1::Action AtlantisRisingState::Canonical(Seat /*seat*/, const v1::Action& action) const {
  v1::Action canonical = action;
  canonical.clear_player();
  if (!canonical.has_atlantis_rising()) return canonical;
  Action& a = *canonical.mutable_atlantis_rising();
  if (a.has_keep()) {
    auto* cards = a.mutable_keep()->mutable_cards();
    std::sort(cards->begin(), cards->end());
  } else if (a.has_act()) {
    bool choice = false;
    if (a.act().where_case() == Action::Act::kComponent) {
      const int c = tables_->ComponentIndex(a.act().component());
      choice = c >= 0 && tables_->component(c).disc_effect().kind() == v1::AtlantisRising::GAIN_RESOURCE_CHOICE;
    }
    if (!choice) a.mutable_act()->clear_resource();
  } else if (a.has_play()) {
    const int card = tables_->CardIndex(a.play().card());
    const EffectKind kind = card >= 0 ? tables_->card(card).effect().kind() : v1::AtlantisRising::EFFECT_KIND_UNSPECIFIED;
    if (kind != v1::AtlantisRising::GAIN_RESOURCE_CHOICE) a.mutable_play()->clear_resource();
    if (kind != v1::AtlantisRising::DRY_TILE) a.mutable_play()->clear_peninsula();
  }
  return canonical;
}

}  // namespace arbiter::engine::atlantis_rising
