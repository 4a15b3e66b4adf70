// Rules: the printed data of an Atlantica ruleset (AtlanticaRules), checked
// and compiled into flat tables the engine reads quickly.
//
// Every number the engine uses comes from here; none is written in C++
// except the structural limits below (kMax*), which only bound array sizes.
// Immutable once compiled; safe to share between threads.
#ifndef ARBITER_ENGINE_ATLANTICA_RULES_H_
#define ARBITER_ENGINE_ATLANTICA_RULES_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/games/atlantica.pb.h"

namespace arbiter::engine::atlantica {

// Diver colours are indexed 0-5 (WHITE..PURPLE, the proto value minus 1).
inline constexpr int kColours = 6;
inline constexpr int kPlaces = 4;  // indexed by proto value minus 1
inline constexpr int kMaxKinds = 8;
inline constexpr int kMaxResearchTypes = 16;
inline constexpr int kMaxAreas = 8;
inline constexpr int kMaxStacks = 3;
inline constexpr int kMaxTiers = 4;
inline constexpr int kMaxSlots = 4;
inline constexpr int kMaxKindCards = 40;
// Rows are tabulated up to this many cards of one kind (real + jokers).
inline constexpr int kScoreTable = 64;

using ColourCounts = std::array<int, kColours>;
using Place = v1::Atlantica::Place;
using EffectKind = v1::Atlantica::Effect;

inline int ColourIndex(v1::Atlantica::Colour colour) { return static_cast<int>(colour) - 1; }
inline v1::Atlantica::Colour ColourOf(int index) {
  return static_cast<v1::Atlantica::Colour>(index + 1);
}
inline int PlaceIndex(Place place) { return static_cast<int>(place) - 1; }
inline Place PlaceOf(int index) { return static_cast<Place>(index + 1); }

struct TierRules {
  int num_slots = 0;
  // Bit c set: the slot accepts colour c.
  std::array<uint8_t, kMaxSlots> accepts{};
  int take = 0;   // diving boat, research station
  int reach = 0;  // diving boat, research station
  int stack = 0;  // harbour, 0-based
  int draw = 0;   // pub
  int drink_picks = 0;  // pub
};

struct PlaceRules {
  int num_tiers = 0;
  std::array<TierRules, kMaxTiers> tiers;
};

struct Effect {
  EffectKind kind = v1::Atlantica::EFFECT_UNSPECIFIED;
  int points = 0;
  int threshold = 0;
  int kind_index = -1;  // PER_FIXED_KIND
};

struct Rules {
  int min_players = 0;
  int max_players = 0;
  ColourCounts divers{};
  int hand_size = 0;
  int draw_breath_cards = 0;
  int cards_per_turn = 0;
  int cards_per_turn_with_joker = 0;
  int actions_per_turn = 0;

  int num_kinds = 0;
  std::array<std::string, kMaxKinds> kind_names;
  std::array<std::string, kMaxKinds> kind_colours;
  std::array<int, kMaxKinds> kind_cards{};
  // kind_score[k][n]: VP for n cards of kind k (the row, repeated).
  std::array<std::array<int, kScoreTable>, kMaxKinds> kind_score{};
  std::vector<std::pair<int, int>> removed;  // (players, removed)
  int hurricane_stack_treasures = 0;
  int treasure_areas = 0;
  int research_areas = 0;

  int num_stacks = 0;
  std::array<std::string, kMaxStacks> stack_names;
  std::array<std::vector<int>, kMaxStacks> ship_crates;

  int num_research = 0;
  std::array<std::string, kMaxResearchTypes> research_names;
  std::array<std::string, kMaxResearchTypes> research_texts;
  std::array<int, kMaxResearchTypes> research_copies{};
  std::array<Effect, kMaxResearchTypes> effects;

  std::array<PlaceRules, kPlaces> places;

  // Treasures returned to the box for `players`; -1 if not listed.
  int RemovedFor(int players) const;
};

// OK, or InvalidArgument naming the field that is out of range or
// inconsistent (e.g. "treasures[2].row: ...").
absl::Status ValidateRules(const v1::AtlanticaRules& data);

// The compiled tables; errors of ValidateRules.
absl::StatusOr<Rules> CompileRules(const v1::AtlanticaRules& data);

// "diving boat", "harbour", "pub", "research station".
const char* PlaceName(int place);
// "white", "yellow", ...
const char* ColourName(int colour);

}  // namespace arbiter::engine::atlantica

#endif  // ARBITER_ENGINE_ATLANTICA_RULES_H_
