// Atlantis Rising: the ruleset data (AtlantisRisingRules) as the engine reads
// it, its validation, and lookup tables built once per game.
//
// Rules followed: docs/atlantis-rising.md (after docs/rules/atlantis-rising.md
// and the Spanish rulebook). Every number printed on a tile or
// card comes from the ruleset; nothing printed lives in C++. Immutable after
// construction, so safe to share between states and threads.
#ifndef ARBITER_ENGINE_ATLANTIS_RISING_RULES_H_
#define ARBITER_ENGINE_ATLANTIS_RISING_RULES_H_

#include <array>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "arbiter/v1/games/atlantis_rising.pb.h"

namespace arbiter::engine::atlantis_rising {

using Rules = v1::AtlantisRisingRules;
using Peninsula = v1::AtlantisRising::Peninsula;
using Resource = v1::AtlantisRising::Resource;
using EffectKind = v1::AtlantisRising::EffectKind;
using TileAction = v1::AtlantisRising::TileAction;

inline constexpr int kNumPeninsulas = 6;
inline constexpr int kNumResources = 4;
// Seats are stored in fixed arrays of this size; rulesets may not allow more.
inline constexpr int kMaxSeats = 7;

// Amounts of ORE, GOLD, CRYSTAL, ATLANTIUM, indexed by Resource - 1.
using Resources = std::array<int, kNumResources>;

inline int PeninsulaIndex(Peninsula p) { return static_cast<int>(p) - 1; }
inline Peninsula PeninsulaAt(int index) { return static_cast<Peninsula>(index + 1); }
inline int ResourceIndex(Resource r) { return static_cast<int>(r) - 1; }
inline Resource ResourceAt(int index) { return static_cast<Resource>(index + 1); }

// "hills", "atlantium", lower case for sentences.
std::string PeninsulaWord(Peninsula p);
std::string ResourceWord(Resource r);
// "2 gold, 1 crystal" (nothing: "nothing").
std::string ResourcesText(const Resources& amounts);

// OK, or InvalidArgument naming the field that is out of range or
// inconsistent (e.g. "atlantis_rising.peninsulas[2].tiles[0].discs: ...").
absl::Status ValidateRules(const Rules& rules);

// Indexes into the ruleset, built once from a validated ruleset.
class Tables {
 public:
  explicit Tables(const Rules& rules);

  const Rules& rules() const { return rules_; }
  // The spec of a peninsula (validated: one per Peninsula value).
  const Rules::PeninsulaSpec& peninsula(int index) const {
    return rules_.peninsulas(peninsula_spec_[static_cast<std::size_t>(index)]);
  }
  int tiles(int peninsula_index) const { return peninsula(peninsula_index).tiles_size(); }
  // -1 if unknown.
  int CardIndex(const std::string& id) const;
  int ComponentIndex(const std::string& id) const;
  const Rules::LibraryCard& card(int index) const { return rules_.library_cards(index); }
  const Rules::Component& component(int index) const { return rules_.components(index); }
  const Resources& cost(int component_index) const {
    return costs_[static_cast<std::size_t>(component_index)];
  }
  // The player-count row for `players`, or nullptr.
  const Rules::PlayerCount* row(int players) const;
  // The Wrath value at `level` (levels past the track use the last value).
  int WrathValue(int level) const;
  int max_wrath_level() const { return rules_.wrath_values_size() - 1; }
  // The supply of each resource and of mystic energy; kUnlimited without
  // `supplies` in the ruleset.
  static constexpr int kUnlimited = 1 << 30;
  int supply(int resource_index) const { return supply_[static_cast<std::size_t>(resource_index)]; }
  int energy_supply() const { return energy_supply_; }

 private:
  Rules rules_;
  std::array<int, kNumPeninsulas> peninsula_spec_{};
  std::map<std::string, int> cards_;
  std::map<std::string, int> components_;
  std::vector<Resources> costs_;
  Resources supply_{kUnlimited, kUnlimited, kUnlimited, kUnlimited};
  int energy_supply_ = kUnlimited;
};

}  // namespace arbiter::engine::atlantis_rising

#endif  // ARBITER_ENGINE_ATLANTIS_RISING_RULES_H_
