// Atlantis: the rule ids of illegal actions. Part of the API (CLI JSON,
// replay reports, stored judgements): never rename one that has shipped.
// docs/atlantis.md lists them; the ids every game shares (game_over,
// not_your_turn, wrong_game, empty_action) are in engine/core/violation.h.
#ifndef ARBITER_ENGINE_ATLANTIS_RULE_IDS_H_
#define ARBITER_ENGINE_ATLANTIS_RULE_IDS_H_

namespace arbiter::engine::atlantis {

// Buy.
// A Buy that is not the first action of the turn (after a Buy or a Bridge).
inline constexpr char kRuleBuyNotFirst[] = "buy_not_first";
// The tile given up for cards is not among the player's collected tiles.
inline constexpr char kRuleBuyTileNotHeld[] = "buy_tile_not_held";

// Bridge (and a Move's `bridge`).
// The player has already laid their bridge.
inline constexpr char kRuleNoBridgeLeft[] = "no_bridge_left";
// The position is not water between two tiles (for a Move: after the move).
inline constexpr char kRuleBridgeNotOnWater[] = "bridge_not_on_water";
// The gap already has a bridge.
inline constexpr char kRuleGapAlreadyBridged[] = "gap_already_bridged";

// Move.
// The figure number is not 1..figures_per_player.
inline constexpr char kRuleUnknownFigure[] = "unknown_figure";
// The figure is already on the Mainland.
inline constexpr char kRuleFigureOnMainland[] = "figure_on_mainland";
// A Move plays no card.
inline constexpr char kRuleNoCardPlayed[] = "no_card_played";
// A card (played or paid) names no item.
inline constexpr char kRuleUnknownItem[] = "unknown_item";
// The Move plays more cards of an item than the hand holds.
inline constexpr char kRuleCardNotInHand[] = "card_not_in_hand";
// A card after one that landed on a free tile or on the Mainland.
inline constexpr char kRuleExtraCard[] = "extra_card";
// The last card lands on an occupied tile; another card must be played.
inline constexpr char kRuleMustKeepMoving[] = "must_keep_moving";

// A Move's toll payment.
// The payment names a tile the player does not hold (or more copies).
inline constexpr char kRuleTollTileNotHeld[] = "toll_tile_not_held";
// The payment uses cards the hand does not hold besides the movement cards.
inline constexpr char kRuleTollCardNotHeld[] = "toll_card_not_held";
// Under toll_payment = tiles_or_cards, the payment mixes tiles and cards.
inline constexpr char kRuleTollMixedPayment[] = "toll_mixed_payment";
// The payment is worth less than the toll of the gaps crossed.
inline constexpr char kRuleTollNotCovered[] = "toll_not_covered";
// The payment still covers the toll without its smallest part (or no toll
// is due).
inline constexpr char kRuleTollOverpaid[] = "toll_overpaid";
// Under toll_overpay = only_without_exact, the payment is worth more than
// the toll although the player could pay it exactly.
inline constexpr char kRuleTollNotExact[] = "toll_not_exact";

// Pass.
// A Pass while some figure can move (laying the bridge if needed).
inline constexpr char kRulePassNotAllowed[] = "pass_not_allowed";

}  // namespace arbiter::engine::atlantis

#endif  // ARBITER_ENGINE_ATLANTIS_RULE_IDS_H_
