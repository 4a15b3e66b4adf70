// Atlantica: the rules of one turn (one log event): judging, applying, listing
// the legal turns and their canonical spelling.
//
// A turn is either Draw breath or up to `actions_per_turn` place actions at
// different places. The actions of a turn commute: cards taken earlier in
// the turn leave their area empty for later actions, pub divers are drawn at
// the end of the turn, and the joker is judged against the hand left after
// every other card of the turn is laid (the pair counts as laid last, which
// the player can always arrange). So a turn's outcome does not depend on
// the order of its actions, of their divers or of their areas.
//
// Rule ids: rule_ids.h. Defined in check.cc: CheckTurn; apply.cc: ApplyTurn,
// ApplyDrawBreath; legal_actions.cc: ListTurns, CanonicalTurn. Functions of
// their arguments only: calls on distinct boards may run on any threads.
#ifndef ARBITER_ENGINE_ATLANTICA_ACTIONS_H_
#define ARBITER_ENGINE_ATLANTICA_ACTIONS_H_

#include <optional>
#include <vector>

#include "arbiter/v1/action.pb.h"
#include "engine/atlantica/board.h"
#include "engine/core/state.h"
#include "engine/core/violation.h"

namespace arbiter::engine::atlantica {

// nullopt if `seat` may play `turn` on `board` (it is the seat's turn).
std::optional<Violation> CheckTurn(const Rules& rules, const Board& board, int seat,
                                   const v1::AtlanticaAction::Turn& turn);

// Applies a turn CheckTurn accepted, then ends the turn (EndTurn).
void ApplyTurn(const Rules& rules, Board& board, Rng& rng, int seat,
               const v1::AtlanticaAction::Turn& turn);

// Draw breath, then EndTurn.
void ApplyDrawBreath(const Rules& rules, Board& board, Rng& rng, int seat);

// Every legal turn of `seat` (not Draw breath), one spelling per choice of
// cards paid at each place and cards taken: actions in place order, divers
// in colour order, areas ascending, picks in place order.
// Appends them to `out` as moves of `seat`.
void ListTurns(const Rules& rules, const Board& board, int seat, std::vector<Move>& out);

// The spelling ListTurns uses for `action` (sorted as above; player cleared).
v1::Action CanonicalTurn(const v1::Action& action);

}  // namespace arbiter::engine::atlantica

#endif  // ARBITER_ENGINE_ATLANTICA_ACTIONS_H_
