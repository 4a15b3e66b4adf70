// AtlanticaState: one game of Atlantica (Fiore & Happel, Piatnik 2018), as
// the rules engine sees it. Rules: docs/rules/atlantica.md, with the
// engine's readings in docs/atlantica.md.
//
// One log event is one whole turn (AtlanticaAction: a Turn of up to three
// place actions, or DrawBreath), so a turn is judged atomically. Turn rules
// are in actions.h, the setup order and end-of-turn refills in board.h, the
// final scoring (exact best discard and research choices) in scoring.h.
//
// LegalActions lists Draw breath and every legal turn in one spelling per
// distinct choice of divers and cards (actions.h: actions in place order, divers
// in colour order, areas ascending); Canonical() maps any other spelling of a
// legal turn to it. Not thread-safe; clones are independent.
#ifndef ARBITER_ENGINE_ATLANTICA_STATE_H_
#define ARBITER_ENGINE_ATLANTICA_STATE_H_

#include <memory>

#include "engine/atlantica/board.h"
#include "engine/atlantica/scoring.h"
#include "engine/core/rng.h"
#include "engine/core/state.h"

namespace arbiter::engine::atlantica {

class AtlanticaState final : public State {
 public:
  // A game at `board`; `rng` supplies later reshuffles of the diver discard
  // pile. Tests build positions this way; games start from NewBoard.
  AtlanticaState(std::shared_ptr<const Rules> rules, Board board, Rng rng);

  std::unique_ptr<State> Clone() const override;
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
  const Rules& rules() const { return *rules_; }

 protected:
  void DoApply(Seat seat, const v1::Action& action) override;  // apply.cc
  v1::PositionView ViewCut(const Viewer& viewer) const override;  // view.cc
  std::string DescriptionCut(const Viewer& viewer) const override;  // text.cc

 private:
  std::shared_ptr<const Rules> rules_;
  Board board_;
  Rng rng_;
};

}  // namespace arbiter::engine::atlantica

#endif  // ARBITER_ENGINE_ATLANTICA_STATE_H_
