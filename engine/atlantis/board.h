// Atlantis: everything about a position except the card piles — the path,
// figures, hands, collected tiles, bridges and whose turn it is. Plain data
// shared by the state, the action rules (actions.h) and the end phase
// (scoring.h); tests build one directly
// (tests/engine/atlantis/position_builder.h).
#ifndef ARBITER_ENGINE_ATLANTIS_BOARD_H_
#define ARBITER_ENGINE_ATLANTIS_BOARD_H_

#include <algorithm>
#include <array>
#include <cstdint>

#include "engine/atlantis/path.h"
#include "engine/atlantis/rules.h"

namespace arbiter::engine::atlantis {

// What one player holds: cards by item, collected tiles by (item, value).
struct Holdings {
  std::array<uint8_t, kItems> cards{};
  std::array<std::array<uint8_t, kMaxValue + 1>, kItems> tiles{};
  int card_count = 0;
  int tile_count = 0;
  int tile_points = 0;

  void AddCard(int item) {
    ++cards[static_cast<std::size_t>(item)];
    ++card_count;
  }
  void RemoveCard(int item) {
    --cards[static_cast<std::size_t>(item)];
    --card_count;
  }
  int TileCount(uint8_t tile) const {
    return tiles[static_cast<std::size_t>(TileItem(tile))][static_cast<std::size_t>(TileValue(tile))];
  }
  void AddTile(uint8_t tile) {
    ++tiles[static_cast<std::size_t>(TileItem(tile))][static_cast<std::size_t>(TileValue(tile))];
    ++tile_count;
    tile_points += TileValue(tile);
  }
  void RemoveTile(uint8_t tile) {
    --tiles[static_cast<std::size_t>(TileItem(tile))][static_cast<std::size_t>(TileValue(tile))];
    --tile_count;
    tile_points -= TileValue(tile);
  }
};

struct Board {
  const Config* config = nullptr;
  TollPayment toll_payment = TollPayment::kTilesAndCards;
  bool exact_toll_if_possible = false;  // Variant
  bool bought_cards_pay_tolls = true;   // Variant
  int num_players = 0;
  Path path;
  std::array<Holdings, kMaxPlayers> players{};
  // Position of each figure: 0 Atlantis, 1..N path, path.mainland() home.
  std::array<std::array<uint8_t, kMaxFigures>, kMaxPlayers> figures{};
  std::array<uint8_t, kMaxPlayers> figures_home{};
  std::array<uint8_t, kMaxPlayers> bridges_left{};
  int current = 0;             // seat to act
  bool turn_started = false;   // a Buy or Bridge was taken this turn
  bool bought = false;         // a Buy was taken this turn
  std::array<uint8_t, kItems> bought_cards{};  // cards drawn by this turn's Buy, by item
  bool over = false;
  int finisher = -1;           // seat that brought its last figure home; -1 stalemate
  int stuck_passes = 0;        // consecutive Passes with nothing left to draw

  const Holdings& me() const { return players[static_cast<std::size_t>(current)]; }
  // Cards of `item` the player to act may pay a toll with, `used` of them
  // being played to move: the hand less the movement cards, and, when bought
  // cards may not pay, less the cards bought this turn (the movement cards
  // are taken from the bought ones first).
  int TollCards(int item, int used) const {
    const std::size_t i = static_cast<std::size_t>(item);
    const int bought_now = bought_cards_pay_tolls ? 0 : bought_cards[i];
    return me().cards[i] - std::max(used, bought_now);
  }
  int figure(int seat, int f) const {
    return figures[static_cast<std::size_t>(seat)][static_cast<std::size_t>(f)];
  }
};

}  // namespace arbiter::engine::atlantis

#endif  // ARBITER_ENGINE_ATLANTIS_BOARD_H_
