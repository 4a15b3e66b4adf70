// Atlantis: building positions and actions by hand, for the Atlantis tests.
// Items are written as letters: F(lag) O(live) H(elmet)
// A(mphora) R(ing) S(tatue) C(rown); a tile as letter and value ("R4").
//
//   auto state = PositionBuilder(2)
//                    .Path("F3 H5/C2 . ~ R4")  // one token per position from Atlantis:
//                                              // a stack bottom first, "." water,
//                                              // "~" bridged water
//                    .Figure(0, 1, 2)          // seat 0's figure 1 on position 2
//                    .Hand(0, "RRF").Tiles(0, "C7")
//                    .Build();
//
// Figures not placed stand on Atlantis. Seats are 0-based, figures 1-based;
// the Mainland is position kMainland.
#ifndef ARBITER_TESTS_ENGINE_ATLANTIS_POSITION_BUILDER_H_
#define ARBITER_TESTS_ENGINE_ATLANTIS_POSITION_BUILDER_H_

#include <memory>
#include <string_view>
#include <vector>

#include "arbiter/v1/action.pb.h"
#include "engine/atlantis/state.h"

namespace arbiter::engine::atlantis::testing {

inline constexpr int kMainland = -1;

// The default ruleset's data (atlantis-amigo-2009).
std::shared_ptr<const Config> DefaultConfig();

// Engine item of a letter (F O H A R S C); -1 otherwise.
int ItemOfLetter(char letter);

class PositionBuilder {
 public:
  explicit PositionBuilder(int num_players);

  PositionBuilder& Path(std::string_view spec);
  PositionBuilder& Figure(int seat, int figure, int position);
  PositionBuilder& Hand(int seat, std::string_view letters);
  PositionBuilder& Tiles(int seat, std::string_view tiles);
  PositionBuilder& Bridges(int seat, int count);
  PositionBuilder& Deck(std::string_view letters);  // top card first
  PositionBuilder& Discard(std::string_view letters);
  PositionBuilder& Payment(TollPayment mode);
  PositionBuilder& Options(const Variant& variant);

  std::unique_ptr<AtlantisState> Build() const;

 private:
  std::shared_ptr<const Config> config_;
  Board board_;
  std::vector<std::pair<int, int>> figures_;  // (seat * kMaxFigures + figure, position)
  std::vector<uint8_t> deck_;
  std::array<uint8_t, kItems> discard_{};
};

// Actions, spelled with letters.
v1::Action BuyAction(std::string_view tile);
v1::Action BridgeAction(int position);
// MoveAction(1, "RF", "C7 F2", "OO"): figure 1 plays RING then FLAG, paying
// with a CROWN 7 and a FLAG 2 tile and two OLIVE cards.
v1::Action MoveAction(int figure, std::string_view cards, std::string_view toll_tiles = "",
                      std::string_view toll_cards = "");
// The same Move, laying the player's bridge at `bridge` once the tile is taken.
v1::Action MoveThenBridge(int figure, std::string_view cards, int bridge, std::string_view toll_tiles = "",
                          std::string_view toll_cards = "");
v1::Action PassAction();

}  // namespace arbiter::engine::atlantis::testing

#endif  // ARBITER_TESTS_ENGINE_ATLANTIS_POSITION_BUILDER_H_
