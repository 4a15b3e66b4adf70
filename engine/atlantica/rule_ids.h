// Atlantica: the rule ids of illegal turns. Part of the API (CLI JSON, replay
// reports, stored judgements): never rename one that has shipped.
// docs/atlantica.md lists them; the ids every game shares (game_over,
// not_your_turn, wrong_game, empty_action) are in engine/core/violation.h.
#ifndef ARBITER_ENGINE_ATLANTICA_RULE_IDS_H_
#define ARBITER_ENGINE_ATLANTICA_RULE_IDS_H_

namespace arbiter::engine::atlantica {

// The turn as a whole.
// A turn with no place action (to play no cards, draw breath).
inline constexpr char kRuleTurnWithoutAction[] = "turn_without_action";
// More place actions than actions_per_turn.
inline constexpr char kRuleTooManyActions[] = "too_many_actions";
// Two actions at one place.
inline constexpr char kRuleSamePlaceTwice[] = "same_place_twice";

// What an action names.
// A place outside the game (unset).
inline constexpr char kRuleNoSuchPlace[] = "no_such_place";
// A tier the place does not have.
inline constexpr char kRuleNoSuchTier[] = "no_such_tier";
// A diver or joker card of no known colour.
inline constexpr char kRuleNoSuchColour[] = "no_such_colour";

// The divers laid.
// Not one card per slot of the tier (the joker pair fills one slot).
inline constexpr char kRuleWrongNumberOfDivers[] = "wrong_number_of_divers";
// The cards do not fit the tier's slots.
inline constexpr char kRuleDiversDoNotMatch[] = "divers_do_not_match";
// The joker is not exactly two cards.
inline constexpr char kRuleJokerPairSize[] = "joker_pair_size";
// The joker's two cards differ in colour.
inline constexpr char kRuleJokerPairMixed[] = "joker_pair_mixed";
// Two actions of the turn use the joker.
inline constexpr char kRuleJokerTwice[] = "joker_twice";
// The player still holds a colour the joker's slot accepts.
inline constexpr char kRuleJokerNotAllowed[] = "joker_not_allowed";
// More cards than cards_per_turn (cards_per_turn_with_joker with the joker).
inline constexpr char kRuleTooManyCards[] = "too_many_cards";
// The turn lays cards the player does not hold.
inline constexpr char kRuleCardsNotHeld[] = "cards_not_held";

// The cards taken.
// Areas or picks where the tier takes none (or picks where it takes areas).
inline constexpr char kRuleUnexpectedPicks[] = "unexpected_picks";
// Not exactly the tier's number of cards taken.
inline constexpr char kRuleWrongNumberOfCards[] = "wrong_number_of_cards";
// An area or ship stack that does not exist (area 7 of the diving boat).
inline constexpr char kRuleNoSuchArea[] = "no_such_area";
// An area beyond the tier's reach.
inline constexpr char kRuleAreaOutOfReach[] = "area_out_of_reach";
// An empty area.
inline constexpr char kRuleAreaEmpty[] = "area_empty";
// One area taken twice in a turn.
inline constexpr char kRuleAreaTakenTwice[] = "area_taken_twice";
// A ship from an empty stack.
inline constexpr char kRuleStackEmpty[] = "stack_empty";
// A drink card from a place other than the diving boat, the harbour or the
// research station.
inline constexpr char kRulePickPlaceInvalid[] = "pick_place_invalid";
// Both drink cards from one place.
inline constexpr char kRulePicksSamePlace[] = "picks_same_place";

}  // namespace arbiter::engine::atlantica

#endif  // ARBITER_ENGINE_ATLANTICA_RULE_IDS_H_
