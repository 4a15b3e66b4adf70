// Scoring: a player's final points, with every choice the rules leave to the
// player made for them exactly (not greedily) so as to maximise their total,
// and, among equal totals, their tie-break (kept treasure cards).
//
// The choices are: which treasures to keep (one per crate; the rest are
// discarded), the kind each joker research card (JOKER_TREASURE) joins, and
// the kind that "per chosen kind" research cards count. The search is a
// dynamic programme over treasure kinds whose state is (crates used, jokers
// used, kinds kept up to the largest colour threshold held, chosen kind
// taken yet); it is exact because every effect in the vocabulary depends on
// the kept treasures only through per-kind sums, the number of kinds kept and
// one chosen kind. Among several optimal choices it returns the first one met
// in kind order with fewer kept cards of a kind tried first.
//
// Pure functions; thread-safe.
#ifndef ARBITER_ENGINE_ATLANTICA_SCORING_H_
#define ARBITER_ENGINE_ATLANTICA_SCORING_H_

#include <array>

#include "engine/atlantica/rules.h"

namespace arbiter::engine::atlantica {

// What a player holds at the end.
struct Holding {
  std::array<int, kMaxKinds> treasures{};         // cards per kind
  std::array<int, kMaxResearchTypes> research{};  // cards per research type
  int ships = 0;
  int crates = 0;
};

struct Score {
  int total = 0;
  int treasure_points = 0;
  int research_points = 0;
  // Tie-break: kept treasure cards (jokers not counted).
  int kept_cards = 0;
  std::array<int, kMaxKinds> kept{};       // kept real cards per kind
  std::array<int, kMaxKinds> discarded{};  // discarded cards per kind
  std::array<int, kMaxKinds> jokers{};     // joker cards laid with each kind
  std::array<int, kMaxKinds> kind_points{};
  // Kind counted by PER_CHOSEN_KIND cards; -1 if none held or nothing kept.
  int chosen_kind = -1;
  // Points one card of each research type scores (each copy scores this).
  std::array<int, kMaxResearchTypes> research_card_points{};
};

// The best score for `holding`. Requires counts within the ruleset's limits
// (at most kMaxKindCards per kind, at most 8 jokers).
Score ScoreHolding(const Rules& rules, const Holding& holding);

}  // namespace arbiter::engine::atlantica

#endif  // ARBITER_ENGINE_ATLANTICA_SCORING_H_
