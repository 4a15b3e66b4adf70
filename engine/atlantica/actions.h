// Turn: judging and applying one Atlantica turn (one log event).
//
// A turn is either Draw breath or up to `actions_per_turn` place actions at
// different places. The actions of a turn commute: cards taken earlier in
// the turn leave their area empty for later actions, pub divers are drawn at
// the end of the turn, and the joker is judged against the hand left after
// every other card of the turn is laid (the pair counts as laid last, which
// the player can always arrange). So a turn's outcome does not depend on
// the order of its actions, of their divers or of their areas.
//
// Rule ids (stable, part of the API; docs/atlantica.md lists them all) are
// the kRule* constants below.
#ifndef ARBITER_ENGINE_ATLANTICA_ACTIONS_H_
#define ARBITER_ENGINE_ATLANTICA_ACTIONS_H_

#include <optional>
#include <vector>

#include "arbiter/v1/action.pb.h"
#include "engine/atlantica/board.h"
#include "engine/core/state.h"
#include "engine/core/violation.h"

namespace arbiter::engine::atlantica {

inline constexpr char kRuleTurnWithoutAction[] = "turn_without_action";
inline constexpr char kRuleTooManyActions[] = "too_many_actions";
inline constexpr char kRuleSamePlaceTwice[] = "same_place_twice";
inline constexpr char kRuleNoSuchPlace[] = "no_such_place";
inline constexpr char kRuleNoSuchTier[] = "no_such_tier";
inline constexpr char kRuleNoSuchColour[] = "no_such_colour";
inline constexpr char kRuleWrongNumberOfDivers[] = "wrong_number_of_divers";
inline constexpr char kRuleDiversDoNotMatch[] = "divers_do_not_match";
inline constexpr char kRuleJokerPairSize[] = "joker_pair_size";
inline constexpr char kRuleJokerPairMixed[] = "joker_pair_mixed";
inline constexpr char kRuleJokerTwice[] = "joker_twice";
inline constexpr char kRuleJokerNotAllowed[] = "joker_not_allowed";
inline constexpr char kRuleTooManyCards[] = "too_many_cards";
inline constexpr char kRuleCardsNotHeld[] = "cards_not_held";
inline constexpr char kRuleUnexpectedPicks[] = "unexpected_picks";
inline constexpr char kRuleWrongNumberOfCards[] = "wrong_number_of_cards";
inline constexpr char kRuleNoSuchArea[] = "no_such_area";
inline constexpr char kRuleAreaOutOfReach[] = "area_out_of_reach";
inline constexpr char kRuleAreaEmpty[] = "area_empty";
inline constexpr char kRuleAreaTakenTwice[] = "area_taken_twice";
inline constexpr char kRuleStackEmpty[] = "stack_empty";
inline constexpr char kRulePickPlaceInvalid[] = "pick_place_invalid";
inline constexpr char kRulePicksSamePlace[] = "picks_same_place";

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
