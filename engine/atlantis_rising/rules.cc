#include "engine/atlantis_rising/rules.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/status_macros.h"

namespace arbiter::engine::atlantis_rising {
namespace {

absl::Status Bad(const std::string& field, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat("atlantis_rising.", field, ": ", why));
}

absl::Status InRange(const std::string& field, int64_t value, int64_t low, int64_t high) {
  if (value < low || value > high) {
    return Bad(field, absl::StrCat("is ", value, "; allowed ", low, "..", high));
  }
  return absl::OkStatus();
}

bool IsId(const std::string& id) {
  if (id.empty() || id.size() > 40) return false;
  for (char c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

bool ValidPeninsula(Peninsula p) { return p >= 1 && p <= kNumPeninsulas; }
bool ValidResource(Resource r) { return r >= 1 && r <= kNumResources; }

// `allowed` lists the effect kinds this place may use.
absl::Status CheckEffect(const std::string& field, const Rules::Effect& effect,
                         const std::set<EffectKind>& allowed) {
  if (allowed.count(effect.kind()) == 0) {
    return Bad(field + ".kind", absl::StrCat("effect kind ", v1::AtlantisRising::EffectKind_Name(effect.kind()),
                                             " is not allowed here"));
  }
  ARBITER_RETURN_IF_ERROR(InRange(field + ".amount", effect.amount(), 1,
                                  effect.kind() == v1::AtlantisRising::DRY_TILE ? 1 : 20));
  if (effect.kind() == v1::AtlantisRising::GAIN_RESOURCE && !ValidResource(effect.resource())) {
    return Bad(field + ".resource", "GAIN_RESOURCE needs a resource");
  }
  if (effect.kind() == v1::AtlantisRising::ROLL_BONUS && !ValidPeninsula(effect.peninsula())) {
    return Bad(field + ".peninsula", "ROLL_BONUS needs a peninsula");
  }
  return absl::OkStatus();
}

absl::Status CheckPeninsulas(const Rules& rules) {
  if (rules.peninsulas_size() != kNumPeninsulas) {
    return Bad("peninsulas", absl::StrCat("has ", rules.peninsulas_size(), " entries; the island has 6"));
  }
  std::set<int> seen;
  for (int i = 0; i < rules.peninsulas_size(); ++i) {
    const auto& p = rules.peninsulas(i);
    const std::string f = absl::StrCat("peninsulas[", i, "]");
    if (!ValidPeninsula(p.peninsula()) || !seen.insert(p.peninsula()).second) {
      return Bad(f + ".peninsula", "must name each of the six peninsulas once");
    }
    if (p.action() < v1::AtlantisRising::GATHER || p.action() > v1::AtlantisRising::LIBRARY) {
      return Bad(f + ".action", "is not set");
    }
    const bool rolls = p.action() == v1::AtlantisRising::GATHER || p.action() == v1::AtlantisRising::RECRUIT;
    ARBITER_RETURN_IF_ERROR(InRange(f + ".dice", p.dice(), rolls ? 1 : 0, rolls ? 4 : 0));
    if (p.action() == v1::AtlantisRising::GATHER && !ValidResource(p.resource())) {
      return Bad(f + ".resource", "a GATHER peninsula needs a resource");
    }
    ARBITER_RETURN_IF_ERROR(InRange(f + ".tiles size", p.tiles_size(), 1, 12));
    for (int t = 0; t < p.tiles_size(); ++t) {
      const std::string tf = absl::StrCat(f, ".tiles[", t, "]");
      const int max_value = p.action() == v1::AtlantisRising::LIBRARY ? rules.library_draw() : 99;
      ARBITER_RETURN_IF_ERROR(InRange(tf + ".value", p.tiles(t).value(), 0, max_value));
      if (p.action() == v1::AtlantisRising::RECRUIT) {
        ARBITER_RETURN_IF_ERROR(InRange(tf + ".discs", p.tiles(t).discs(), 2, 2));
      } else {
        ARBITER_RETURN_IF_ERROR(InRange(tf + ".discs", p.tiles(t).discs(), 1, 8));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckPlayerCounts(const Rules& rules) {
  ARBITER_RETURN_IF_ERROR(InRange("min_players", rules.min_players(), 1, kMaxSeats));
  ARBITER_RETURN_IF_ERROR(InRange("max_players", rules.max_players(), rules.min_players(), kMaxSeats));
  std::set<int> seen;
  for (int i = 0; i < rules.player_counts_size(); ++i) {
    const auto& row = rules.player_counts(i);
    const std::string f = absl::StrCat("player_counts[", i, "]");
    ARBITER_RETURN_IF_ERROR(InRange(f + ".players", row.players(), rules.min_players(), rules.max_players()));
    if (!seen.insert(row.players()).second) return Bad(f + ".players", "is listed twice");
    ARBITER_RETURN_IF_ERROR(InRange(f + ".max_atlanteans", row.max_atlanteans(), 1, 20));
    ARBITER_RETURN_IF_ERROR(InRange(f + ".atlanteans", row.atlanteans(), 1, row.max_atlanteans()));
    ARBITER_RETURN_IF_ERROR(InRange(f + ".misfortunes_per_round", row.misfortunes_per_round(), 0, 20));
    ARBITER_RETURN_IF_ERROR(InRange(f + ".build_sites", row.build_sites(), 1, 7));
    ARBITER_RETURN_IF_ERROR(InRange(f + ".energy_each_round", row.energy_each_round(), 0, 10));
  }
  for (int n = rules.min_players(); n <= rules.max_players(); ++n) {
    if (seen.count(n) == 0) return Bad("player_counts", absl::StrCat("has no row for ", n, " players"));
  }
  return absl::OkStatus();
}

absl::Status CheckCards(const Rules& rules) {
  std::set<std::string> ids;
  int artifacts = 0;
  for (int i = 0; i < rules.library_cards_size(); ++i) {
    const auto& card = rules.library_cards(i);
    const std::string f = absl::StrCat("library_cards[", i, "]");
    if (!IsId(card.id())) return Bad(f + ".id", "must be 1-40 characters of [a-z0-9-]");
    if (!ids.insert(card.id()).second) return Bad(f + ".id", absl::StrCat("'", card.id(), "' is used twice"));
    ARBITER_RETURN_IF_ERROR(InRange(f + ".count", card.count(), 1, 50));
    if (card.artifact()) artifacts += card.count();
    ARBITER_RETURN_IF_ERROR(CheckEffect(f + ".effect", card.effect(),
                                        {v1::AtlantisRising::GAIN_ENERGY, v1::AtlantisRising::GAIN_RESOURCE,
                                         v1::AtlantisRising::GAIN_RESOURCE_CHOICE,
                                         v1::AtlantisRising::CANCEL_FLOOD, v1::AtlantisRising::DRY_TILE}));
  }
  ARBITER_RETURN_IF_ERROR(InRange("artifacts_in_game", rules.artifacts_in_game(), 0, artifacts));
  std::array<int, 4> box{};
  for (int i = 0; i < rules.misfortunes_size(); ++i) {
    const auto& card = rules.misfortunes(i);
    const std::string f = absl::StrCat("misfortunes[", i, "]");
    if (card.kind() < v1::AtlantisRising::FLOOD || card.kind() > v1::AtlantisRising::CONTROLLED_FLOOD) {
      return Bad(f + ".kind", "is not set");
    }
    if (card.kind() == v1::AtlantisRising::FLOOD && !ValidPeninsula(card.peninsula())) {
      return Bad(f + ".peninsula", "a FLOOD card needs a peninsula");
    }
    ARBITER_RETURN_IF_ERROR(InRange(f + ".count", card.count(), 0, 100));
    box[static_cast<std::size_t>(card.kind())] += card.count();
  }
  if (rules.difficulties_size() == 0) return Bad("difficulties", "needs at least one entry");
  std::set<std::string> names;
  for (int i = 0; i < rules.difficulties_size(); ++i) {
    const auto& d = rules.difficulties(i);
    const std::string f = absl::StrCat("difficulties[", i, "]");
    if (d.name().empty() || !names.insert(d.name()).second) return Bad(f + ".name", "must be set and unique");
    ARBITER_RETURN_IF_ERROR(InRange(f + ".calm_seas", d.calm_seas(), 0, box[v1::AtlantisRising::CALM_SEAS]));
    ARBITER_RETURN_IF_ERROR(InRange(f + ".controlled_floods", d.controlled_floods(), 0,
                                    box[v1::AtlantisRising::CONTROLLED_FLOOD]));
    if (box[v1::AtlantisRising::FLOOD] + d.calm_seas() + d.controlled_floods() == 0) {
      return Bad(f, "gives an empty misfortune deck");
    }
  }
  return absl::OkStatus();
}

absl::Status CheckComponents(const Rules& rules) {
  std::map<std::string, const Rules::Component*> by_id;
  int cores = 0;
  for (int i = 0; i < rules.components_size(); ++i) {
    const auto& c = rules.components(i);
    const std::string f = absl::StrCat("components[", i, "]");
    if (!IsId(c.id())) return Bad(f + ".id", "must be 1-40 characters of [a-z0-9-]");
    if (!by_id.emplace(c.id(), &c).second) return Bad(f + ".id", absl::StrCat("'", c.id(), "' is used twice"));
    if (c.power_core()) ++cores;
    if (!c.power_core() && c.letter().empty()) return Bad(f + ".letter", "is empty");
    int total = 0;
    for (int k = 0; k < c.cost_size(); ++k) {
      const std::string cf = absl::StrCat(f, ".cost[", k, "]");
      const Resource r = c.cost(k).resource();
      if (!ValidResource(r) || r == v1::AtlantisRising::ORE) {
        return Bad(cf + ".resource", "must be GOLD, CRYSTAL or ATLANTIUM (ore builds nothing)");
      }
      ARBITER_RETURN_IF_ERROR(InRange(cf + ".amount", c.cost(k).amount(), 1, 30));
      total += c.cost(k).amount();
    }
    if (total == 0) return Bad(f + ".cost", "is empty");
    ARBITER_RETURN_IF_ERROR(InRange(f + ".discs", c.discs(), 0, 8));
    if (c.discs() > 0) {
      ARBITER_RETURN_IF_ERROR(CheckEffect(f + ".disc_effect", c.disc_effect(),
                                          {v1::AtlantisRising::GAIN_ENERGY, v1::AtlantisRising::GAIN_RESOURCE,
                                           v1::AtlantisRising::GAIN_RESOURCE_CHOICE}));
    }
    for (int k = 0; k < c.effects_size(); ++k) {
      ARBITER_RETURN_IF_ERROR(CheckEffect(absl::StrCat(f, ".effects[", k, "]"), c.effects(k),
                                          {v1::AtlantisRising::ROLL_BONUS,
                                           v1::AtlantisRising::ENERGY_EACH_ROUND}));
    }
  }
  if (cores != 1) return Bad("components", "needs exactly one power_core");
  if (rules.blueprints_size() == 0) return Bad("blueprints", "needs at least one entry");
  std::set<std::string> names;
  for (int i = 0; i < rules.blueprints_size(); ++i) {
    const auto& b = rules.blueprints(i);
    const std::string f = absl::StrCat("blueprints[", i, "]");
    if (b.name().empty() || !names.insert(b.name()).second) return Bad(f + ".name", "must be set and unique");
    std::set<std::string> fixed;
    for (const std::string& id : b.components()) {
      auto it = by_id.find(id);
      if (it == by_id.end()) return Bad(f + ".components", absl::StrCat("unknown component '", id, "'"));
      if (it->second->power_core()) return Bad(f + ".components", "the Power Core is always in; do not list it");
      if (!fixed.insert(id).second) return Bad(f + ".components", absl::StrCat("'", id, "' is listed twice"));
    }
    std::set<std::string> letters;
    for (const auto& draw : b.draws()) {
      if (!letters.insert(draw.letter()).second) return Bad(f + ".draws", "a letter is listed twice");
      int available = 0;
      for (const auto& [id, c] : by_id) {
        if (!c->power_core() && c->letter() == draw.letter() && fixed.count(id) == 0) ++available;
      }
      ARBITER_RETURN_IF_ERROR(InRange(absl::StrCat(f, ".draws[", draw.letter(), "].count"), draw.count(), 1, available));
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::string PeninsulaWord(Peninsula p) {
  static const char* const kWords[] = {"?", "mountains", "hills", "forests", "forges", "cities", "libraries"};
  return ValidPeninsula(p) ? kWords[p] : "?";
}

std::string ResourceWord(Resource r) {
  static const char* const kWords[] = {"?", "ore", "gold", "crystal", "Atlantium"};
  return ValidResource(r) ? kWords[r] : "?";
}

std::string ResourcesText(const Resources& amounts) {
  std::vector<std::string> parts;
  for (int i = 0; i < kNumResources; ++i) {
    if (amounts[static_cast<std::size_t>(i)] != 0) {
      parts.push_back(absl::StrCat(amounts[static_cast<std::size_t>(i)], " ", ResourceWord(ResourceAt(i))));
    }
  }
  return parts.empty() ? "nothing" : absl::StrJoin(parts, ", ");
}

absl::Status ValidateRules(const Rules& rules) {
  ARBITER_RETURN_IF_ERROR(CheckPlayerCounts(rules));
  ARBITER_RETURN_IF_ERROR(InRange("library_draw", rules.library_draw(), 1, 10));
  ARBITER_RETURN_IF_ERROR(CheckPeninsulas(rules));
  ARBITER_RETURN_IF_ERROR(InRange("centre_energy", rules.centre_energy(), 0, 10));
  ARBITER_RETURN_IF_ERROR(InRange("starting_energy", rules.starting_energy(), 0, 100));
  ARBITER_RETURN_IF_ERROR(InRange("reserve_per_player", rules.reserve_per_player(), 0, 20));
  ARBITER_RETURN_IF_ERROR(InRange("wrath_values size", rules.wrath_values_size(), 1, 20));
  for (int i = 0; i < rules.wrath_values_size(); ++i) {
    ARBITER_RETURN_IF_ERROR(InRange(absl::StrCat("wrath_values[", i, "]"), rules.wrath_values(i), 0, 36));
  }
  // The last level repeats every round, so a positive value makes every game end.
  if (rules.wrath_values(rules.wrath_values_size() - 1) < 1) {
    return Bad("wrath_values", "the last value must be at least 1, or the island might never sink");
  }
  ARBITER_RETURN_IF_ERROR(InRange("die_sides", rules.die_sides(), 2, 20));
  ARBITER_RETURN_IF_ERROR(InRange("hand_limit", rules.hand_limit(), 1, 30));
  ARBITER_RETURN_IF_ERROR(InRange("extra_keep_cost", rules.extra_keep_cost(), 0, 10));
  ARBITER_RETURN_IF_ERROR(InRange("flooded_peninsula_floods", rules.flooded_peninsula_floods(), 1, 10));
  if (rules.has_supplies()) {
    const Rules::Supplies& s = rules.supplies();
    ARBITER_RETURN_IF_ERROR(InRange("supplies.ore", s.ore(), 1, 1000));
    ARBITER_RETURN_IF_ERROR(InRange("supplies.gold", s.gold(), 1, 1000));
    ARBITER_RETURN_IF_ERROR(InRange("supplies.crystal", s.crystal(), 1, 1000));
    ARBITER_RETURN_IF_ERROR(InRange("supplies.atlantium", s.atlantium(), 1, 1000));
    ARBITER_RETURN_IF_ERROR(InRange("supplies.energy", s.energy(), 1, 1000));
  }
  ARBITER_RETURN_IF_ERROR(CheckCards(rules));
  return CheckComponents(rules);
}

Tables::Tables(const Rules& rules) : rules_(rules) {
  if (rules_.has_supplies()) {
    const Rules::Supplies& s = rules_.supplies();
    supply_ = {s.ore(), s.gold(), s.crystal(), s.atlantium()};
    energy_supply_ = s.energy();
  }
  for (int i = 0; i < rules_.peninsulas_size(); ++i) {
    peninsula_spec_[static_cast<std::size_t>(PeninsulaIndex(rules_.peninsulas(i).peninsula()))] = i;
  }
  for (int i = 0; i < rules_.library_cards_size(); ++i) cards_[rules_.library_cards(i).id()] = i;
  for (int i = 0; i < rules_.components_size(); ++i) {
    components_[rules_.components(i).id()] = i;
    Resources cost{};
    for (const auto& item : rules_.components(i).cost()) {
      cost[static_cast<std::size_t>(ResourceIndex(item.resource()))] += item.amount();
    }
    costs_.push_back(cost);
  }
}

int Tables::CardIndex(const std::string& id) const {
  auto it = cards_.find(id);
  return it == cards_.end() ? -1 : it->second;
}

int Tables::ComponentIndex(const std::string& id) const {
  auto it = components_.find(id);
  return it == components_.end() ? -1 : it->second;
}

const Rules::PlayerCount* Tables::row(int players) const {
  for (const auto& r : rules_.player_counts()) {
    if (r.players() == players) return &r;
  }
  return nullptr;
}

int Tables::WrathValue(int level) const {
  const int last = rules_.wrath_values_size() - 1;
  return rules_.wrath_values(level < last ? level : last);
}

}  // namespace arbiter::engine::atlantis_rising
