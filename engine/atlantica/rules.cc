#include "engine/atlantica/rules.h"

#include "absl/strings/str_cat.h"
#include "engine/core/status_macros.h"

namespace arbiter::engine::atlantica {
namespace {

using v1::Atlantica;
using v1::AtlanticaRules;

absl::Status Bad(const std::string& field, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("atlantica.", field, ": ", what));
}

bool ValidColour(int value) {
  return value != Atlantica::COLOUR_UNSPECIFIED && Atlantica::Colour_IsValid(value);
}

absl::Status CheckCount(const std::string& field, int value, int lo, int hi) {
  if (value < lo || value > hi) {
    return Bad(field, absl::StrCat("is ", value, "; must be between ", lo, " and ", hi));
  }
  return absl::OkStatus();
}

absl::Status ValidateTier(const AtlanticaRules& data, int place, int t, const AtlanticaRules::Tier& tier) {
  const std::string field = absl::StrCat("places[", place, "].tiers[", t, "]");
  if (tier.slots_size() < 1 || tier.slots_size() > kMaxSlots) {
    return Bad(field + ".slots", absl::StrCat("has ", tier.slots_size(), " slots; 1 to ", kMaxSlots, " allowed"));
  }
  for (int s = 0; s < tier.slots_size(); ++s) {
    if (tier.slots(s).accepts().empty()) return Bad(absl::StrCat(field, ".slots[", s, "]"), "accepts no colour");
    for (int c : tier.slots(s).accepts()) {
      if (!ValidColour(c)) return Bad(absl::StrCat(field, ".slots[", s, "].accepts"), "unknown colour");
    }
  }
  const int places_with_cards = 3;
  switch (data.places(place).place()) {
    case Atlantica::DIVING_BOAT:
    case Atlantica::RESEARCH_STATION: {
      const int areas = data.places(place).place() == Atlantica::DIVING_BOAT ? data.treasure_areas()
                                                                             : data.research_areas();
      ARBITER_RETURN_IF_ERROR(CheckCount(field + ".reach", tier.reach(), 1, areas));
      return CheckCount(field + ".take", tier.take(), 1, tier.reach());
    }
    case Atlantica::HARBOUR:
      return CheckCount(field + ".stack", tier.stack(), 1, data.ships_size());
    case Atlantica::PUB:
      if (tier.drink_picks() != 0) return CheckCount(field + ".drink_picks", tier.drink_picks(), 1, places_with_cards);
      return CheckCount(field + ".draw", tier.draw(), 1, 100);
    default:
      return Bad(field, "unknown place");
  }
}

absl::Status ValidateDivers(const AtlanticaRules& d) {
  ARBITER_RETURN_IF_ERROR(CheckCount("min_players", d.min_players(), 1, 8));
  ARBITER_RETURN_IF_ERROR(CheckCount("max_players", d.max_players(), d.min_players(), 8));
  ColourCounts seen{};
  int total_divers = 0;
  for (int i = 0; i < d.divers_size(); ++i) {
    const std::string field = absl::StrCat("divers[", i, "]");
    if (!ValidColour(d.divers(i).colour())) return Bad(field + ".colour", "unknown colour");
    if (seen[ColourIndex(d.divers(i).colour())]++ > 0) return Bad(field + ".colour", "listed twice");
    ARBITER_RETURN_IF_ERROR(CheckCount(field + ".count", d.divers(i).count(), 0, 100));
    total_divers += d.divers(i).count();
  }
  ARBITER_RETURN_IF_ERROR(CheckCount("hand_size", d.hand_size(), 0, 20));
  if (d.hand_size() * d.max_players() > total_divers) return Bad("hand_size", "more divers dealt than exist");
  ARBITER_RETURN_IF_ERROR(CheckCount("draw_breath_cards", d.draw_breath_cards(), 0, 20));
  ARBITER_RETURN_IF_ERROR(CheckCount("cards_per_turn", d.cards_per_turn(), 1, 8));
  ARBITER_RETURN_IF_ERROR(
      CheckCount("cards_per_turn_with_joker", d.cards_per_turn_with_joker(), d.cards_per_turn(), 8));
  return CheckCount("actions_per_turn", d.actions_per_turn(), 1, kPlaces);
}

absl::Status ValidateTreasures(const AtlanticaRules& d) {
  ARBITER_RETURN_IF_ERROR(CheckCount("treasures (number of kinds)", d.treasures_size(), 1, kMaxKinds));
  int total_treasures = 0;
  for (int k = 0; k < d.treasures_size(); ++k) {
    const auto& kind = d.treasures(k);
    const std::string field = absl::StrCat("treasures[", k, "]");
    if (kind.name().empty()) return Bad(field + ".name", "is empty");
    for (int j = 0; j < k; ++j) {
      if (d.treasures(j).name() == kind.name()) return Bad(field + ".name", "repeats an earlier kind");
    }
    ARBITER_RETURN_IF_ERROR(CheckCount(field + ".cards", kind.cards(), 1, kMaxKindCards));
    ARBITER_RETURN_IF_ERROR(CheckCount(field + ".row (length)", kind.row_size(), 1, 20));
    for (int v : kind.row()) {
      if (v < 0 || v > 1000) return Bad(field + ".row", absl::StrCat("value ", v, " is outside 0-1000"));
    }
    total_treasures += kind.cards();
  }
  ARBITER_RETURN_IF_ERROR(CheckCount("treasure_areas", d.treasure_areas(), 1, kMaxAreas));
  ARBITER_RETURN_IF_ERROR(CheckCount("research_areas", d.research_areas(), 1, kMaxAreas));
  ARBITER_RETURN_IF_ERROR(
      CheckCount("hurricane_stack_treasures", d.hurricane_stack_treasures(), 0, total_treasures));
  for (int p = d.min_players(); p <= d.max_players(); ++p) {
    int removed = -1;
    for (const auto& r : d.removed_treasures()) {
      if (r.players() == p) removed = r.removed();
    }
    if (removed < 0) return Bad("removed_treasures", absl::StrCat("has no entry for ", p, " players"));
    if (total_treasures - removed - d.hurricane_stack_treasures() < d.treasure_areas()) {
      return Bad("removed_treasures", absl::StrCat("leaves too few treasures to fill the areas with ", p, " players"));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateShips(const AtlanticaRules& d) {
  ARBITER_RETURN_IF_ERROR(CheckCount("ships (number of stacks)", d.ships_size(), 1, kMaxStacks));
  for (int i = 0; i < d.ships_size(); ++i) {
    const std::string field = absl::StrCat("ships[", i, "].crates");
    ARBITER_RETURN_IF_ERROR(CheckCount(field + " (cards)", d.ships(i).crates_size(), 0, 60));
    for (int c : d.ships(i).crates()) ARBITER_RETURN_IF_ERROR(CheckCount(field, c, 0, 20));
  }
  return absl::OkStatus();
}

absl::Status ValidateEffect(const AtlanticaRules& d, const std::string& field, const AtlanticaRules::Effect& e) {
  if (e.kind() == Atlantica::EFFECT_UNSPECIFIED || !Atlantica::Effect_IsValid(e.kind())) {
    return Bad(field + ".effect.kind", "unknown effect");
  }
  ARBITER_RETURN_IF_ERROR(CheckCount(field + ".effect.points", e.points(), 0, 100));
  if (e.kind() == Atlantica::KINDS_AT_LEAST) {
    ARBITER_RETURN_IF_ERROR(CheckCount(field + ".effect.threshold", e.threshold(), 1, d.treasures_size()));
  }
  if (e.kind() == Atlantica::CRATES_AT_LEAST) {
    ARBITER_RETURN_IF_ERROR(CheckCount(field + ".effect.threshold", e.threshold(), 0, 1000));
  }
  if (e.kind() == Atlantica::PER_FIXED_KIND) {
    bool found = false;
    for (const auto& kind : d.treasures()) found = found || kind.name() == e.kind_name();
    if (!found) return Bad(field + ".effect.kind_name", absl::StrCat("'", e.kind_name(), "' is not a treasure kind"));
  }
  return absl::OkStatus();
}

absl::Status ValidateResearch(const AtlanticaRules& d) {
  ARBITER_RETURN_IF_ERROR(CheckCount("research (number of types)", d.research_size(), 1, kMaxResearchTypes));
  int jokers = 0;
  for (int i = 0; i < d.research_size(); ++i) {
    const auto& type = d.research(i);
    const std::string field = absl::StrCat("research[", i, "]");
    if (type.name().empty()) return Bad(field + ".name", "is empty");
    ARBITER_RETURN_IF_ERROR(CheckCount(field + ".copies", type.copies(), 0, 20));
    ARBITER_RETURN_IF_ERROR(ValidateEffect(d, field, type.effect()));
    if (type.effect().kind() == Atlantica::JOKER_TREASURE) jokers += type.copies();
  }
  if (jokers > 8) return Bad("research", "more than 8 joker treasure cards");
  return absl::OkStatus();
}

absl::Status ValidatePlaces(const AtlanticaRules& d) {
  if (d.places_size() != kPlaces) return Bad("places", "must list the four places");
  for (int p = 0; p < kPlaces; ++p) {
    if (d.places(p).place() != PlaceOf(p)) {
      return Bad(absl::StrCat("places[", p, "].place"),
                 "places must be listed in order diving boat, harbour, pub, research station");
    }
    ARBITER_RETURN_IF_ERROR(CheckCount(absl::StrCat("places[", p, "].tiers"), d.places(p).tiers_size(), 1, kMaxTiers));
    for (int t = 0; t < d.places(p).tiers_size(); ++t) {
      ARBITER_RETURN_IF_ERROR(ValidateTier(d, p, t, d.places(p).tiers(t)));
    }
  }
  return absl::OkStatus();
}

}  // namespace

int Rules::RemovedFor(int players) const {
  for (const auto& [p, r] : removed) {
    if (p == players) return r;
  }
  return -1;
}

const char* PlaceName(int place) {
  static constexpr const char* kNames[kPlaces] = {"diving boat", "harbour", "pub", "research station"};
  return place >= 0 && place < kPlaces ? kNames[place] : "unknown place";
}

const char* ColourName(int colour) {
  static constexpr const char* kNames[kColours] = {"white", "yellow", "red", "green", "blue", "purple"};
  return colour >= 0 && colour < kColours ? kNames[colour] : "unknown colour";
}

absl::Status ValidateRules(const AtlanticaRules& d) {
  ARBITER_RETURN_IF_ERROR(ValidateDivers(d));
  ARBITER_RETURN_IF_ERROR(ValidateTreasures(d));
  ARBITER_RETURN_IF_ERROR(ValidateShips(d));
  ARBITER_RETURN_IF_ERROR(ValidateResearch(d));
  return ValidatePlaces(d);
}

absl::StatusOr<Rules> CompileRules(const AtlanticaRules& d) {
  ARBITER_RETURN_IF_ERROR(ValidateRules(d));
  Rules r;
  r.min_players = d.min_players();
  r.max_players = d.max_players();
  for (const auto& divers : d.divers()) r.divers[ColourIndex(divers.colour())] = divers.count();
  r.hand_size = d.hand_size();
  r.draw_breath_cards = d.draw_breath_cards();
  r.cards_per_turn = d.cards_per_turn();
  r.cards_per_turn_with_joker = d.cards_per_turn_with_joker();
  r.actions_per_turn = d.actions_per_turn();
  r.num_kinds = d.treasures_size();
  for (int k = 0; k < r.num_kinds; ++k) {
    const auto& kind = d.treasures(k);
    r.kind_names[k] = kind.name();
    r.kind_colours[k] = kind.colour();
    r.kind_cards[k] = kind.cards();
    const int len = kind.row_size();
    for (int n = 1; n < kScoreTable; ++n) {
      r.kind_score[k][n] = (n / len) * kind.row(len - 1) + (n % len == 0 ? 0 : kind.row(n % len - 1));
    }
  }
  for (const auto& removal : d.removed_treasures()) r.removed.emplace_back(removal.players(), removal.removed());
  r.hurricane_stack_treasures = d.hurricane_stack_treasures();
  r.treasure_areas = d.treasure_areas();
  r.research_areas = d.research_areas();
  r.num_stacks = d.ships_size();
  for (int i = 0; i < r.num_stacks; ++i) {
    r.stack_names[i] = d.ships(i).name();
    r.ship_crates[i].assign(d.ships(i).crates().begin(), d.ships(i).crates().end());
  }
  r.num_research = d.research_size();
  for (int i = 0; i < r.num_research; ++i) {
    const auto& type = d.research(i);
    r.research_names[i] = type.name();
    r.research_texts[i] = type.text();
    r.research_copies[i] = type.copies();
    Effect& e = r.effects[i];
    e.kind = type.effect().kind();
    e.points = type.effect().points();
    e.threshold = type.effect().threshold();
    for (int k = 0; k < r.num_kinds; ++k) {
      if (e.kind == v1::Atlantica::PER_FIXED_KIND && r.kind_names[k] == type.effect().kind_name()) e.kind_index = k;
    }
  }
  for (int p = 0; p < kPlaces; ++p) {
    PlaceRules& place = r.places[p];
    place.num_tiers = d.places(p).tiers_size();
    for (int t = 0; t < place.num_tiers; ++t) {
      const auto& in = d.places(p).tiers(t);
      TierRules& tier = place.tiers[t];
      tier.num_slots = in.slots_size();
      for (int s = 0; s < tier.num_slots; ++s) {
        for (int c : in.slots(s).accepts()) tier.accepts[s] |= static_cast<uint8_t>(1u << ColourIndex(static_cast<v1::Atlantica::Colour>(c)));
      }
      tier.take = in.take();
      tier.reach = in.reach();
      tier.stack = in.stack() - 1;
      tier.draw = in.draw();
      tier.drink_picks = in.drink_picks();
    }
  }
  return r;
}

}  // namespace arbiter::engine::atlantica
