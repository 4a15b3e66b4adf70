// Atlantis (Colovini, Amigo 2009): limits of the engine and the ruleset data
// in the compact form the rules use (rules.cc parses and validates it).
//
// Items are numbered 0..6 inside the engine (Atlantis.Item value - 1). A path
// tile is one byte: item * 16 + value. Rules: docs/rules/atlantis.md.
// A Config is immutable and shared by every state made from it.
#ifndef ARBITER_ENGINE_ATLANTIS_RULES_H_
#define ARBITER_ENGINE_ATLANTIS_RULES_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/games/atlantis.pb.h"
#include "arbiter/v1/ruleset.pb.h"

namespace arbiter::engine::atlantis {

// Limits of the engine's fixed arrays (not printed numbers: the ruleset gives
// those; a ruleset beyond these limits is refused).
inline constexpr int kItems = 7;
inline constexpr int kMaxValue = 9;        // highest tile value
inline constexpr int kMaxPlayers = 4;
inline constexpr int kMaxFigures = 4;
inline constexpr int kMaxPositions = 100;  // path positions, water included
inline constexpr int kMaxHeight = 4;       // tiles in one stack
inline constexpr int kMaxCardsPerItem = 36;
inline constexpr int kMaxDraw = 20;        // cards drawn at once
inline constexpr int kMaxListLength = 64;  // cards or tiles in one action list

inline constexpr uint8_t TileCode(int item, int value) {
  return static_cast<uint8_t>(item * 16 + value);
}
inline constexpr int TileItem(uint8_t code) { return code >> 4; }
inline constexpr int TileValue(uint8_t code) { return code & 15; }

// "RING" for item 4.
const char* ItemName(int item);
// "RING 5".
std::string TileName(uint8_t code);
// Engine item (0..6) of a proto item, or -1 if unset or unknown.
inline int ItemIndex(int proto_item) {
  return proto_item >= 1 && proto_item <= kItems ? proto_item - 1 : -1;
}
inline v1::Atlantis::Item ProtoItem(int item) { return static_cast<v1::Atlantis::Item>(item + 1); }

// How a toll may be paid (game option "toll_payment").
enum class TollPayment { kTilesAndCards, kTilesOrCards };

// The readings the log header's options choose where the rulebooks disagree
// or are unclear (the Game's Options, game.cc, list them for people).
struct Variant {
  TollPayment toll_payment = TollPayment::kTilesAndCards;
  // "toll_overpay": false = any minimal payment; true = more than the toll
  // only when no payment of exactly the toll is possible (Czech text).
  bool exact_toll_if_possible = false;
  // "bought_cards_pay_tolls": whether cards bought this turn may pay tolls.
  bool bought_cards_pay_tolls = true;
};

struct Config {
  // Expanded tiles of each back, in ruleset order (the order shuffled).
  std::vector<uint8_t> tiles_a;
  std::vector<uint8_t> tiles_b;
  // Stack heights of each part of the path, from Atlantis.
  std::vector<int> heights_a;
  std::vector<int> heights_b;
  int water_between = 0;
  int cards_per_item = 0;
  std::array<int, kMaxPlayers> hand_sizes{};
  std::array<int, kMaxFigures> draws_by_figures_home{};
  int final_draw = 0;
  int cannot_move_draw = 0;
  int buy_divisor = 1;
  int figures = 0;
  int min_players = 0;
  int max_players = 0;
  int bridges = 0;
  int min_value = 0;  // lowest and highest tile value printed
  int max_value = 0;

  // Path positions (1..positions); the Mainland is positions + 1.
  int positions() const {
    return static_cast<int>(heights_a.size() + heights_b.size()) + water_between;
  }
};

// Parses and validates the Atlantis data of `ruleset`. InvalidArgument naming
// the field that is missing, out of range or beyond the engine's limits.
absl::StatusOr<Config> ParseConfig(const v1::Ruleset& ruleset);

}  // namespace arbiter::engine::atlantis

#endif  // ARBITER_ENGINE_ATLANTIS_RULES_H_
