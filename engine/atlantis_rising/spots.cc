// Atlantis Rising: reading the board — spots on the island and the Cosmic Gate
// board (numbered as board.h describes), their names and capacities, roll
// bonuses, what is left in the supplies and the pledges on build sites.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/atlantis_rising/rule_ids.h"
#include "engine/atlantis_rising/state.h"

namespace arbiter::engine::atlantis_rising {

AtlantisRisingState::SpotInfo AtlantisRisingState::Describe(int spot) const {
  SpotInfo info;
  if (spot == kCentre) return info;
  if (spot >= component_base_) {
    info.kind = SpotInfo::kComponent;
    info.index = spot - component_base_;
  } else if (spot >= site_base_) {
    info.kind = SpotInfo::kSite;
    info.index = spot - site_base_;
  } else {
    info.kind = SpotInfo::kTile;
    for (int p = kNumPeninsulas - 1; p >= 0; --p) {
      if (spot >= tile_base_[static_cast<std::size_t>(p)]) {
        info.peninsula = p;
        info.position0 = spot - tile_base_[static_cast<std::size_t>(p)];
        break;
      }
    }
  }
  return info;
}

std::string AtlantisRisingState::SpotName(int spot) const {
  const SpotInfo info = Describe(spot);
  switch (info.kind) {
    case SpotInfo::kCentre:
      return "the centre";
    case SpotInfo::kTile:
      return absl::StrCat(PeninsulaWord(PeninsulaAt(info.peninsula)), " tile ", info.position0 + 1);
    case SpotInfo::kSite:
      return absl::StrCat("build site ", info.index + 1);
    case SpotInfo::kComponent:
      return absl::StrCat("the ", tables_->component(pos_.blueprint[static_cast<std::size_t>(info.index)]).name());
  }
  return "?";
}

int AtlantisRisingState::BlueprintIndex(const std::string& component_id) const {
  const int c = tables_->ComponentIndex(component_id);
  for (std::size_t i = 0; i < pos_.blueprint.size(); ++i) {
    if (pos_.blueprint[i] == c) return static_cast<int>(i);
  }
  return -1;
}

std::optional<Violation> AtlantisRisingState::Locate(const SpotRef& spot, int* index) const {
  switch (spot.kind) {
    case SpotRef::kCentre:
      *index = kCentre;
      return std::nullopt;
    case SpotRef::kTile: {
      const int p = PeninsulaIndex(spot.peninsula);
      const int tiles = tables_->tiles(p);
      if (spot.position < 1 || spot.position > tiles) {
        return Illegal(kRuleUnknownTile, absl::StrCat("there is no ", PeninsulaWord(spot.peninsula), " tile ",
                                                      spot.position, "; that peninsula has tiles 1-", tiles));
      }
      *index = TileSpot(p, spot.position - 1);
      return std::nullopt;
    }
    case SpotRef::kSite:
      if (spot.build_site < 1 || spot.build_site > build_sites()) {
        return Illegal(kRuleUnknownBuildSite, absl::StrCat("there is no build site ", spot.build_site,
                                                           "; this game has sites 1-", build_sites()));
      }
      *index = SiteSpot(spot.build_site - 1);
      return std::nullopt;
    case SpotRef::kComponent: {
      const int b = BlueprintIndex(*spot.component);
      if (b < 0) {
        return Illegal(kRuleUnknownComponent,
                       absl::StrCat("component '", *spot.component, "' is not in this game's Blueprint"));
      }
      const auto& component = tables_->component(pos_.blueprint[static_cast<std::size_t>(b)]);
      if (!pos_.built[static_cast<std::size_t>(b)]) {
        return Illegal(kRuleComponentNotBuilt, absl::StrCat("the ", component.name(), " is not built yet"));
      }
      if (component.discs() == 0) {
        return Illegal(kRuleComponentHasNoDiscs, absl::StrCat("the ", component.name(), " has no discs"));
      }
      *index = ComponentSpot(b);
      return std::nullopt;
    }
    case SpotRef::kNone:
      break;
  }
  return Illegal(kRuleNoSpot, "the action names no spot (tile, centre, build site or component)");
}

int AtlantisRisingState::ResourceLeft(int resource_index) const {
  const std::size_t r = static_cast<std::size_t>(resource_index);
  int held = 0;
  for (const PlayerState& player : pos_.players) held += player.resources[r];
  for (const auto& site : pos_.pledges) {
    for (const Resources& pledged : site) held += pledged[r];
  }
  return std::max(0, tables_->supply(resource_index) - held);
}

int AtlantisRisingState::EnergyLeft() const {
  int held = 0;
  for (const PlayerState& player : pos_.players) held += player.energy;
  return std::max(0, tables_->energy_supply() - held);
}

int AtlantisRisingState::Capacity(int spot) const {
  const SpotInfo info = Describe(spot);
  switch (info.kind) {
    case SpotInfo::kCentre:
      return -1;
    case SpotInfo::kTile:
      return tables_->peninsula(info.peninsula).tiles(info.position0).discs();
    case SpotInfo::kSite:
      return num_players();  // one per player
    case SpotInfo::kComponent:
      return tables_->component(pos_.blueprint[static_cast<std::size_t>(info.index)]).discs();
  }
  return 0;
}

bool AtlantisRisingState::AnyDryTile() const {
  for (int p = 0; p < kNumPeninsulas; ++p) {
    if (pos_.flooded[static_cast<std::size_t>(p)] < tables_->tiles(p)) return true;
  }
  return false;
}

int AtlantisRisingState::RollBonus(int peninsula_index) const {
  int bonus = 0;
  for (std::size_t b = 0; b < pos_.blueprint.size(); ++b) {
    if (!pos_.built[b]) continue;
    for (const auto& effect : tables_->component(pos_.blueprint[b]).effects()) {
      if (effect.kind() == v1::AtlantisRising::ROLL_BONUS &&
          PeninsulaIndex(effect.peninsula()) == peninsula_index) {
        bonus += effect.amount();
      }
    }
  }
  return bonus;
}

bool AtlantisRisingState::CanRecruit(int seat) const {
  const PlayerState& player = pos_.players[static_cast<std::size_t>(seat)];
  return player.reserve > 0 && player.atlanteans < tables_->row(num_players())->max_atlanteans();
}

Resources AtlantisRisingState::SitePool(int site0) const {
  Resources pool{};
  for (const Resources& given : pos_.pledges[static_cast<std::size_t>(site0)]) {
    for (int r = 0; r < kNumResources; ++r) pool[static_cast<std::size_t>(r)] += given[static_cast<std::size_t>(r)];
  }
  return pool;
}

bool AtlantisRisingState::PledgeFits(const Resources& pool) const {
  for (std::size_t b = 0; b < pos_.blueprint.size(); ++b) {
    if (pos_.built[b]) continue;
    const Resources& cost = tables_->cost(pos_.blueprint[b]);
    bool fits = true;
    for (int r = 0; r < kNumResources; ++r) {
      fits = fits && pool[static_cast<std::size_t>(r)] <= cost[static_cast<std::size_t>(r)];
    }
    if (fits) return true;
  }
  return false;
}

int AtlantisRisingState::OverLimitSeat() const {
  const int limit = tables_->rules().hand_limit();
  for (int s = 0; s < num_players(); ++s) {
    if (static_cast<int>(pos_.players[static_cast<std::size_t>(s)].hand.size()) > limit) return s;
  }
  return -1;
}

}  // namespace arbiter::engine::atlantis_rising
