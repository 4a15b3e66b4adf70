// AtlantisState: one game of Atlantis (Leo Colovini, Amigo 2009) in progress.
// Rules: docs/rules/atlantis.md and docs/atlantis.md.
//
// Chance, in this order, all from the game's one Rng (engine/core/rng.h):
//   1. shuffle the A tiles, expanded in ruleset order (each TileSpec `count`
//      times); 2. shuffle the B tiles likewise; 3. shuffle the deck, items in
//   Atlantis.Item order, cards_per_item copies each; 4. deal hands seat by
//   seat (seat 1 first) from the top of the deck (index 0 of the shuffled
//   list). The path is filled from Atlantis: A tiles in shuffled order, each
//   position's stack bottom tile first, then the water, then the B tiles.
//   5. During play, whenever a draw finds the deck empty, the discard pile,
//   expanded in Atlantis.Item order, is shuffled into a new deck; if both
//   are empty the draw gets what there is.
//
// A turn: optional Buy (first action only), optional Bridge, then Move or
// Pass, which ends the turn and draws automatically. The game ends when a
// player's last figure reaches the Mainland, or, if a full round of Passes
// draws no card at all (every card in the hands and no move possible), in a
// stalemate (assumed). Then the end phase scores (scoring.h).
//
// Not thread-safe; distinct states are independent.
#ifndef ARBITER_ENGINE_ATLANTIS_STATE_H_
#define ARBITER_ENGINE_ATLANTIS_STATE_H_

#include <memory>
#include <vector>

#include "engine/atlantis/board.h"
#include "engine/atlantis/rules.h"
#include "engine/core/rng.h"
#include "engine/core/state.h"

namespace arbiter::engine::atlantis {

class AtlantisState final : public State {
 public:
  // A new game from setup (see the chance order above). `config` must be
  // valid for `num_players`.
  static std::unique_ptr<AtlantisState> NewGame(std::shared_ptr<const Config> config, uint64_t seed,
                                                int num_players, const Variant& variant);
  // A position built piece by piece (tests/engine/atlantis/position_builder.h). `deck` lists the
  // draw pile from the top.
  static std::unique_ptr<AtlantisState> FromParts(std::shared_ptr<const Config> config, const Board& board,
                                                  const std::vector<uint8_t>& deck,
                                                  const std::array<uint8_t, kItems>& discard, uint64_t seed);

  std::unique_ptr<State> Clone() const override { return std::make_unique<AtlantisState>(*this); }
  bool IsTerminal() const override { return board_.over; }
  std::vector<Seat> SeatsToAct() const override;  // state.cc
  std::optional<Violation> Check(Seat seat, const v1::Action& action) const override;  // check.cc
  std::vector<Move> LegalActions() const override;  // legal_actions.cc
  v1::Action Canonical(Seat seat, const v1::Action& action) const override;  // legal_actions.cc
  std::string Label(Seat seat, const v1::Action& action) const override;  // labels.cc
  std::string Group(Seat seat, const v1::Action& action) const override;  // labels.cc
  std::optional<v1::Standings> Final() const override;  // scoring.cc
  std::string ToString() const override;  // text.cc
  v1::PositionView View() const override;  // view.cc

  const Board& board() const { return board_; }
  int deck_size() const { return deck_size_ - deck_top_; }
  int discard_size() const;

  AtlantisState(const AtlantisState&) = default;
  AtlantisState(std::shared_ptr<const Config> config, int num_players, uint64_t seed);

 protected:
  void DoApply(Seat seat, const v1::Action& action) override;  // apply.cc
  v1::PositionView ViewCut(const Viewer& viewer) const override;  // view.cc
  std::string DescriptionCut(const Viewer& viewer) const override;  // text.cc

 private:
  // Draws up to n cards for the player to act; returns how many were drawn.
  // Cards bought are also counted in the board's bought_cards.
  int Draw(int n, bool bought = false);
  bool Refill();
  void EndTurn();

  std::shared_ptr<const Config> config_;
  Board board_;
  Rng rng_;
  std::array<uint8_t, kItems * kMaxCardsPerItem> deck_{};
  int deck_size_ = 0;
  int deck_top_ = 0;
  std::array<uint8_t, kItems> discard_{};
};

}  // namespace arbiter::engine::atlantis

#endif  // ARBITER_ENGINE_ATLANTIS_STATE_H_
